package chats

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Gemini CLI 0.61.0 records a conversation in
// ~/.gemini/tmp/<project>/chats/session-<date>-<id8>.jsonl. Its
// ChatRecordingService (the bundle's core chunk) appends one JSON line per
// change with appendFileSync (appendRecord); it replaces the file only to
// repair one it could not read when resuming (rewriteConversationFile:
// temp file and rename). Read in the installed bundle: core in
// chunk-JDPZ4CE3.js, the interactive UI's useGeminiStream in
// interactiveCli-TRXNUIPM.js, useHistory in chunk-HPLZM7PQ.js. The
// records, told apart as its own reader loadConversationRecord does (the
// first that fits):
//
//	{"$rewindTo": id}                 -> the list cut before id (rewindTo: /rewind;
//	                                     a $set messages with the kept ones follows)
//	{"id", "timestamp", "type", ...}  -> a message; a line with an id already
//	                                     written replaces that message (pushMessage)
//	{"$set": {...}}                   -> a patch (updateMetadata): lastUpdated after
//	                                     each message; messages, the whole list
//	                                     replaced (updateMessagesFromHistory);
//	                                     sessionId (SessionIdentity when it changes;
//	                                     a resume writes it again); summary,
//	                                     memoryScratchpad, directories
//	{"sessionId", "projectHash", ...} -> the header (initialize): SessionIdentity,
//	                                     no cwd or version in the file; kind
//	                                     "subagent" is a subagent's file, read for
//	                                     nothing
//
// Messages, by type:
//
//	user, text parts                  -> TurnStarted + PromptAccepted, the id being
//	                                     the turn (GeminiChat.sendMessageStream,
//	                                     before the request; the hash is of
//	                                     displayContent's text when there is one:
//	                                     an @file prompt's typed words)
//	user, functionResponse parts      -> nothing: the results of toolCalls written
//	                                     just before (a steering hint rides along)
//	user "[System: You successfully   -> nothing: the CLI's own continuation of the
//	executed a tool...", "System:        turn (useGeminiStream's nudge after an
//	Potential loop detected..."          empty reply; loop recovery)
//	gemini, a new id                  -> the model's reply, written once its stream
//	                                     ended (processStreamResponse): content its
//	                                     text alone, "" when it only made calls;
//	                                     tokens its usage (input, output, cached,
//	                                     thoughts, tool, total); never its calls
//	gemini, toolCalls                 -> ToolPending + ToolResult for each call not
//	                                     reported (recordToolCalls from
//	                                     recordCompletedToolCalls, once every call
//	                                     of a batch ended: the reply's id rewritten
//	                                     with its calls, or a new gemini message
//	                                     when the last message is no reply, as
//	                                     after an Esc that stopped a running call).
//	                                     status success; error (IsError: the tool
//	                                     failed; a command's non-zero exit is
//	                                     success); cancelled (IsError; Rejected
//	                                     with "User denied execution.": No or Esc
//	                                     at the approval dialog or an ask_user
//	                                     question; not with "Operation cancelled
//	                                     by user": Esc while it ran). The other
//	                                     statuses (validating, scheduled,
//	                                     executing, awaiting_approval) are never
//	                                     written; read, they are pending.
//	                                     + QuestionAnswered for an answered
//	                                     ask_user (output {"answers":{"0":"Green"}})
//	info "Request cancelled."         -> TurnAborted, interrupted (Esc while
//	                                     streaming or running; every call of a
//	                                     batch refused)
//	info "User cancelled the request."-> TurnAborted (a cancelled stream)
//	info "⚠️  Response ..."          -> the reply stopped short (a finish reason
//	                                     other than STOP): no end with text
//	error                             -> TurnFailed (an API error once the retries
//	                                     are spent; retries write nothing)
//	other info, warning               -> nothing (useHistory writes every info,
//	                                     warning and error the screen shows)
//
// A tool call is written only once it has ended: a call waiting for its
// approval or an answer, or running, leaves no trace, so its ToolPending
// comes with its ToolResult.
//
// No record ends a turn. A reply is written whole when the model's stream
// ends, its text and no calls; the calls of the same reply appear only
// once they have ended, as toolCalls on its id. So a reply with text and
// no toolCalls ends the turn only if it made no call, and the file cannot
// say so until its next record: the turn is reported completed (at the
// reply's line; EndedWithText when its text is not empty and was not cut
// short) when the next prompt starts another turn, never while it is the
// last one. A reply whose content is "" made calls (an empty reply with
// none fails the request). An error written while the turn's last reply
// has text and no calls is not the turn's (no request is in flight then;
// slash commands write errors too). "Request cancelled." then is: Esc
// stopped one of its calls running (their toolCalls follow the info) — or
// a shell-mode (!) command, which the file does not show.
//
// Writing again. When the CLI sets its history from contents without ids
// (GeminiChat.setHistory from getHistory(): every call of a batch refused,
// tool output masked, the context truncated or managed), it writes each
// entry again as a new message with a new id (recordSyntheticMessage: user
// parts; gemini parts with tokens null; entries of one role in a row
// merged), then $set messages. The history begins with the CLI's
// <session_context> message, merged with the first prompt, or after a
// /rewind with the first message kept, a prompt or a reply. From a message
// that begins so (user text starting with <session_context>, or the type
// and text of the list's first message) until the next $set messages, or
// a record such a rewrite does not hold (a reply whose content is text,
// an info, an error, a warning), nothing is a prompt, a reply or a turn.
// The first <session_context> message comes in initialize's $set messages
// only; /rewind writes no message again (its entries keep their ids). A
// request the user cancels, or that fails, is taken out of the history
// again by a $set messages that no longer lists its prompt: the prompt
// stays accepted. Resuming (--resume) appends $set sessionId and $set
// messages to the same file, and the prompts after them.

