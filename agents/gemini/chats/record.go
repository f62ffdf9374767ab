package chats

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// geminiLine is the union of the records' fields.
type geminiLine struct {
	// the header
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	Kind        string `json:"kind"`
	// messages
	ID        string           `json:"id"`
	Timestamp string           `json:"timestamp"`
	Type      string           `json:"type"`
	Content   json.RawMessage  `json:"content"`
	Display   json.RawMessage  `json:"displayContent"`
	ToolCalls []geminiToolCall `json:"toolCalls"`
	// patches
	Set      map[string]json.RawMessage `json:"$set"`
	RewindTo string                     `json:"$rewindTo"`
}

type geminiToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Args      json.RawMessage `json:"args"`
	Result    json.RawMessage `json:"result"`
	Status    string          `json:"status"`
	Timestamp string          `json:"timestamp"` // when the call ended
}

// geminiPart is one part of a message's content.
type geminiPart struct {
	Text             *string         `json:"text"`
	Thought          bool            `json:"thought"`
	FunctionCall     json.RawMessage `json:"functionCall"`
	FunctionResponse json.RawMessage `json:"functionResponse"`
}

// String names the part's kind and its text's length, never the text.
func (p geminiPart) String() string {
	switch {
	case present(p.FunctionResponse):
		return "functionResponse"
	case present(p.FunctionCall):
		return "functionCall"
	case p.Text != nil:
		return fmt.Sprintf("text(%d bytes)", len(*p.Text))
	}
	return "part"
}

// LogValue logs the part as String does.
func (p geminiPart) LogValue() slog.Value { return slog.StringValue(p.String()) }

// geminiContent is what a message's content holds.
type geminiContent struct {
	texts    []string // each text part's text (thoughts left out)
	str      bool     // the content is a plain string (a reply's text)
	call     bool     // a functionCall part
	response bool     // a functionResponse part
	other    int      // parts of other kinds (inline data, files)
}

// text joins the text parts as the CLI joins them (partToString).
func (c *geminiContent) text() string { return strings.Join(c.texts, "") }

// readGeminiContent reads a content: a string, a list of parts (a part
// may be a bare string), or one part. ok is false for anything else.
func readGeminiContent(raw json.RawMessage) (c geminiContent, ok bool) {
	if !present(raw) {
		return c, true
	}
	if s, isStr := evidence.RawString(raw); isStr {
		c.str, c.texts = true, []string{s}
		return c, true
	}
	var items []json.RawMessage
	if raw[0] == '{' {
		items = []json.RawMessage{raw}
	} else if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return c, false
	}
	for _, it := range items {
		if s, isStr := evidence.RawString(it); isStr {
			c.texts = append(c.texts, s)
			continue
		}
		var p geminiPart
		if len(it) == 0 || it[0] != '{' || evidence.Decode(it, &p) != nil {
			return c, false
		}
		switch {
		case present(p.FunctionResponse):
			c.response = true
		case present(p.FunctionCall):
			c.call = true
		case p.Text != nil:
			if !p.Thought {
				c.texts = append(c.texts, *p.Text)
			}
		default:
			c.other++
		}
	}
	return c, true
}

func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
