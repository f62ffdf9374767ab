package codexrig

import (
	"path/filepath"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// codexThreads is Codex's part in the rig's thread scenarios (rig.Threads): /new,
// the full-screen resume picker, the rollout named by its thread id.
var codexThreads = rig.Threads{
	Composer: composer,
	Versions: []string{"0.155.1", "0.171.0"},
	NewCmd:   "/new", NewHint: "start a new chat during a conversation", ResumeHint: "resume a saved chat",
	Glyph: "› ", Placeholder: "Ask Codex to do anything",
	Script: codexScript,
	PromptLine: func(prompt string) func(map[string]any) bool {
		return rolloutHas("response_item", "message", `"text":"`+prompt+`"`)
	},
	TurnEnd:    rolloutHas("event_msg", "task_complete"),
	ID:         codexThreadID,
	DraftShown: func(s *rig.Steps) { s.Screen(codexStatus) },
	ArgHint:    func(string) string { return "" },
	AfterNew: func(s *rig.Steps) {
		// The status line drops 0.171.0's thread title too.
		s.Gone(rig.ThreadFirst)
		if !rig.VersionAtLeast(s.Driver().Version, "0.171.0") {
			s.Screen("To continue this session, run codex resume ")
		}
	},
	Picker: func(s *rig.Steps) {
		// Both threads, the current one first and highlighted
		// (0.155.1 "❯", 0.171.0 "›").
		s.Screen("Resume a previous session", "Type to search", rig.ThreadSecond, rig.ThreadFirst, "1 / 2", "enter resume")
		s.Mark("menu_or_viewer", rig.ComposerAbsent)
	},
	Choose: func(s *rig.Steps) {
		s.Key("Down")
		s.Screen("2 / 2")
		s.ScreenFunc("the first conversation highlighted", func(text string) bool {
			for _, l := range strings.Split(text, "\n") {
				if strings.Contains(l, rig.ThreadFirst) {
					l = strings.TrimSpace(l)
					return strings.HasPrefix(l, "❯") || strings.HasPrefix(l, "›")
				}
			}
			return false
		})
		s.Mark("menu_or_viewer", rig.ComposerAbsent)
		s.Key("Enter")
	},
	ResumedNote: func(s *rig.Steps, second string) {
		if !rig.VersionAtLeast(s.Driver().Version, "0.171.0") {
			s.Screen("To continue this session, run codex resume " + second)
		}
	},
}

// codexThreadID is the thread id of a rollout, rollout-<time>-<id>.jsonl.
func codexThreadID(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if strings.HasPrefix(base, "rollout-") && len(base) >= 36 {
		return base[len(base)-36:]
	}
	return base
}

func threadScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out, codexThreads.Scenarios("codex")...)
	return out
}
