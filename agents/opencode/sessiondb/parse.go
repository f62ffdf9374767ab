package sessiondb

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// OpenCode 1.18.33 keeps its sessions in SQLite,
// ~/.local/share/opencode/opencode.db, in WAL mode (it leaves -wal and
// -shm behind when it exits; nothing is checkpointed into the main file
// while it runs). Measured against fakemodel.Chat with `opencode run` and
// the TUI in a tmux pane (testdata/opencode/README.md lists the steps).
// Every change of a session is a row of the table event (id,
// aggregate_id = the session id, seq, type, data JSON): a per-session log,
// append-only, seq 0, 1, 2, … with no gap; event_sequence holds each
// session's last seq. The tables session, message and part hold the same
// objects' latest state (part and message rows are rewritten in place),
// so the log is what says in which order things happened, and what a
// follower resumes from: (session, seq) only grows. A row has no time
// column; each data carries its own (milliseconds since the epoch).
// Four types are written, each version 1; data is
// {"sessionID", ...}:
//
//	session.created.1       info: the session (id, directory = the cwd it
//	session.updated.1       was started in, version, parentID for a
//	                        subagent's session, time.created/updated)
//	                        -> SessionIdentity when id, directory or
//	                        version change; a session with a parentID is
//	                        a subagent's (the task tool's): read for
//	                        nothing. Written at the first prompt, not
//	                        when the TUI starts, and again at each prompt
//	                        and each step (tokens, title, summary).
//	message.updated.1       info: a message, written whole each time (at
//	                        its creation, then as it changes)
//	message.part.updated.1  part: a part, written whole each time; time:
//	                        when
//
// and, read for nothing: message.removed.1 (after /undo, which writes
// the session's revert, the reverted turn's messages are removed as the
// next prompt is sent: what was reported of that turn stands),
// message.part.removed.1 and session.deleted.1 (in the binary's list of
// durable events, never seen). The stream's text deltas
// (message.part.delta) are not durable: a text part is written empty when
// it starts and whole when it ends.
//
// A prompt is a user message (role "user") and then its text part
// (type "text", not synthetic) holding the typed words (/compact writes a
// user message with a compaction part and no text, then a summary
// request: no prompt, no turn):
// -> TurnStarted + PromptAccepted, the user message's id being the turn
// (the hash is of the first such part's text; `opencode run "a b"`
// writes the argument in quotes). A prompt typed while a turn runs is
// written at once (the TUI shows it QUEUED): its TurnStarted comes before
// the running turn's end; its turn runs once that one ended.
//
// Each model request is an assistant message whose parentID is the
// prompt's user message (so the turn of anything in it); its parts are
// step-start, text (empty, then whole once streamed), tool, step-finish
// (reason), patch (files an edit changed). The message is written again
// with finish once the step ended, then once more with time.completed:
// only that last write ends the request, read as:
//
//	time.completed, finish "stop"     -> TurnCompleted (StopReason stop;
//	  (or length, content-filter, …)     EndedWithText when "stop" and a
//	                                     text part of it is not empty)
//	time.completed, finish            -> nothing: another assistant
//	  "tool-calls"                       message of the same turn follows
//	                                     with the results — unless a call
//	                                     of it was rejected: OpenCode ends
//	                                     the turn there (RejectedError
//	                                     stops its loop), TurnAborted
//	                                     "rejected"
//	time.completed, error             -> TurnAborted "interrupted" (Esc
//	  MessageAbortedError                twice, while the model streams or
//	                                     a tool runs; no finish)
//	time.completed, another error     -> TurnFailed, the error's name
//	  (APIError, ProviderAuthError, …)   (an API error once the retries
//	                                     are spent: 1 + 5 requests, 2 s
//	                                     doubling; retries write nothing)
//	time.completed, no finish, no     -> TurnAborted "interrupted": Esc
//	  error                              while a failed request waited
//	                                     for its retry
//
// A tool call is one tool part (callID, tool, state), written again as
// its state goes: pending (input {}: the arguments still streaming),
// running (input whole), running again with metadata (bash: once it
// started, with its output so far; edit: its diff), then completed
// (output; a command's exit status is in metadata, a non-zero exit is
// still completed; Esc while bash runs: completed, "User aborted the
// command" in its output) or error (error, a string):
//
//	running or ended, first seen      -> ToolPending (InputSHA256 of the
//	                                     input's JSON as written)
//	completed                         -> ToolResult
//	error                             -> ToolResult IsError; Rejected when
//	                                     the user refused it: "The user
//	                                     rejected permission to use this
//	                                     specific tool call." (Reject or
//	                                     Esc at the dialog; `opencode run`
//	                                     rejects every ask the same way),
//	                                     "… with the following feedback:",
//	                                     "The user dismissed this question"
//	question, completed               -> + QuestionAnswered (metadata
//	                                     answers: one list per question)
//
// A permission asked is not written: while the dialog is up the call
// stays running with no metadata, exactly as a call that runs (OpenCode
// logs "asking" in its log file and keeps the request in memory; the
// permission table holds no row after Allow once, Allow always — "until
// OpenCode is restarted" — Reject or Esc). A question (the question
// tool) is the same: running until answered. So no
// ApprovalRequested comes from the store; the screen says it. An answer
// shows only as what follows: the call's metadata or result (approved),
// or its rejected error.
//
// A session's log read from its start builds the state its rows need
// (the role of the message a part belongs to); DB.Events replays
// the log from seq 0 when asked to start anywhere else than where it
// stopped.

