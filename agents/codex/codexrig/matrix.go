package codexrig

import (
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Codex's optional startup warning row, on the draft (issue 19): with
// Codex's own bundled bubblewrap first on PATH there is no warning
// (idle-bwrap and permission-bwrap in tools.go have the idle
// composer and the exec overlay; draft has the warning, the rig's PATH
// having no bwrap).

// codexDraftBwrap is the draft scenario with bubblewrap on PATH: it waits
// past the warning's delay before typing, so a warning would be on screen.
func codexDraftBwrap() *rig.Scenario {
	sc := *codexDraftScenario
	sc.Name, sc.Script, sc.Setup = "draft-bwrap", codexToolsScript, codexSetupBwrap
	sc.Drive = drive(func(s steps) {
		s.idle()
		s.Quiet(codexStartupQuiet)
		s.draft()
	})
	return &sc
}

func matrixScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out, codexDraftBwrap())
	return out
}

// codexLongModel is the -model-long axis of Codex: a model id no catalog
// knows. Codex 0.171.0 then offers the fallback tools (exec_command,
// write_stdin, apply_patch, ... as functions: no code mode), so the
// model's `exec` would be "unsupported custom tool call: exec"; the script
// calls exec_command (FallbackTools).
func codexLongModel(s *rig.Scenario) {
	s.Model = func(string) string { return longCodexModel }
	s.FallbackTools = true
	s.Script = func(string) fakemodel.Script { return codexScriptMode(false) }
}
