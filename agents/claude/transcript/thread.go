package transcript

import (
	"encoding/json"
	"strings"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// claudeThreadRecord adds the title records' fields to claudeLine.
type claudeThreadRecord struct {
	claudeLine
	CustomTitle string `json:"customTitle"`
	AITitle     string `json:"aiTitle"`
	LastPrompt  string `json:"lastPrompt"`
}

// ThreadLine reads what one transcript line says of its conversation:
// its id and cwd, the user's prompts and slash commands (never a
// subagent's), the record's time, and the titles its picker shows first:
// a custom-title (/rename, rank 0), an ai-title (rank 1), a last-prompt
// (rank 2). A line that is not a record says nothing.
func ThreadLine(line []byte) evidence.ThreadLine {
	var tl evidence.ThreadLine
	var rec claudeThreadRecord
	if evidence.Decode(line, &rec) != nil || rec.IsSidechain || rec.AgentID != "" {
		return tl
	}
	tl.Time = evidence.RecordTime(rec.Timestamp)
	if rec.SessionID != "" && rec.Cwd != "" {
		tl.ID, tl.Cwd = rec.SessionID, rec.Cwd
	}
	switch rec.Type {
	case "custom-title":
		tl.Title, tl.TitleRank = rec.CustomTitle, 0
	case "ai-title":
		tl.Title, tl.TitleRank = rec.AITitle, 1
	case "last-prompt":
		tl.Title, tl.TitleRank = rec.LastPrompt, 2
	case "user":
		text, ok := claudeUserText(rec.Message)
		switch {
		case !ok || rec.IsMeta:
		case isPromptText(text):
			tl.Prompt = text
		default:
			tl.Command = commandName(text)
		}
	}
	return tl
}

// claudeUserText is a user message's text: a string, or its text blocks
// (false when it holds a tool result).
func claudeUserText(raw json.RawMessage) (string, bool) {
	var m claudeMessage
	if evidence.Decode(raw, &m) != nil {
		return "", false
	}
	if s, ok := evidence.RawString(m.Content); ok {
		return s, true
	}
	var blocks []claudeBlock
	if evidence.Decode(m.Content, &blocks) != nil {
		return "", false
	}
	var texts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "tool_result":
			return "", false
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

// commandName reads "/clear" (and its arguments) from a slash command's
// echo, "<command-name>/clear</command-name> ... <command-args>x</command-args>".
func commandName(text string) string {
	between := func(tag string) string {
		_, rest, ok := strings.Cut(text, "<"+tag+">")
		v, _, ok2 := strings.Cut(rest, "</"+tag+">")
		if !ok || !ok2 {
			return ""
		}
		return strings.TrimSpace(v)
	}
	name := between("command-name")
	if !strings.HasPrefix(name, "/") {
		return ""
	}
	return strings.TrimSpace(name + " " + between("command-args"))
}
