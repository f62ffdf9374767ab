package codexrig

import "github.com/agent-knock-knock/akk/recordings/rig"

// The keys of a user-explicit send on Codex (rig.UserScript), measured
// on the real binaries.
//
// Codex (0.155.1, 0.171.0): ctrl+u deletes from the start of the cursor's
// line to the cursor (the text after the cursor and the lines above stay;
// at the start of a line it deletes the line break); ctrl+j inserts a
// newline. While working, Tab queues and Enter steers (0.171.0 sends the
// steered message at once, dropping the held model request).
const (
	codexNewline = "\x0a" // ctrl+j
	codexCtrlU   = "\x15"
)

func userScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	draft := func(s steps, text string) {
		s.idle()
		s.Type(text)
		s.Screen("› " + text)
		s.Pause(codexEnterGap)
		s.Mark("idle", rig.ComposerDraft)
	}
	out = append(out,
		&rig.Scenario{Name: "clear-draft", Agent: "codex", Only: []string{"0.155.1", "0.171.0"}, Script: rig.UserScript(codexScript),
			Drive: drive(func(s steps) {
				draft(s, rig.DraftText)
				s.Type(codexCtrlU)
				s.Gone(rig.DraftText)
				s.Mark("idle", rig.ComposerEmpty)
				s.prompt(rig.RequestText)
				s.Request("prompt", nil)
				s.turnEnd(false)
				s.MarkIdle()
			})},
		// C-u with the cursor inside the draft deletes only what is before
		// the cursor.
		&rig.Scenario{Name: "clear-cursor-mid", Agent: "codex", Only: []string{"0.155.1", "0.171.0"}, Script: rig.UserScript(codexScript),
			Drive: drive(func(s steps) {
				draft(s, "remove these words tail")
				for range 4 {
					s.Key("Left")
				}
				s.Pause(codexEnterGap)
				s.Type(codexCtrlU)
				s.Gone("remove these words")
				s.Screen("› tail")
				s.Mark("idle", rig.ComposerDraft)
			})},
		// A two-line draft (ctrl+j); C-u on the last line, and again.
		&rig.Scenario{Name: "clear-multiline", Agent: "codex", Only: []string{"0.155.1", "0.171.0"}, Script: rig.UserScript(codexScript),
			Drive: drive(func(s steps) {
				s.idle()
				s.Type("first line of the draft")
				s.Screen("› first line of the draft")
				s.Pause(codexEnterGap)
				s.Type(codexNewline)
				s.Type("second line of the draft")
				s.Screen("› first line of the draft", "  second line of the draft")
				s.Pause(codexEnterGap)
				s.Mark("idle", rig.ComposerDraft)
				// The first C-u empties the last line (the line stays), the
				// second deletes the line break, the third the first line.
				s.Type(codexCtrlU)
				s.Gone("second line of the draft")
				s.Screen("› first line of the draft")
				s.Misread("screen_state unknown, composer absent (an empty last line under the first)",
					"idle", rig.ComposerDraft, s.Mark)
				s.Type(codexCtrlU)
				s.Pause(codexEnterGap)
				s.Mark("idle", rig.ComposerDraft)
				s.Type(codexCtrlU)
				s.Gone("first line of the draft")
				s.Mark("idle", rig.ComposerEmpty)
			})},
		sendWorking(),
	)
	return out
}

// While the turn runs: a draft cleared with C-u, a request with Tab
// (queued for the next turn), another with Enter (steered into the
// running turn).
func sendWorking() *rig.Scenario {
	return &rig.Scenario{Name: "send-working", Agent: "codex", Only: []string{"0.155.1", "0.171.0"}, Script: rig.UserScript(codexScript),
		Drive: drive(func(s steps) {
			d := s.d
			s.idle()
			s.prompt("slow-task please")
			s.Started("slow-task")
			s.Journal("task_started", rolloutHas("event_msg", "task_started"))
			s.Screen(codexBusy)
			s.Mark("working", rig.ComposerEmpty)
			s.Type(rig.DraftText)
			s.Screen("› "+rig.DraftText, codexBusy)
			// The status line gives way to "tab to queue message".
			s.Misread("screen_state unknown, composer absent (the footer row reads \"tab to queue message\")",
				"working", rig.ComposerDraft, s.Mark)
			s.Type(codexCtrlU)
			s.Gone(rig.DraftText)
			s.Mark("working", rig.ComposerEmpty)
			// Tab queues for the next turn.
			s.Type("queued request")
			s.Screen("› queued request", codexBusy)
			s.Pause(codexEnterGap)
			s.Key("Tab")
			s.Screen("Queued follow-up inputs", "↳ queued request", codexBusy)
			// Working (0.171.0's hint under the queued inputs reads
			// "shift+← edit last queued message").
			s.Mark("working", rig.ComposerEmpty)
			// Enter steers into the running turn.
			s.Type(rig.RequestText)
			s.Screen("› "+rig.RequestText, codexBusy)
			s.Pause(codexEnterGap)
			s.Key("Enter")
			if rig.VersionAtLeast(d.Version, "0.171.0") {
				// The steer block is drawn for ~30 ms: the held-back model
				// request is dropped and a new one made with the steered
				// message; its reply ends the turn.
				s.Journal("steered message", rolloutHas("response_item", "message", `"text":"`+rig.RequestText+`"`))
			} else {
				s.Screen(codexSteerHeader, "↳ "+rig.RequestText, "↳ queued request", codexBusy)
				s.Mark("working", rig.ComposerEmpty)
			}
			s.Journal("second task_complete", rig.NthLine(d, 2, rolloutHas("event_msg", "task_complete")))
			s.Do(func() error { return codexCheckSteerQueue(d.JournalPath(), rig.RequestText, "queued request") })
			s.idle()
			s.MarkIdle()
		})}
}
