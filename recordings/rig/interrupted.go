package rig

import (
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// SlowStream is a reply that streams a word every 150 ms: interrupted
// once its first words show (Esc before any output may put the prompt
// back in the composer instead, with nothing to say).
var SlowStream = fakemodel.Keyword{Word: "slow-stream", Reply: fakemodel.Reply{
	Text: strings.Repeat("This reply streams one word at a time.\n\n", 30), ChunkDelay: 150 * time.Millisecond}}

// The interrupted scenario: a person presses Esc while the agent streams its reply
// (the fake model sends a word every 150 ms). The agent stops the turn and says so
// above its idle composer: Claude Code "Interrupted · What should Claude
// do instead?", Codex "Conversation interrupted - tell the model what to
// do differently". akk reads it as blocked (interrupted) with the
// composer proven; the marks are the working screen before Esc and the
// interrupted one after, then a new prompt is answered (the interruption
// is history) and the idle screen marked.

// Interrupted is an agent's part in the interrupted scenario.
type Interrupted struct {
	// Streaming are the anchors of the working screen besides the reply's
	// words (a busy footer); Started waits for what the agent writes as the
	// turn starts (nil: nothing to wait for).
	Streaming []string
	Started   func(s *Steps)
	// Said is what the agent says of the stopped turn.
	Said string
	// Answered waits for the next prompt's turn to end and the idle
	// composer after it.
	Answered func(s *Steps)
}

// Scenario is the interrupted scenario of agent, whose corpus script is
// script and whose composer is c.
func (in Interrupted) Scenario(agent string, script func(string) fakemodel.Script, c Composer) *Scenario {
	return &Scenario{Name: "interrupted", Agent: agent, Script: WithKeywords(script, SlowStream), Drive: func(s *Steps) {
		c.Idle(s)
		c.Prompt(s, "slow-stream please")
		s.Started("slow-stream")
		if in.Started != nil {
			in.Started(s)
		}
		s.Screen(append(slices.Clone(in.Streaming), "This reply streams")...)
		s.MarkNow("working", ComposerEmpty)
		s.Key("Escape")
		s.Screen(in.Said)
		c.Idle(s)
		s.MarkInterrupted()
		c.Prompt(s, "hello again")
		in.Answered(s)
		s.MarkIdle()
	}}
}
