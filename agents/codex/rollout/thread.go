package rollout

import "github.com/agent-knock-knock/akk/watchers/evidence"

// ThreadLine reads what one rollout line says of its conversation: its id
// and cwd (session_meta), the user's prompts (never the context blocks
// Codex adds), the record's time. A line that is not a record says
// nothing.
func ThreadLine(line []byte) evidence.ThreadLine {
	var tl evidence.ThreadLine
	var rec codexLine
	if evidence.Decode(line, &rec) != nil {
		return tl
	}
	tl.Time = evidence.RecordTime(rec.Timestamp)
	pl := &rec.Payload
	switch {
	case rec.Type == "session_meta":
		if pl.ID != "" && pl.Cwd != "" {
			tl.ID, tl.Cwd = pl.ID, pl.Cwd
		}
	case rec.Type == "response_item" && pl.Type == "message" && pl.Role == "user":
		text, ok := codexText(pl.Content)
		var kinds []string
		if pl.Meta != nil {
			kinds = pl.Meta.Kinds
		}
		if ok && userText(kinds, text) {
			tl.Prompt = text
		}
	case rec.Type == "event_msg" && pl.Type == "user_message":
		tl.Prompt, _ = evidence.RawString(pl.Message)
	case rec.Type == "event_msg" && pl.Type == "item_completed":
		var item codexItem
		if evidence.Decode(pl.Item, &item) == nil && item.Type == "UserMessage" {
			tl.Prompt, _ = codexText(item.Content)
		}
	}
	return tl
}