const (
	geminiCancelled     = "Request cancelled."
	geminiUserCancelled = "User cancelled the request."
	geminiDenied        = "User denied execution."
	geminiContext       = "<session_context>"
	geminiNudge         = "[System: You successfully executed a tool but returned an empty response."
	geminiLoop          = "System: Potential loop detected."
	geminiShortReply    = "\u26a0\ufe0f  Response "
	geminiAskUser       = "ask_user"
)

// geminiFirst is the type and text parts of the list's first message.
type geminiFirst struct {
	typ   string
	texts []string
}

// geminiState is where the current turn stands.
type geminiState int

const (
	// geminiAsked: a model request is due or in flight (after the prompt,
	// after tool results).
	geminiAsked geminiState = iota
	// geminiCalling: the reply made calls; they run or wait.
	geminiCalling
	// geminiReplied: the reply has no toolCalls yet: the turn's end,
	// unless calls of it show up.
	geminiReplied
)

type geminiTurn struct {
	id    string
	start time.Time
	open  bool // a prompt started it; no end reported yet
	state geminiState
	reply evidence.Where // the reply's line while replied
	text  bool           // that reply is text that was not cut short
}

// Tool call progress, by call id.
const (
	geminiCallPending = 1 // ToolPending reported
	geminiCallDone    = 2 // ToolResult reported
)

// Parser parses Gemini CLI conversation records (chats/*.jsonl).
type Parser struct {
	stats    evidence.ParseStats
	session  string
	subagent bool
	turn     geminiTurn
	seen     map[string]bool  // message ids written so far
	calls    map[string]uint8 // tool call id -> progress reported
	// list is the conversation's messages as the CLI holds them
	// (cachedConversation); first is its first message: a history written
	// again begins with it.
	list   []string
	inList map[string]bool
	first  geminiFirst
	// rewrite: the history is being written again (until $set messages).
	rewrite bool
}

// NewParser returns a parser for one conversation file.
func NewParser() *Parser {
	p := &Parser{}
	p.Reset()
	return p
}

// Reset forgets everything learnt from earlier lines.
func (p *Parser) Reset() {
	p.session, p.subagent, p.turn, p.rewrite = "", false, geminiTurn{}, false
	p.seen, p.calls, p.inList = map[string]bool{}, map[string]uint8{}, map[string]bool{}
	p.list, p.first = nil, geminiFirst{}
}

// Stats returns the parser's counters.
func (p *Parser) Stats() *evidence.ParseStats { return &p.stats }