const (
	ocRejected     = "rejected permission to use this specific tool call"
	ocDismissed    = "The user dismissed this question"
	ocAborted      = "MessageAbortedError"
	ocQuestionTool = "question"
)

// openCodeRow is the union of the event rows' data.
type openCodeRow struct {
	SessionID string          `json:"sessionID"`
	Info      json.RawMessage `json:"info"`
	Part      json.RawMessage `json:"part"`
	Time      int64           `json:"time"`
}

// openCodeInfo is the union of a session's and a message's info.
type openCodeInfo struct {
	ID        string `json:"id"`
	ParentID  string `json:"parentID"`
	Directory string `json:"directory"`
	Version   string `json:"version"`
	Role      string `json:"role"`
	Finish    string `json:"finish"`
	Time      struct {
		Created   int64 `json:"created"`
		Updated   int64 `json:"updated"`
		Completed int64 `json:"completed"`
	} `json:"time"`
	Error *struct {
		Name string `json:"name"`
	} `json:"error"`
}

// openCodePart is a message part.
type openCodePart struct {
	ID        string `json:"id"`
	MessageID string `json:"messageID"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Ignored   bool   `json:"ignored"`
	CallID    string `json:"callID"`
	Tool      string `json:"tool"`
	State     struct {
		Status   string          `json:"status"`
		Input    json.RawMessage `json:"input"`
		Error    string          `json:"error"`
		Metadata json.RawMessage `json:"metadata"`
	} `json:"state"`
}

// String names the part's kind, its text's length and its call, never
// the text.
func (p openCodePart) String() string {
	if p.Type == "tool" {
		return fmt.Sprintf("tool(%s %s %s)", p.Tool, p.CallID, p.State.Status)
	}
	return fmt.Sprintf("%s(%d bytes)", p.Type, len(p.Text))
}

// LogValue logs the part as String does.
func (p openCodePart) LogValue() slog.Value { return slog.StringValue(p.String()) }

// ocMessage is what the parser keeps of a message.
type ocMessage struct {
	user     bool
	turn     string // an assistant message's parentID
	prompted bool   // a user message's prompt was reported
	text     bool   // an assistant message has text that is not empty
	rejected bool   // a call of it was rejected
	ended    bool   // time.completed read
}

// ocTurn is a turn a prompt opened.
type ocTurn struct {
	start time.Time
	open  bool
}

// Parser maps one session's event rows, in seq order, to
// evidence. It is a pure function of the rows read so far.
type Parser struct {
	stats    evidence.ParseStats
	session  evidence.SessionIdentity // the last one reported
	subagent bool
	msgs     map[string]*ocMessage
	turns    map[string]*ocTurn
	// calls: tool part id -> progress reported (geminiCall*); a part id
	// is unique where a call id need not be (a provider's counter).
	calls map[string]uint8
}

// NewParser returns a parser for one session's log.
func NewParser() *Parser {
	p := &Parser{}
	p.Reset()
	return p
}

// Reset forgets everything learnt from earlier rows.
func (p *Parser) Reset() {
	p.session, p.subagent = evidence.SessionIdentity{}, false
	p.msgs, p.turns, p.calls = map[string]*ocMessage{}, map[string]*ocTurn{}, map[string]uint8{}
}

// Stats returns the parser's counters (a row counts as a line).
func (p *Parser) Stats() *evidence.ParseStats { return &p.stats }

// Parse reads one event row: its type (session.created.1, …) and data.
// where locates the row (Offset its seq); events get the row's own time.
func (p *Parser) Parse(where evidence.Where, rowType string, data []byte, out []evidence.Event) []evidence.Event {
	if !evidence.LineStart(&p.stats, data) {
		return out
	}
	var row openCodeRow
	if err := evidence.Decode(data, &row); err != nil {
		return evidence.MalformedLine(&p.stats, where, out, err)
	}
	n := len(out)
	switch rowType {
	case "session.created.1", "session.updated.1":
		out = p.sessionRow(where, row.Info, out)
	case "message.updated.1":
		out = p.messageRow(where, row.Info, out)
	case "message.part.updated.1":
		where.Time = msTime(row.Time)
		out = p.partRow(where, row.Part, out)
	case "message.removed.1", "message.part.removed.1", "session.deleted.1":
		p.stats.Ignored++
	default:
		p.stats.CountUnknown(rowType)
	}
	for _, ev := range out[n:] {
		if _, bad := ev.(evidence.Malformed); !bad {
			p.stats.Events++
		}
	}
	return out
}

func msTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// readInfo decodes an info object; ok is false when it is not one.
func readInfo(raw json.RawMessage) (info openCodeInfo, ok bool) {
	if len(raw) == 0 || raw[0] != '{' || evidence.Decode(raw, &info) != nil || info.ID == "" {
		return info, false
	}
	return info, true
}

func (p *Parser) sessionRow(where evidence.Where, raw json.RawMessage, out []evidence.Event) []evidence.Event {
	info, ok := readInfo(raw)
	if !ok {
		return evidence.MalformedLine(&p.stats, where, out, errors.New("session row without info"))
	}
	where.Time = msTime(max(info.Time.Updated, info.Time.Created))
	if info.ParentID != "" {
		p.subagent = true
	}
	id := evidence.SessionIdentity{Where: where, SessionID: info.ID, Cwd: info.Directory, Version: info.Version}
	if p.subagent || id.SessionID == p.session.SessionID && id.Cwd == p.session.Cwd && id.Version == p.session.Version {
		p.stats.Ignored++
		return out
	}
	p.session = id
	return append(out, id)
}

func (p *Parser) messageRow(where evidence.Where, raw json.RawMessage, out []evidence.Event) []evidence.Event {
	info, ok := readInfo(raw)
	if !ok {
		return evidence.MalformedLine(&p.stats, where, out, errors.New("message row without info"))
	}
	where.Time = msTime(max(info.Time.Completed, info.Time.Created))
	m := p.msgs[info.ID]
	if m == nil {
		m = &ocMessage{user: info.Role == "user"}
		p.msgs[info.ID] = m
		if m.user {
			p.turns[info.ID] = &ocTurn{start: msTime(info.Time.Created)}
		}
	}
	if !m.user && info.ParentID != "" {
		m.turn = info.ParentID
	}
	if m.user || p.subagent || m.ended || info.Time.Completed == 0 {
		p.stats.Ignored++
		return out
	}
	if info.Role != "assistant" {
		p.stats.CountUnknown("message/" + info.Role)
		return out
	}
	m.ended = true
	return p.requestEnded(where, m, &info, out)
}

// requestEnded reads an assistant message's completion: the end of its
// turn, or nothing when the turn goes on.
func (p *Parser) requestEnded(where evidence.Where, m *ocMessage, info *openCodeInfo, out []evidence.Event) []evidence.Event {
	t := p.turns[m.turn]
	if t == nil || !t.open {
		p.stats.Ignored++ // a turn no prompt opened (compaction), or ended
		return out
	}
	switch {
	case info.Error != nil && info.Error.Name == ocAborted:
		out = append(out, evidence.TurnAborted{Where: where, TurnID: m.turn, Reason: "interrupted"})
	case info.Error != nil:
		out = append(out, evidence.TurnFailed{Where: where, TurnID: m.turn, Reason: cmpStr(info.Error.Name, "error")})
	case info.Finish == "tool-calls" || info.Finish == "unknown":
		if !m.rejected {
			p.stats.Ignored++
			return out
		}
		out = append(out, evidence.TurnAborted{Where: where, TurnID: m.turn, Reason: "rejected"})
	case info.Finish == "":
		out = append(out, evidence.TurnAborted{Where: where, TurnID: m.turn, Reason: "interrupted"})
	default:
		var d time.Duration
		if !t.start.IsZero() && where.Time.After(t.start) {
			d = where.Time.Sub(t.start)
		}
		out = append(out, evidence.TurnCompleted{Where: where, TurnID: m.turn, Duration: d, StopReason: info.Finish,
			EndedWithText: info.Finish == "stop" && m.text})
	}
	t.open = false
	return out
}

func cmpStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (p *Parser) partRow(where evidence.Where, raw json.RawMessage, out []evidence.Event) []evidence.Event {
	var part openCodePart
	if len(raw) == 0 || raw[0] != '{' || evidence.Decode(raw, &part) != nil || part.MessageID == "" {
		return evidence.MalformedLine(&p.stats, where, out, errors.New("part row without part"))
	}
	m := p.msgs[part.MessageID]
	if m == nil || p.subagent {
		p.stats.Ignored++ // its message was never written (or a subagent's)
		return out
	}
	switch part.Type {
	case "text":
		return p.textPart(where, part.MessageID, m, &part, out)
	case "tool":
		return p.toolPart(where, m, &part, out)
	case "step-start", "step-finish", "reasoning", "patch", "file", "snapshot", "agent", "subtask", "compaction", "retry":
		p.stats.Ignored++
	default:
		p.stats.CountUnknown("part/" + part.Type)
	}
	return out
}

func (p *Parser) textPart(where evidence.Where, id string, m *ocMessage, part *openCodePart, out []evidence.Event) []evidence.Event {
	switch {
	case !m.user:
		m.text = m.text || strings.TrimSpace(part.Text) != ""
	case m.prompted || part.Synthetic || part.Ignored:
	default:
		m.prompted = true
		t := p.turns[id]
		t.open = true
		return append(out,
			evidence.TurnStarted{Where: where, TurnID: id},
			evidence.PromptAccepted{Where: where, SessionID: p.session.SessionID, Cwd: p.session.Cwd, TurnID: id,
				SHA256: evidence.PromptHash(part.Text), Len: len(part.Text)})
	}
	p.stats.Ignored++
	return out
}

// A tool call's progress, by call id.
const (
	ocCallPending = 1 // ToolPending reported
	ocCallDone    = 2 // ToolResult reported
)

func (p *Parser) toolPart(where evidence.Where, m *ocMessage, part *openCodePart, out []evidence.Event) []evidence.Event {
	st := &part.State
	key := cmpStr(part.ID, part.CallID)
	ended := st.Status == "completed" || st.Status == "error"
	switch {
	case part.CallID == "" || m.user:
		p.stats.CountUnknown("part/tool")
		return out
	case st.Status == "pending" || p.calls[key] == ocCallDone:
		p.stats.Ignored++
		return out
	case st.Status != "running" && !ended:
		p.stats.CountUnknown("tool/" + st.Status)
		return out
	}
	turn := m.turn
	if p.calls[key] == 0 {
		p.calls[key] = ocCallPending
		out = append(out, evidence.ToolPending{Where: where, TurnID: turn, CallID: part.CallID, Name: part.Tool, InputSHA256: evidence.Digest(st.Input)})
	}
	if !ended {
		return out
	}
	p.calls[key] = ocCallDone
	rejected := st.Status == "error" && (strings.Contains(st.Error, ocRejected) || strings.Contains(st.Error, ocDismissed))
	m.rejected = m.rejected || rejected
	out = append(out, evidence.ToolResult{Where: where, TurnID: turn, CallID: part.CallID, Name: part.Tool,
		IsError: st.Status == "error", Rejected: rejected})
	if part.Tool == ocQuestionTool && st.Status == "completed" {
		q, a := openCodeAnswers(st.Metadata)
		out = append(out, evidence.QuestionAnswered{Where: where, TurnID: turn, CallID: part.CallID,
			Questions: max(q, evidence.CountQuestions(st.Input)), Answered: a})
	}
	return out
}

// openCodeAnswers reads the question tool's metadata {"answers": [[...],
// ...]}: one list of chosen labels per question.
func openCodeAnswers(raw json.RawMessage) (questions, answered int) {
	var md struct {
		Answers [][]string `json:"answers"`
	}
	if evidence.Decode(raw, &md) != nil {
		return 0, 0
	}
	for _, a := range md.Answers {
		for _, s := range a {
			if strings.TrimSpace(s) != "" {
				answered++
				break
			}
		}
	}
	return len(md.Answers), answered
}
