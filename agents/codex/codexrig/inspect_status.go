package codexrig

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// /status (inspect.go): on a fresh session, over its completion list, and
// with two rollouts open.

func codexInspectStatus() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "status", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) { s.statusRun(a, codexInspects[s.d.Version].status) })}
}

// statusRun is the status scenario: /status typed into the idle
// empty composer of a fresh session, Enter, the block (rows, given the
// Session id) and the idle empty composer under it.
func (s steps) statusRun(a rig.Threads, rows func(id string) []string) {
	d := s.d
	s.slash(a, "/status", "/status", codexStatusCmds)
	s.Key("Enter")
	id := s.statusSession()
	s.ScreenFunc("the /status block", func(text string) bool { return rig.HasRowBlock(text, rows(id)) })
	s.Gone(codexStatuslineHint)
	s.idleEmpty(a)
	// The Session row names the thread: its writer lock (its
	// rollout is written at the first prompt; status-ambiguous
	// shows the Session is that rollout's id).
	s.Do(func() error {
		all, _ := filepath.Glob(filepath.Join(d.Home.Home, ".codex", "thread-writer-locks", "*.lock"))
		var locks []string // .coordination.lock aside
		for _, l := range all {
			if !strings.HasPrefix(filepath.Base(l), ".") {
				locks = append(locks, l)
			}
		}
		if len(locks) != 1 || strings.TrimSuffix(filepath.Base(locks[0]), ".lock") != id {
			return fmt.Errorf("rig: /status showed session %s, the thread locks are %v", id, locks)
		}
		return nil
	})
}

func codexInspectStatusCompletion() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "status-completion", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) {
			d := s.d
			// "/statu": both rows, /status first and highlighted; the
			// composer does not hold the command.
			s.slash(a, "/statu", "/status", codexStatusCmds)
			s.Type("s")
			a.ComposerRow(s.Steps, "/status")
			s.completion("/status", codexStatusCmds)
			// Down highlights /statusline; the composer keeps "/status".
			s.Key("Down")
			s.completion("/statusline", codexStatusCmds)
			a.ComposerRow(s.Steps, "/status")
			s.Mark("idle", rig.ComposerDraft)
			s.Do(func() error { d.Logger().Info("rig: status-completion", "screen", d.ScreenText()); return nil })
			s.Key("C-u")
			s.composerEmpty(a)
			s.Gone(codexStatuslineHint)
			s.Mark("idle", rig.ComposerEmpty)
		})}
}

func codexInspectStatusAmbiguous() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "status-ambiguous", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) {
			d := s.d
			first := a.Ask(s.Steps, codexTwice, codexTwice, 1)
			a.NewThread(s.Steps)
			// The same prompt again, in the new conversation: its own
			// rollout, not the first.
			a.Idle(s.Steps)
			a.Prompt(s.Steps, codexTwice)
			s.Request("prompt "+codexTwice, nil)
			second := s.JournalFile("the second conversation's rollout", func(p string) bool {
				return p != first && rig.CountLines(p, codexThreads.PromptLine(codexTwice)) > 0 && rig.CountLines(p, codexThreads.TurnEnd) >= 1
			})
			s.idleEmpty(a)
			s.Do(func() error {
				open := codexOpenRollouts(d.Home.Home)
				if first == second || len(open) != 2 || !slices.Contains(open, first) || !slices.Contains(open, second) {
					return fmt.Errorf("rig: want both rollouts open, %s and %s; open: %v", first, second, open)
				}
				d.Logger().Info("rig: rollouts open", "first", codexThreadID(first), "second", codexThreadID(second))
				return nil
			})
			s.slash(a, "/status", "/status", codexStatusCmds)
			s.Key("Enter")
			id := s.statusSession()
			s.Do(func() error {
				if id != codexThreadID(second) {
					return fmt.Errorf("rig: /status shows session %s, want the second conversation's %s", id, codexThreadID(second))
				}
				return nil
			})
			s.RowBlock("the /status block", codexInspects[d.Version].statusTurn(codexThreadID(second), codexTwice))
			if !rig.VersionAtLeast(d.Version, "0.171.0") {
				// The first conversation's id stays on the screen, above.
				s.Screen("To continue this session, run codex resume " + codexThreadID(first))
			}
			s.idleEmpty(a)
			s.Do(func() error { d.Logger().Info("rig: status-ambiguous", "screen", d.ScreenText()); return nil })
		})}
}

// codexOpenRollouts lists the rollout files the run's processes hold open.
func codexOpenRollouts(home string) []string {
	var out []string
	var table procid.Table
	for _, pid := range rig.ProcessesOf(home) {
		files, _ := table.Files(pid, func(base string) bool { return strings.HasPrefix(base, "rollout-") })
		for _, f := range files {
			if !slices.Contains(out, f.Target) {
				out = append(out, f.Target)
			}
		}
	}
	slices.Sort(out)
	return out
}