// Flush has nothing to do: a turn whose end the file has not shown yet is
// not reported ended.
func (p *Parser) Flush(out []evidence.Event) []evidence.Event { return out }

// Parse reads one record.
func (p *Parser) Parse(where evidence.Where, line []byte, out []evidence.Event) []evidence.Event {
	if !evidence.LineStart(&p.stats, line) {
		return out
	}
	var rec geminiLine
	if err := evidence.Decode(line, &rec); err != nil {
		return evidence.MalformedLine(&p.stats, where, out, err)
	}
	n := len(out)
	switch {
	case rec.RewindTo != "":
		p.rewind(rec.RewindTo)
	case rec.ID != "":
		where.Time = evidence.RecordTime(rec.Timestamp)
		out = p.message(where, &rec, out)
	case rec.Set != nil:
		out = p.patch(where, rec.Set, out)
	case rec.SessionID != "" && rec.ProjectHash != "":
		where.Time = evidence.RecordTime(rec.StartTime)
		p.subagent = rec.Kind == "subagent"
		if p.subagent {
			p.stats.Ignored++
		} else {
			out = p.identity(where, rec.SessionID, out)
		}
	default:
		return evidence.MalformedLine(&p.stats, where, out, errors.New("no record kind"))
	}
	p.stats.Events += int64(len(out) - n)
	return out
}

func (p *Parser) identity(where evidence.Where, id string, out []evidence.Event) []evidence.Event {
	if id == p.session {
		p.stats.Ignored++
		return out
	}
	p.session = id
	return append(out, evidence.SessionIdentity{Where: where, SessionID: id})
}

// rewind cuts the list before id (the $set messages that follows names
// what the CLI kept).
func (p *Parser) rewind(id string) {
	p.stats.Ignored++
	switch i := slices.Index(p.list, id); {
	case i == 0:
		p.setList(nil, geminiFirst{})
	case i > 0:
		p.setList(p.list[:i], p.first)
	}
}

func (p *Parser) setList(ids []string, first geminiFirst) {
	p.list, p.first = slices.Clone(ids), first
	clear(p.inList)
	for _, id := range p.list {
		p.inList[id] = true
	}
}

// patch reads a $set: the message list replaced (a rewrite's end), the
// session named again.
func (p *Parser) patch(where evidence.Where, set map[string]json.RawMessage, out []evidence.Event) []evidence.Event {
	n := len(out)
	for k := range set {
		switch k {
		case "lastUpdated", "messages", "sessionId", "summary", "memoryScratchpad", "directories":
		default:
			p.stats.CountUnknown("$set/" + k)
		}
	}
	if raw, ok := set["messages"]; ok {
		p.messages(raw)
	}
	if id, ok := evidence.RawString(set["sessionId"]); ok && id != "" && !p.subagent {
		out = p.identity(where, id, out)
	} else if len(out) == n {
		p.stats.Ignored++
	}
	return out
}

// messages takes the whole list from a $set messages.
func (p *Parser) messages(raw json.RawMessage) {
	var msgs []struct {
		ID      string          `json:"id"`
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
	}
	evidence.Decode(raw, &msgs)
	ids := make([]string, 0, len(msgs))
	var first geminiFirst
	for _, m := range msgs {
		if m.ID == "" {
			continue
		}
		if len(ids) == 0 {
			c, _ := readGeminiContent(m.Content)
			first = geminiFirst{m.Type, c.texts}
		}
		ids = append(ids, m.ID)
		p.seen[m.ID] = true
	}
	p.setList(ids, first)
	p.rewrite = false
}

// message reads a message record.
func (p *Parser) message(where evidence.Where, rec *geminiLine, out []evidence.Event) []evidence.Event {
	again := p.seen[rec.ID]
	p.seen[rec.ID] = true
	c, ok := readGeminiContent(rec.Content)
	switch {
	case p.subagent:
		p.stats.Ignored++
	case (rec.Type == "user" || rec.Type == "gemini") && !ok:
		p.stats.CountUnknown(rec.Type + "/content")
	case rec.Type == "user":
		out = p.user(where, rec, &c, again, out)
	case rec.Type == "gemini":
		out = p.reply(where, rec, &c, again, out)
	case rec.Type == "info":
		out = p.info(where, rec, out)
	case rec.Type == "error":
		out = p.failure(where, rec, out)
	case rec.Type == "warning":
		p.rewrite = false
		p.stats.Ignored++
	default:
		p.stats.CountUnknown("message/" + rec.Type)
	}
	if !p.inList[rec.ID] {
		p.inList[rec.ID] = true
		p.list = append(p.list, rec.ID)
		if len(p.list) == 1 {
			p.first = geminiFirst{rec.Type, c.texts}
		}
	}
	return out
}

