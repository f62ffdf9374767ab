package rig

// Codex's optional startup warning row, on the draft (issue 19): with
// Codex's own bundled bubblewrap first on PATH there is no warning
// (idle-bwrap and permission-bwrap in codex_tools.go have the idle
// composer and the exec overlay; draft has the warning, the rig's PATH
// having no bwrap).

// codexDraftBwrap is the draft scenario with bubblewrap on PATH: it waits
// past the warning's delay before typing, so a warning would be on screen.
func codexDraftBwrap() *Scenario {
	s := *scenarios["codex/draft"]
	draft := s.Drive
	s.Name, s.Script, s.Setup = "draft-bwrap", codexToolsScript, codexSetupBwrap
	s.Drive = func(d *Driver) error {
		return then(
			func() error { return codexIdle(d) },
			func() error { return d.Quiet(codexStartupQuiet) },
			func() error { return draft(d) },
		)
	}
	return &s
}

func init() { register(codexDraftBwrap()) }
