package rig

import (
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// slowStream is a reply that streams a word every 150 ms: interrupted
// once its first words show (Esc before any output puts the prompt back
// in Claude's composer instead, with nothing to say).
var slowStream = fakemodel.Keyword{Word: "slow-stream", Reply: fakemodel.Reply{
	Text: strings.Repeat("This reply streams one word at a time.\n\n", 30), ChunkDelay: 150 * time.Millisecond}}

func withSlowStream(script func(string) fakemodel.Script) func(string) fakemodel.Script {
	return func(v string) fakemodel.Script {
		s := script(v)
		s.Keywords = append([]fakemodel.Keyword{slowStream}, s.Keywords...)
		return s
	}
}

// interrupted: a person presses Esc while the agent streams its reply
// (the fake model sends a word every 150 ms). The agent stops the turn and says so
// above its idle composer: Claude Code "Interrupted · What should Claude
// do instead?", Codex "Conversation interrupted - tell the model what to
// do differently". akk reads it as blocked (interrupted) with the
// composer proven; the marks are the working screen before Esc and the
// interrupted one after, then a new prompt is answered (the interruption
// is history) and the idle screen marked.
// markInterrupted marks the idle composer under an interruption note
// (after Esc, Codex's rejected approvals, Claude's "No"): blocked,
// reason interrupted, the composer empty.
func markInterrupted(d *Driver) error {
	return d.Mark("blocked", recordings.MarkerState{Composer: "empty"})
}

func init() {
	register(
		&Scenario{Name: "interrupted", Agent: "claude", Script: withSlowStream(claudeScript), Drive: func(d *Driver) error {
			return then(
				func() error { return claudeIdle(d) },
				func() error { return claudePrompt(d, "slow-stream please") },
				func() error { _, err := d.Started("slow-stream"); return err },
				func() error { return d.Screen(claudeBusyFooter, "This reply streams") },
				func() error { return d.Mark("working", recordings.MarkerState{Composer: "empty"}) },
				func() error { return d.Key("Escape") },
				func() error { return d.Screen("Interrupted") },
				func() error { return claudeIdle(d) },
				func() error { return markInterrupted(d) },
				func() error { return claudePrompt(d, "hello again") },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
		&Scenario{Name: "interrupted", Agent: "codex", Script: withSlowStream(codexScript), Drive: func(d *Driver) error {
			return then(
				func() error { return codexIdle(d) },
				func() error { return codexPrompt(d, "slow-stream please") },
				func() error { _, err := d.Started("slow-stream"); return err },
				func() error { return d.Journal("task_started", rolloutHas("event_msg", "task_started")) },
				func() error { return d.Screen("This reply streams") },
				func() error { return d.Mark("working", recordings.MarkerState{Composer: "empty"}) },
				func() error { return d.Key("Escape") },
				func() error { return d.Screen("interrupted") },
				func() error { return codexIdle(d) },
				func() error { return markInterrupted(d) },
				func() error { return codexPrompt(d, "hello again") },
				func() error { return d.Journal("task_complete", rolloutHas("event_msg", "task_complete")) },
				func() error { return codexIdle(d) },
				func() error { return markIdle(d) },
			)
		}},
	)
}