// user reads a user message.
func (p *Parser) user(where evidence.Where, rec *geminiLine, c *geminiContent, again bool, out []evidence.Event) []evidence.Event {
	switch {
	case again:
		p.stats.Ignored++
		return out
	case c.response:
		// Tool results going back to the model: a request is due.
		if !p.rewrite {
			p.ask()
		}
		p.stats.Ignored++
		return out
	case p.rewrite || p.rewrites("user", c.texts):
		p.rewrite = true
		p.stats.Ignored++
		return out
	}
	text := c.text()
	if d, ok := readGeminiContent(rec.Display); ok && len(d.texts) > 0 {
		text = d.text()
	}
	switch {
	case len(c.texts) == 0 && c.other == 0:
		p.stats.Ignored++
		return out
	case strings.HasPrefix(text, geminiNudge), strings.HasPrefix(text, geminiLoop):
		p.ask()
		p.stats.Ignored++
		return out
	}
	out = p.complete(out)
	p.turn = geminiTurn{id: rec.ID, start: where.Time, open: true, state: geminiAsked}
	return append(out,
		evidence.TurnStarted{Where: where, TurnID: rec.ID},
		evidence.PromptAccepted{Where: where, SessionID: p.session, TurnID: rec.ID, SHA256: evidence.PromptHash(text), Len: len(text)})
}

// rewrites says whether a message of type typ with these text parts
// begins a history written again: user text that is the CLI's context,
// or the list's first message (with the next ones merged into it when of
// the same role).
func (p *Parser) rewrites(typ string, texts []string) bool {
	if typ == "user" && len(texts) > 0 && strings.HasPrefix(strings.TrimSpace(texts[0]), geminiContext) {
		return true
	}
	f := p.first.texts
	return p.first.typ == typ && len(f) > 0 && len(texts) >= len(f) && slices.Equal(texts[:len(f)], f)
}

// ask: the open turn waits for the model again.
func (p *Parser) ask() {
	if p.turn.open {
		p.turn.state = geminiAsked
	}
}

// complete reports the open turn completed when its last reply had no
// calls: another prompt follows it.
func (p *Parser) complete(out []evidence.Event) []evidence.Event {
	t := &p.turn
	if !t.open || t.state != geminiReplied {
		return out
	}
	t.open = false
	var d time.Duration
	if !t.start.IsZero() && t.reply.Time.After(t.start) {
		d = t.reply.Time.Sub(t.start)
	}
	return append(out, evidence.TurnCompleted{Where: t.reply, TurnID: t.id, Duration: d, EndedWithText: t.text})
}

// reply reads a gemini message: a reply when its id is new, its calls
// once they ended.
func (p *Parser) reply(where evidence.Where, rec *geminiLine, c *geminiContent, again bool, out []evidence.Event) []evidence.Event {
	if !c.str && len(rec.ToolCalls) == 0 && (p.rewrite || !again && p.rewrites("gemini", c.texts)) {
		p.rewrite = true
		p.stats.Ignored++ // a reply of the history written again
		return out
	}
	p.rewrite = false
	if !again && p.turn.open {
		t := &p.turn
		switch {
		case !c.str:
			// Parts: an empty reply to tool results (recordSyntheticMessage).
			t.state, t.reply, t.text = geminiReplied, where, false
			if c.call {
				t.state = geminiCalling
			}
		case strings.TrimSpace(c.texts[0]) == "":
			t.state = geminiCalling
		default:
			t.state, t.reply, t.text = geminiReplied, where, true
		}
		if t.state == geminiReplied && len(rec.ToolCalls) == 0 {
			out = append(out, evidence.ReplyEnded{Where: where, TurnID: t.id, Text: t.text})
		}
	}
	n := len(out)
	out = p.toolCalls(where, rec.ToolCalls, out)
	if len(out) == n {
		p.stats.Ignored++
	}
	return out
}

