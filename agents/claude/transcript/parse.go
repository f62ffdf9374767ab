package transcript

import (
	"cmp"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Claude transcript lines are records with a "type" and, for the
// conversation, sessionId, cwd, version, uuid and message. The records read
// here (agents-offline.md, akk-reference.md §4.2):
//
//	any record with sessionId           -> SessionIdentity when sessionId, cwd
//	                                       or version differ from the last
//	user, root (not sidechain, no
//	agentId, not meta), text content    -> TurnStarted + PromptAccepted (the
//	                                       record's uuid is the turn)
//	user "[Request interrupted by user]"-> TurnAborted
//	user tool_result block              -> ToolResult (+ QuestionAnswered for
//	                                       AskUserQuestion)
//	assistant tool_use block            -> ToolPending
//	assistant isApiErrorMessage         -> TurnFailed
//	system/turn_duration                -> TurnCompleted with the last
//	                                       assistant line's stop_reason,
//	                                       unless the turn already ended
//	                                       aborted or failed (a rejection is
//	                                       followed by turn_duration too)
//
// A tool waiting for permission or an answer leaves only its tool_use:
// nothing in the transcript says "waiting", so no ApprovalRequested comes
// from Claude.

const (
	claudeInterrupted     = "[Request interrupted by user]"
	claudeInterruptedTool = "[Request interrupted by user for tool use]"
	claudeRejected        = "User rejected tool use"
)

type claudeLine struct {
	Type          string          `json:"type"`
	Subtype       string          `json:"subtype"`
	UUID          string          `json:"uuid"`
	ParentUUID    string          `json:"parentUuid"`
	SessionID     string          `json:"sessionId"`
	Cwd           string          `json:"cwd"`
	Version       string          `json:"version"`
	Timestamp     string          `json:"timestamp"`
	IsSidechain   bool            `json:"isSidechain"`
	AgentID       string          `json:"agentId"`
	IsMeta        bool            `json:"isMeta"`
	IsAPIError    bool            `json:"isApiErrorMessage"`
	Error         json.RawMessage `json:"error"`
	DurationMs    json.RawMessage `json:"durationMs"`
	Message       json.RawMessage `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

type claudeMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	StopReason string          `json:"stop_reason"`
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// LogValue is a block as logs may show it: its kind, ids and the length
// of its text, never the text.
func (b claudeBlock) LogValue() slog.Value {
	return slog.GroupValue(slog.String("type", b.Type), slog.String("id", b.ID), slog.String("name", b.Name),
		slog.String("tool_use_id", b.ToolUseID), slog.Int("text_len", len(b.Text)))
}

// String is LogValue's text.
func (b claudeBlock) String() string { return b.LogValue().String() }

// Parser parses Claude Code transcript lines.
//
// Claude Code does not always write records in conversation order: 2.1.263
// and 2.1.266 were seen writing the assistant reply and turn_duration
// before the prompt record they descend from. The parentUuid chain is the
// order, so a record whose parent has not been seen yet is held until it
// is (at most maxHeld records; past that they are let go in file order)
// and events come in conversation order, each with its own line's offset.
// A prompt is never held: it starts its own turn.
type Parser struct {
	stats                 evidence.ParseStats
	session, cwd, version string
	identitySeen          bool
	turn                  string                 // the turn of the record being read
	turns                 map[string]*claudeTurn // by turn id (prompt uuid)
	turnOf                map[string]string      // record uuid -> its turn
	held                  map[string][]heldRecord
	nHeld                 int
	tools                 map[string]string // tool_use id -> name, while pending
	blocks                []claudeBlock
	stop                  string // stop_reason of the message content last decoded
}

type claudeTurn struct {
	ended    bool   // its end was reported (aborted, failed, completed)
	lastStop string // stop_reason of its last assistant line
	lastText bool   // its last assistant line is text and no tool call
}

type heldRecord struct {
	where evidence.Where
	rec   claudeLine
}

const maxHeld = 1024

// NewParser returns a parser for one transcript.
func NewParser() *Parser {
	p := &Parser{}
	p.Reset()
	return p
}

// Reset forgets everything learnt from earlier lines.
func (p *Parser) Reset() {
	p.session, p.cwd, p.version, p.turn = "", "", "", ""
	p.identitySeen = false
	p.turns = map[string]*claudeTurn{}
	p.turnOf = map[string]string{}
	p.held = map[string][]heldRecord{}
	p.nHeld = 0
	p.tools = map[string]string{}
}

// Stats returns the parser's counters.
func (p *Parser) Stats() *evidence.ParseStats { return &p.stats }

// Flush reads every held record, in file order.
func (p *Parser) Flush(out []evidence.Event) []evidence.Event {
	n := len(out)
	out = p.letGo(out)
	p.stats.Events += int64(len(out) - n)
	return out
}

// Parse reads one transcript line.
func (p *Parser) Parse(where evidence.Where, line []byte, out []evidence.Event) []evidence.Event {
	if !evidence.LineStart(&p.stats, line) {
		return out
	}
	var rec claudeLine
	if err := evidence.Decode(line, &rec); err != nil {
		return evidence.MalformedLine(&p.stats, where, out, err)
	}
	if rec.Type == "" {
		return evidence.MalformedLine(&p.stats, where, out, errors.New("no record type"))
	}
	where.Time = evidence.RecordTime(rec.Timestamp)
	n := len(out)
	if p.mustHold(&rec) {
		p.held[rec.ParentUUID] = append(p.held[rec.ParentUUID], heldRecord{where, rec})
		if p.nHeld++; p.nHeld > maxHeld {
			out = p.letGo(out)
		}
	} else {
		out = p.release(p.record(where, &rec, out), rec.UUID)
	}
	p.stats.Events += int64(len(out) - n)
	return out
}

// mustHold: the record descends from one not seen yet (and is no prompt).
func (p *Parser) mustHold(rec *claudeLine) bool {
	if rec.ParentUUID == "" || rec.IsSidechain || rec.AgentID != "" {
		return false
	}
	if _, seen := p.turnOf[rec.ParentUUID]; seen {
		return false
	}
	if rec.Type != "user" || rec.IsMeta {
		return true
	}
	text, blocks, ok := p.content(rec)
	if !ok {
		return true
	}
	if blocks == nil {
		return !isPromptText(text)
	}
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return true
		}
	}
	return false
}

// release reads the records held for uuid, and those held for them.
func (p *Parser) release(out []evidence.Event, uuid string) []evidence.Event {
	queue := []string{uuid}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		hs := p.held[u]
		if len(hs) == 0 {
			continue
		}
		delete(p.held, u)
		for i := range hs {
			p.nHeld--
			out = p.record(hs[i].where, &hs[i].rec, out)
			queue = append(queue, hs[i].rec.UUID)
		}
	}
	return out
}

// letGo reads every held record in file order: their parents did not come.
func (p *Parser) letGo(out []evidence.Event) []evidence.Event {
	var all []heldRecord
	for _, hs := range p.held {
		all = append(all, hs...)
	}
	clear(p.held)
	p.nHeld = 0
	slices.SortFunc(all, func(a, b heldRecord) int { return cmp.Compare(a.where.Offset, b.where.Offset) })
	for i := range all {
		out = p.record(all[i].where, &all[i].rec, out)
	}
	return out
}

// record reads one record in conversation order.
func (p *Parser) record(where evidence.Where, rec *claudeLine, out []evidence.Event) []evidence.Event {
	if t, ok := p.turnOf[rec.ParentUUID]; ok && t != "" {
		p.turn = t
	}
	out = p.identity(where, rec, out)
	switch rec.Type {
	case "user":
		out = p.user(where, rec, out)
	case "assistant":
		out = p.assistant(where, rec, out)
	case "system":
		out = p.system(where, rec, out)
	case "summary", "file-history-snapshot", "attachment", "queue-operation", "custom-title",
		"ai-title", "last-prompt", "progress", "tag", "agent-name", "mode", "permission-mode", "atis-latch",
		// 2.1.332: the API request each model call sent (its shape, its
		// message blobs by hash, the request naming them) and the tools
		// the session has used. An api-request-blob's "message" is a JSON
		// string, never a user record: its text is not a prompt.
		"api-request", "api-request-blob", "api-request-shape", "tools-used",
		// 2.1.267: the backup of a file an approved Edit/Write changed
		// (edit-approve, write-*-approve, notebook-edit-approve).
		"file-history-delta",
		// 2.1.267 and 2.1.332: the session's cost totals (cost, API and
		// tool durations, tokens by model), written into a
		// conversation's transcript when it is left (/clear, exit;
		// thread-resume); only the sessionId, no turn.
		"cost-state":
		p.stats.Ignored++
	default:
		p.stats.CountUnknown(rec.Type)
	}
	if rec.UUID != "" {
		p.turnOf[rec.UUID] = p.turn
	}
	return out
}

// cur is the state of the current turn.
func (p *Parser) cur() *claudeTurn {
	t := p.turns[p.turn]
	if t == nil {
		t = &claudeTurn{}
		p.turns[p.turn] = t
	}
	return t
}

// isPromptText: user text that is a prompt, not a marker or a local
// command's echo.
func isPromptText(text string) bool {
	return text != claudeInterrupted && text != claudeInterruptedTool &&
		!strings.HasPrefix(text, "<local-command-") && !strings.HasPrefix(text, "<command-")
}

func (p *Parser) identity(where evidence.Where, rec *claudeLine, out []evidence.Event) []evidence.Event {
	if rec.SessionID == "" || rec.IsSidechain || rec.AgentID != "" {
		return out
	}
	// Bookkeeping records (mode, ai-title) carry only the sessionId: a
	// missing cwd or version is no change.
	cwd, version := cmp.Or(rec.Cwd, p.cwd), cmp.Or(rec.Version, p.version)
	if rec.SessionID != p.session {
		cwd, version = rec.Cwd, rec.Version
	}
	if p.identitySeen && rec.SessionID == p.session && cwd == p.cwd && version == p.version {
		return out
	}
	p.identitySeen = true
	p.session, p.cwd, p.version = rec.SessionID, cwd, version
	return append(out, evidence.SessionIdentity{Where: where, SessionID: rec.SessionID, Cwd: cwd, Version: version})
}

// content decodes a message's content: a plain string, or blocks.
func (p *Parser) content(rec *claudeLine) (text string, blocks []claudeBlock, ok bool) {
	var m claudeMessage
	if evidence.Decode(rec.Message, &m) != nil {
		return "", nil, false
	}
	p.stop = m.StopReason
	if s, isStr := evidence.RawString(m.Content); isStr {
		return s, nil, true
	}
	// Decoding reuses the slice's elements without zeroing them.
	clear(p.blocks[:cap(p.blocks)])
	p.blocks = p.blocks[:0]
	if evidence.Decode(m.Content, &p.blocks) != nil {
		return "", nil, false
	}
	return "", p.blocks, true
}

func (p *Parser) user(where evidence.Where, rec *claudeLine, out []evidence.Event) []evidence.Event {
	if rec.IsSidechain || rec.AgentID != "" {
		p.stats.Ignored++
		return out
	}
	text, blocks, ok := p.content(rec)
	if !ok {
		p.stats.CountUnknown("user/content")
		return out
	}
	if blocks == nil {
		return p.userText(where, rec, text, out)
	}
	var texts []string
	for i := range blocks {
		b := &blocks[i]
		switch b.Type {
		case "tool_result":
			out = p.toolResult(where, rec, b, out)
		case "text":
			texts = append(texts, b.Text)
		}
	}
	for i := 0; i < len(texts); {
		if texts[i] == claudeInterrupted || texts[i] == claudeInterruptedTool {
			out = p.userText(where, rec, texts[i], out)
			texts = append(texts[:i], texts[i+1:]...)
			continue
		}
		i++
	}
	if len(texts) > 0 {
		out = p.userText(where, rec, strings.Join(texts, "\n"), out)
	}
	return out
}

// userText handles the text a user record carries: an interruption
// marker, a local command's echo, or a prompt.
func (p *Parser) userText(where evidence.Where, rec *claudeLine, text string, out []evidence.Event) []evidence.Event {
	switch {
	case text == claudeInterrupted:
		p.cur().ended = true
		return append(out, evidence.TurnAborted{Where: where, TurnID: p.turn, Reason: "interrupted"})
	case text == claudeInterruptedTool:
		p.cur().ended = true
		return append(out, evidence.TurnAborted{Where: where, TurnID: p.turn, Reason: "interrupted_tool_use"})
	case rec.IsMeta, !isPromptText(text):
		p.stats.Ignored++
		return out
	}
	p.turn = rec.UUID
	p.turns[rec.UUID] = &claudeTurn{}
	return append(out,
		evidence.TurnStarted{Where: where, TurnID: rec.UUID},
		evidence.PromptAccepted{Where: where, SessionID: rec.SessionID, Cwd: rec.Cwd, TurnID: rec.UUID, SHA256: evidence.PromptHash(text), Len: len(text)})
}

func (p *Parser) toolResult(where evidence.Where, rec *claudeLine, b *claudeBlock, out []evidence.Event) []evidence.Event {
	name := p.tools[b.ToolUseID]
	delete(p.tools, b.ToolUseID)
	rejected := false
	if b.IsError {
		s, _ := evidence.RawString(rec.ToolUseResult)
		rejected = strings.Contains(s, claudeRejected) || strings.Contains(string(b.Content), "tool use was rejected")
	}
	out = append(out, evidence.ToolResult{Where: where, TurnID: p.turn, CallID: b.ToolUseID, Name: name, IsError: b.IsError, Rejected: rejected})
	if name == "AskUserQuestion" && !b.IsError {
		q, a := evidence.CountAnswers(rec.ToolUseResult)
		out = append(out, evidence.QuestionAnswered{Where: where, TurnID: p.turn, CallID: b.ToolUseID, Questions: q, Answered: a})
	}
	return out
}

func (p *Parser) assistant(where evidence.Where, rec *claudeLine, out []evidence.Event) []evidence.Event {
	if rec.IsSidechain || rec.AgentID != "" {
		p.stats.Ignored++
		return out
	}
	if rec.IsAPIError {
		reason, ok := evidence.RawString(rec.Error)
		if !ok {
			reason = strings.Trim(string(rec.Error), `"`)
		}
		p.cur().ended = true
		return append(out, evidence.TurnFailed{Where: where, TurnID: p.turn, Reason: reason})
	}
	_, blocks, ok := p.content(rec)
	if !ok {
		p.stats.CountUnknown("assistant/content")
		return out
	}
	t := p.cur()
	t.lastStop, t.lastText = p.stop, false
	n := len(out)
	for i := range blocks {
		b := &blocks[i]
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" && len(out) == n {
			t.lastText = true
		}
		if b.Type != "tool_use" {
			continue
		}
		t.lastText = false
		p.tools[b.ID] = b.Name
		out = append(out, evidence.ToolPending{Where: where, TurnID: p.turn, CallID: b.ID, Name: b.Name, InputSHA256: evidence.Digest(b.Input)})
	}
	if len(out) == n {
		p.stats.Ignored++
	}
	return out
}

func (p *Parser) system(where evidence.Where, rec *claudeLine, out []evidence.Event) []evidence.Event {
	switch rec.Subtype {
	case "turn_duration":
		t := p.cur()
		if t.ended {
			p.stats.Ignored++ // the end was reported as aborted or failed
			return out
		}
		var d time.Duration
		if ms, err := json.Number(strings.TrimSpace(string(rec.DurationMs))).Float64(); err == nil {
			d = time.Duration(ms * float64(time.Millisecond))
		}
		t.ended = true
		return append(out, evidence.TurnCompleted{Where: where, TurnID: p.turn, Duration: d, StopReason: t.lastStop,
			EndedWithText: t.lastText && t.lastStop == "end_turn"})
	case "api_error", "compact_boundary", "local_command", "stop_hook_summary", "informational",
		"microcompact_boundary", "away_summary":
		p.stats.Ignored++
	default:
		p.stats.CountUnknown("system/" + rec.Subtype)
	}
	return out
}
