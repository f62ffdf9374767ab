package sessions

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// parrotLine is the union of the records' fields.
type parrotLine struct {
	Type     string          `json:"type"`
	Time     string          `json:"time"`
	Session  string          `json:"session"`
	Cwd      string          `json:"cwd"`
	Version  string          `json:"version"`
	Turn     string          `json:"turn"`
	Text     json.RawMessage `json:"text"`
	Call     string          `json:"call"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Decision string          `json:"decision"`
	Outcome  string          `json:"outcome"`
}

// The records, by type, and what each says:
//
//	session      -> SessionIdentity (session, cwd, version); again: nothing
//	prompt       -> TurnStarted + PromptAccepted (the turn's id; the
//	                session and cwd are the header's)
//	reply        -> nothing: the turn's last word so far is text
//	tool_call    -> ToolPending (the input's digest)
//	tool_result  -> ToolResult: decision "yes" ran it; "no" (the dialog's
//	                No) and "cancel" (Esc) rejected it
//	turn_end     -> "completed": TurnCompleted (EndedWithText when a reply
//	                came after the turn's last call); "declined":
//	                TurnAborted, rejected
//
// A record without its type, or a prompt, call, result or end without
// its turn, is malformed; an unknown type or outcome is counted, never
// an error.

// turned are the records of a turn, each naming it.
var turned = map[string]bool{"prompt": true, "tool_call": true, "tool_result": true, "turn_end": true}

// turn is the turn in progress.
type turn struct {
	id    string
	start time.Time
	text  bool // a reply came after its last call
}

// Parser parses Parrot's session files.
type Parser struct {
	stats   evidence.ParseStats
	session string
	cwd     string
	turn    turn
}

// NewParser returns a parser for one session file.
func NewParser() *Parser { return &Parser{} }

// Reset forgets everything learnt from earlier lines.
func (p *Parser) Reset() { p.session, p.cwd, p.turn = "", "", turn{} }

// Stats returns the parser's counters.
func (p *Parser) Stats() *evidence.ParseStats { return &p.stats }

// Flush has nothing to hold: every record says what it says at once.
func (p *Parser) Flush(out []evidence.Event) []evidence.Event { return out }

// Parse reads one record.
func (p *Parser) Parse(where evidence.Where, line []byte, out []evidence.Event) []evidence.Event {
	if !evidence.LineStart(&p.stats, line) {
		return out
	}
	var rec parrotLine
	if err := evidence.Decode(line, &rec); err != nil {
		return evidence.MalformedLine(&p.stats, where, out, err)
	}
	if rec.Type == "" {
		return evidence.MalformedLine(&p.stats, where, out, errors.New("no record type"))
	}
	if turned[rec.Type] && rec.Turn == "" {
		return evidence.MalformedLine(&p.stats, where, out, errors.New(rec.Type+" without its turn"))
	}
	where.Time = evidence.RecordTime(rec.Time)
	n, known := len(out), true
	switch rec.Type {
	case "session":
		out = p.identity(where, &rec, out)
	case "prompt":
		out = p.prompt(where, &rec, out)
	case "reply":
		p.turn.text = p.turn.id != "" && rec.Turn == p.turn.id
	case "tool_call":
		p.turn.text = false
		out = append(out, evidence.ToolPending{Where: where, TurnID: rec.Turn, CallID: rec.Call, Name: rec.Name, InputSHA256: evidence.Digest(rec.Input)})
	case "tool_result":
		out, known = p.result(where, &rec, out)
	case "turn_end":
		out, known = p.end(where, &rec, out)
	default:
		p.stats.CountUnknown(rec.Type)
		return out
	}
	if len(out) == n && known {
		p.stats.Ignored++
	}
	p.stats.Events += int64(len(out) - n)
	return out
}

func (p *Parser) identity(where evidence.Where, rec *parrotLine, out []evidence.Event) []evidence.Event {
	if rec.Session == "" || rec.Session == p.session {
		return out
	}
	p.session, p.cwd = rec.Session, rec.Cwd
	return append(out, evidence.SessionIdentity{Where: where, SessionID: rec.Session, Cwd: rec.Cwd, Version: rec.Version})
}

func (p *Parser) prompt(where evidence.Where, rec *parrotLine, out []evidence.Event) []evidence.Event {
	text, ok := evidence.RawString(rec.Text)
	if !ok {
		return out // no text: not a prompt this version writes, nothing to prove
	}
	p.turn = turn{id: rec.Turn, start: where.Time}
	return append(out,
		evidence.TurnStarted{Where: where, TurnID: rec.Turn},
		evidence.PromptAccepted{Where: where, SessionID: p.session, Cwd: p.cwd, TurnID: rec.Turn, SHA256: evidence.PromptHash(text), Len: len(text)})
}

// result reads a tool's result; false for a decision it does not know.
func (p *Parser) result(where evidence.Where, rec *parrotLine, out []evidence.Event) ([]evidence.Event, bool) {
	switch rec.Decision {
	case "yes":
		return append(out, evidence.ToolResult{Where: where, TurnID: rec.Turn, CallID: rec.Call, Name: rec.Name}), true
	case "no", "cancel":
		return append(out, evidence.ToolResult{Where: where, TurnID: rec.Turn, CallID: rec.Call, Name: rec.Name, IsError: true, Rejected: true}), true
	}
	p.stats.CountUnknown("tool_result/" + rec.Decision)
	return out, false
}

// end reads a turn's end; false for an outcome it does not know.
func (p *Parser) end(where evidence.Where, rec *parrotLine, out []evidence.Event) ([]evidence.Event, bool) {
	t := p.turn
	if t.id != rec.Turn {
		t = turn{id: rec.Turn} // a turn whose prompt this parser did not read
	}
	switch rec.Outcome {
	case "completed":
		out = append(out, evidence.TurnCompleted{Where: where, TurnID: rec.Turn, Duration: duration(t.start, where.Time), EndedWithText: t.text})
	case "declined":
		out = append(out, evidence.TurnAborted{Where: where, TurnID: rec.Turn, Reason: "rejected"})
	default:
		p.stats.CountUnknown("turn_end/" + rec.Outcome)
		return out, false
	}
	p.turn = turn{}
	return out, true
}

// duration is from start to end, 0 when either is unknown.
func duration(start, end time.Time) time.Duration {
	if start.IsZero() || end.IsZero() || end.Before(start) {
		return 0
	}
	return end.Sub(start)
}