// toolCalls reports the calls not reported yet. Calls that ended send
// their results back: the turn waits for the model again.
func (p *Parser) toolCalls(where evidence.Where, calls []geminiToolCall, out []evidence.Event) []evidence.Event {
	ended := false
	for i := range calls {
		tc := &calls[i]
		if tc.ID == "" || p.calls[tc.ID] == geminiCallDone {
			continue
		}
		if p.calls[tc.ID] == 0 {
			p.calls[tc.ID] = geminiCallPending
			out = append(out, evidence.ToolPending{Where: where, TurnID: p.turn.id, CallID: tc.ID, Name: tc.Name, InputSHA256: evidence.Digest(tc.Args)})
		}
		switch tc.Status {
		case "success", "error", "cancelled":
		case "validating", "scheduled", "executing", "awaiting_approval":
			continue
		default:
			p.stats.CountUnknown("toolCall/" + tc.Status)
			continue
		}
		p.calls[tc.ID], ended = geminiCallDone, true
		at := where
		if t := evidence.RecordTime(tc.Timestamp); !t.IsZero() {
			at.Time = t
		}
		rejected := tc.Status == "cancelled" && bytes.Contains(tc.Result, []byte(geminiDenied))
		out = append(out, evidence.ToolResult{Where: at, TurnID: p.turn.id, CallID: tc.ID, Name: tc.Name,
			IsError: tc.Status != "success", Rejected: rejected})
		if tc.Name == geminiAskUser && tc.Status == "success" {
			q, a := evidence.CountAnswers(geminiOutput(tc.Result))
			out = append(out, evidence.QuestionAnswered{Where: at, TurnID: p.turn.id, CallID: tc.ID,
				Questions: max(q, evidence.CountQuestions(tc.Args)), Answered: a})
		}
	}
	if ended {
		p.ask()
	}
	return out
}

// geminiOutput reads a call's result: the output of its function
// response ([{"functionResponse":{"response":{"output":"..."}}}]), or the
// result itself when it is a string.
func geminiOutput(raw json.RawMessage) []byte {
	if s, ok := evidence.RawString(raw); ok {
		return []byte(s)
	}
	var parts []struct {
		FunctionResponse struct {
			Response struct {
				Output json.RawMessage `json:"output"`
			} `json:"response"`
		} `json:"functionResponse"`
	}
	if evidence.Decode(raw, &parts) != nil {
		return nil
	}
	for _, pt := range parts {
		if s, ok := evidence.RawString(pt.FunctionResponse.Response.Output); ok {
			return []byte(s)
		}
	}
	return nil
}

// info reads an info message: a cancellation ends the open turn; a reply
// cut short is no end with text.
func (p *Parser) info(where evidence.Where, rec *geminiLine, out []evidence.Event) []evidence.Event {
	p.rewrite = false
	s, _ := evidence.RawString(rec.Content)
	t := &p.turn
	switch {
	case (s == geminiCancelled || s == geminiUserCancelled) && t.open:
		t.open = false
		return append(out, evidence.TurnAborted{Where: where, TurnID: t.id, Reason: "interrupted"})
	case strings.HasPrefix(s, geminiShortReply) && t.open && t.state == geminiReplied:
		t.text = false
		return append(out, evidence.ReplyEnded{Where: where, TurnID: t.id})
	}
	p.stats.Ignored++
	return out
}

// failure reads an error message: the open turn failed, unless its last
// reply may have ended it (no request is in flight then).
func (p *Parser) failure(where evidence.Where, rec *geminiLine, out []evidence.Event) []evidence.Event {
	p.rewrite = false
	t := &p.turn
	if !t.open || t.state == geminiReplied {
		p.stats.Ignored++
		return out
	}
	t.open = false
	reason, _ := evidence.RawString(rec.Content)
	return append(out, evidence.TurnFailed{Where: where, TurnID: t.id, Reason: reason})
}
