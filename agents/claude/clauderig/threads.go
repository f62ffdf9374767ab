package clauderig

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// claudeThreads is Claude Code's part in the rig's thread scenarios (rig.Threads):
// /clear, the resume picker under the transcript, the transcript named
// by its sessionId.
var claudeThreads = rig.Threads{
	Composer: composer,
	Versions: []string{"2.1.267", "2.1.332"},
	NewCmd:   "/clear", NewHint: "Start a new session with empty context", ResumeHint: "Resume a previous",
	Glyph:  "❯ ",
	Script: claudeScript,
	PromptLine: func(prompt string) func(map[string]any) bool {
		return func(m map[string]any) bool { return m["type"] == "user" && strings.Contains(rig.JSONString(m), prompt) }
	},
	TurnEnd: claudeTurnEndLine,
	ID:      claudeSessionID,
	SlashShown: func(s *rig.Steps, cmd string) {
		wrap(s).composerReads(cmd)
		s.Gone(claudeIdleFooter)
	},
	DraftShown: func(s *rig.Steps) { s.Gone(claudeIdleFooter) },
	ArgHint:    claudeResumeArgHint,
	AfterNew: func(s *rig.Steps) {
		s.Gone("This is the first conversation.")
		// The new transcript starts with the /clear command.
		s.JournalFile("the new transcript", func(path string) bool {
			return strings.Contains(rig.ReadFile(path), "<command-name>/clear</command-name>")
		})
	},
	Picker: func(s *rig.Steps) {
		title := "Fake session" // 2.1.267: the AI title (the fake model's title reply)
		if rig.VersionAtLeast(s.Driver().Version, "2.1.332") {
			title = rig.ThreadFirst // its first prompt
		}
		s.Screen("Resume session", "Search…", "❯ "+title, " ago · ", "Esc to c")
		// One session: the current conversation is not listed.
		s.Do(func() error {
			if n := strings.Count(s.Driver().ScreenText(), " ago · "); n != 1 {
				return fmt.Errorf("rig: the picker lists %d sessions, want the first conversation alone:\n%s", n, s.Driver().ScreenText())
			}
			return nil
		})
		s.Mark("menu_or_viewer", rig.ComposerAbsent)
	},
	Choose: func(s *rig.Steps) { s.Key("Enter") },
}

// claudeTurnEndLine holds for a transcript's line that ends a turn.
func claudeTurnEndLine(m map[string]any) bool {
	return m["type"] == "system" && m["subtype"] == "turn_duration"
}

// claudeSessionID is the sessionId of a transcript: its file's name.
func claudeSessionID(path string) string { return strings.TrimSuffix(filepath.Base(path), ".jsonl") }

// claudeResumeArgHint is the argument hint Claude draws after "/resume "
// on the composer row.
func claudeResumeArgHint(version string) string {
	if rig.VersionAtLeast(version, "2.1.332") {
		return "[session ID or search term]"
	}
	return "[conversation id or search term]"
}

func threadScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out, claudeThreads.Scenarios("claude")...)
	return out
}
