package rig

import (
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
