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
func init() {
	register(
		&Scenario{Name: "interrupted", Agent: "claude", Script: withSlowStream(claudeScript), Drive: steps(func(s *sticky) {
			s.claudeIdle()
			s.claudePrompt("slow-stream please")
			s.started("slow-stream")
			s.screen(claudeBusyFooter, "This reply streams")
			s.markNow("working", recordings.MarkerState{Composer: "empty"})
			s.key("Escape")
			s.screen("Interrupted")
			s.claudeIdle()
			s.markInterrupted()
			s.claudePrompt("hello again")
			s.claudeTurnEnd(1)
			s.markIdle()
		})},
		&Scenario{Name: "interrupted", Agent: "codex", Script: withSlowStream(codexScript), Drive: steps(func(s *sticky) {
			s.codexIdle()
			s.codexPrompt("slow-stream please")
			s.started("slow-stream")
			s.journal("task_started", rolloutHas("event_msg", "task_started"))
			s.screen("This reply streams")
			s.markNow("working", recordings.MarkerState{Composer: "empty"})
			s.key("Escape")
			s.screen("interrupted")
			s.codexIdle()
			s.markInterrupted()
			s.codexPrompt("hello again")
			s.journal("task_complete", rolloutHas("event_msg", "task_complete"))
			s.codexIdle()
			s.markIdle()
		})},
	)
}
