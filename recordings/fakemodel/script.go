package fakemodel

import (
	"strings"
	"sync"
	"time"
)

// Reply is one scripted model turn: text, a tool call, or both (text
// first).
type Reply struct {
	Text string
	Tool *ToolCall
	// FirstDelay holds the stream back after its start; ChunkDelay paces
	// the text deltas (one word each when set).
	FirstDelay, ChunkDelay time.Duration

	// fail: the chooser answers with this API error instead (a Keyword's
	// Fail, while its failures last).
	fail *Failure
}

// ToolCall is a tool_use (Anthropic) or function_call (Responses).
type ToolCall struct {
	Name  string
	Input any // marshalled as the tool's JSON input / arguments
	// Custom (Responses only): a custom_tool_call of a freeform tool
	// (Codex's code-mode `exec`); Input must be a string, sent as is.
	Custom bool
}

// Keyword is a reply chosen when the latest user prompt contains Word.
// With Fail, the keyword's first Fail.Times requests get that API error
// instead, and the later ones Reply.
type Keyword struct {
	Word  string
	Reply Reply
	Fail  *Failure
}

// Script chooses replies for main-loop requests. With Rules (Anthropic
// only), every reply is decided by the rules from the whole conversation.
// Otherwise a request whose newest input is a tool result gets AfterTool
// (or an echo of the result); any other takes the first Keyword found in
// the prompt, else the next Queue entry, else an echo of the prompt.
type Script struct {
	Keywords  []Keyword
	Queue     []Reply
	AfterTool func(result string, isError bool) Reply
	Rules     []Rule
}

// chooser is a Script in use (the queue is consumed).
type chooser struct {
	mu     sync.Mutex
	script Script
	queue  []Reply
	failed failing
}

func newChooser(s Script) *chooser {
	return &chooser{script: s, queue: append([]Reply(nil), s.Queue...)}
}

// prompt chooses the reply to a user prompt; it returns the choice's name
// for the log.
func (c *chooser) prompt(p string) (Reply, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range c.script.Keywords {
		if !strings.Contains(p, k.Word) {
			continue
		}
		if c.failed.take(k.Word, k.Fail) {
			return Reply{fail: k.Fail}, failChoice(k.Word, c.failed.n[k.Word])
		}
		return k.Reply, "keyword:" + k.Word
	}
	if len(c.queue) > 0 {
		r := c.queue[0]
		c.queue = c.queue[1:]
		return r, "queue"
	}
	return Reply{Text: "Fake reply to: " + clip(p, 200)}, "echo"
}

// toolResult chooses the reply after a tool result.
func (c *chooser) toolResult(result string, isError bool) (Reply, string) {
	if c.script.AfterTool != nil {
		return c.script.AfterTool(result, isError), "after-tool"
	}
	if isError {
		return Reply{Text: "The tool call was not completed: " + clip(result, 300)}, "after-tool"
	}
	return Reply{Text: "Tool result received: " + clip(result, 300)}, "after-tool"
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n]
	}
	return s
}
