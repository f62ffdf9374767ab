package rollout

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Codex rollout lines are {"timestamp","type","payload"}. The records read
// here (agents-offline.md, akk-reference.md §4.1):
//
//	session_meta                      -> SessionIdentity (id, cwd, cli_version)
//	turn_context                      -> the approval policy in force
//	event_msg/task_started            -> TurnStarted (turn_id)
//	event_msg/task_complete           -> TurnCompleted (turn_id)
//	event_msg/turn_aborted            -> TurnAborted (turn_id or the current turn, reason)
//	event_msg/error                   -> TurnFailed (current turn)
//	response_item/message, role user  -> PromptAccepted when its metadata
//	                                     names the turn and its content is the
//	                                     user's text (content_item_kinds
//	                                     "user.text"; context messages such as
//	                                     <environment_context> carry the turn
//	                                     id too)
//	event_msg/item_completed
//	  {item: UserMessage}             -> PromptAccepted (0.155: after the
//	                                     response_item, so reported once)
//	event_msg/user_message            -> PromptAccepted (older versions)
//	response_item/function_call,
//	custom_tool_call, local_shell_call -> ToolPending (+ ApprovalRequested for
//	                                     an escalation under an asking policy;
//	                                     0.171 code mode: the freeform `exec`
//	                                     tool's JavaScript asking a nested
//	                                     tools.exec_command for it)
//	response_item/*_output            -> ToolResult, rejected when "aborted
//	                                     by user" (Esc at the approval or the
//	                                     question); + QuestionAnswered for an
//	                                     answered request_user_input (the
//	                                     async variant returns at once and its
//	                                     answer comes as a user message, a new
//	                                     turn). The output is a string, an
//	                                     {content, success} object, or (0.171
//	                                     exec) a list of input_text items.
//	response_item/additional_tools,
//	retained_context                  -> nothing (0.171: the tool catalog;
//	                                     a question's verified_answer, which
//	                                     its function_call_output repeats)
//
// A prompt seen twice in one turn (the user message record and its event)
// is reported once.

type codexLine struct {
	Timestamp string       `json:"timestamp"`
	Type      string       `json:"type"`
	Payload   codexPayload `json:"payload"`
}

// codexPayload is the union of the payload fields read; fields whose JSON
// type varies between records stay raw.
type codexPayload struct {
	Type string `json:"type"`
	// session_meta
	ID         string `json:"id"`
	Cwd        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	// turn_context, event_msg
	TurnID         string          `json:"turn_id"`
	ApprovalPolicy json.RawMessage `json:"approval_policy"`
	Reason         json.RawMessage `json:"reason"`
	Message        json.RawMessage `json:"message"`
	DurationMs     json.RawMessage `json:"duration_ms"`
	LastAgentMsg   json.RawMessage `json:"last_agent_message"`
	// response_item
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Action    json.RawMessage `json:"action"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Meta      *struct {
		TurnID string   `json:"turn_id"`
		Kinds  []string `json:"content_item_kinds"`
	} `json:"internal_chat_message_metadata_passthrough"`
	Item json.RawMessage `json:"item"`
}

type codexItem struct {
	Type    string          `json:"type"`
	Content json.RawMessage `json:"content"`
}

// Parser parses Codex rollout lines.
type Parser struct {
	stats    evidence.ParseStats
	session  string
	cwd      string
	turn     string
	policy   string
	tools    map[string]string // call_id -> tool name, while pending
	prompted map[[32]byte]string
}

// NewParser returns a parser for one rollout.
func NewParser() *Parser {
	p := &Parser{}
	p.Reset()
	return p
}

// Reset forgets everything learnt from earlier lines.
func (p *Parser) Reset() {
	p.session, p.cwd, p.turn, p.policy = "", "", "", ""
	p.tools = map[string]string{}
	p.prompted = map[[32]byte]string{}
}

// Stats returns the parser's counters.
func (p *Parser) Stats() *evidence.ParseStats { return &p.stats }

// Flush has nothing to do: Codex records are read in file order.
func (p *Parser) Flush(out []evidence.Event) []evidence.Event { return out }

// Parse reads one rollout line.
func (p *Parser) Parse(where evidence.Where, line []byte, out []evidence.Event) []evidence.Event {
	if !evidence.LineStart(&p.stats, line) {
		return out
	}
	var rec codexLine
	if err := evidence.Decode(line, &rec); err != nil {
		return evidence.MalformedLine(&p.stats, where, out, err)
	}
	if rec.Type == "" {
		return evidence.MalformedLine(&p.stats, where, out, errors.New("no record type"))
	}
	where.Time = evidence.RecordTime(rec.Timestamp)
	n := len(out)
	pl := &rec.Payload
	switch rec.Type {
	case "session_meta":
		p.session, p.cwd = pl.ID, pl.Cwd
		out = append(out, evidence.SessionIdentity{Where: where, SessionID: pl.ID, Cwd: pl.Cwd, Version: pl.CLIVersion})
	case "turn_context":
		if s, ok := evidence.RawString(pl.ApprovalPolicy); ok {
			p.policy = s
		}
		p.cwd = cmp.Or(pl.Cwd, p.cwd)
		p.stats.Ignored++
	case "event_msg":
		out = p.event(where, pl, out)
	case "response_item":
		out = p.item(where, pl, out)
	case "compacted", "world_state", "token_usage_record", "retained_context":
		p.stats.Ignored++
	default:
		p.stats.CountUnknown(rec.Type)
	}
	p.stats.Events += int64(len(out) - n)
	return out
}

func (p *Parser) event(where evidence.Where, pl *codexPayload, out []evidence.Event) []evidence.Event {
	switch pl.Type {
	case "task_started", "turn_started":
		p.turn = pl.TurnID
		clear(p.prompted)
		return append(out, evidence.TurnStarted{Where: where, TurnID: pl.TurnID})
	case "task_complete", "turn_complete":
		var d time.Duration
		if ms, err := json.Number(strings.TrimSpace(string(pl.DurationMs))).Int64(); err == nil {
			d = time.Duration(ms) * time.Millisecond
		}
		last, _ := evidence.RawString(pl.LastAgentMsg)
		return append(out, evidence.TurnCompleted{Where: where, TurnID: p.turnOf(pl.TurnID), Duration: d,
			EndedWithText: strings.TrimSpace(last) != ""})
	case "turn_aborted":
		reason, _ := evidence.RawString(pl.Reason)
		return append(out, evidence.TurnAborted{Where: where, TurnID: p.turnOf(pl.TurnID), Reason: reason})
	case "error":
		msg, _ := evidence.RawString(pl.Message)
		return append(out, evidence.TurnFailed{Where: where, TurnID: p.turnOf(pl.TurnID), Reason: msg})
	case "user_message":
		msg, _ := evidence.RawString(pl.Message)
		return p.prompt(where, p.turnOf(pl.TurnID), msg, out)
	case "item_completed":
		var item codexItem
		if evidence.Decode(pl.Item, &item) != nil || item.Type != "UserMessage" {
			p.stats.Ignored++
			return out
		}
		text, ok := codexText(item.Content)
		if !ok {
			p.stats.CountUnknown("event_msg/item_completed/UserMessage")
			return out
		}
		return p.prompt(where, p.turnOf(pl.TurnID), text, out)
	case "exec_approval_request", "apply_patch_approval_request":
		return append(out, evidence.ApprovalRequested{Where: where, TurnID: p.turnOf(pl.TurnID), CallID: pl.CallID, Reason: pl.Type})
	case "token_count", "agent_message", "agent_reasoning", "agent_reasoning_raw_content",
		"item_started", "exec_command_begin", "thread_settings_applied", "exec_command_end",
		"patch_apply_begin", "patch_apply_end", "mcp_tool_call_begin", "mcp_tool_call_end",
		"web_search_begin", "web_search_end", "context_compacted", "thread_rolled_back",
		"entered_review_mode", "exited_review_mode", "undo_started", "undo_completed", "warning":
		p.stats.Ignored++
	default:
		p.stats.CountUnknown("event_msg/" + pl.Type)
	}
	return out
}

func (p *Parser) item(where evidence.Where, pl *codexPayload, out []evidence.Event) []evidence.Event {
	switch pl.Type {
	case "message":
		if pl.Role != "user" || pl.Meta == nil || pl.Meta.TurnID == "" {
			p.stats.Ignored++
			return out
		}
		text, ok := codexText(pl.Content)
		if !ok || !userText(pl.Meta.Kinds, text) {
			p.stats.Ignored++
			return out
		}
		return p.prompt(where, pl.Meta.TurnID, text, out)
	case "function_call", "custom_tool_call", "local_shell_call":
		input := pl.Arguments
		if pl.Type == "custom_tool_call" {
			input = pl.Input
		} else if pl.Type == "local_shell_call" {
			input = pl.Action
		}
		p.tools[pl.CallID] = pl.Name
		secret := (pl.Name == "request_user_input" || pl.Name == "request_user_input_async") && asksSecret(pl.Arguments)
		out = append(out, evidence.ToolPending{Where: where, TurnID: p.turn, CallID: pl.CallID, Name: pl.Name, InputSHA256: evidence.Digest(input),
			SecretQuestion: secret})
		if reason := p.escalation(pl.Type == "custom_tool_call" && pl.Name == "exec", input); reason != "" {
			out = append(out, evidence.ApprovalRequested{Where: where, TurnID: p.turn, CallID: pl.CallID, Name: pl.Name, Reason: reason})
		}
		return out
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		name := p.tools[pl.CallID]
		delete(p.tools, pl.CallID)
		doc, isErr, rejected := codexOutput(pl.Output)
		out = append(out, evidence.ToolResult{Where: where, TurnID: p.turn, CallID: pl.CallID, Name: name, IsError: isErr || rejected, Rejected: rejected})
		if name == "request_user_input" && !rejected {
			q, a := evidence.CountAnswers(doc)
			out = append(out, evidence.QuestionAnswered{Where: where, TurnID: p.turn, CallID: pl.CallID, Questions: q, Answered: a})
		}
		return out
	case "reasoning", "web_search_call", "image_generation_call", "compaction", "ghost_snapshot", "tool_search_call", "tool_search_output",
		"additional_tools":
		p.stats.Ignored++
	default:
		p.stats.CountUnknown("response_item/" + pl.Type)
	}
	return out
}

// prompt reports a user prompt once per turn.
func (p *Parser) prompt(where evidence.Where, turn, text string, out []evidence.Event) []evidence.Event {
	h := evidence.PromptHash(text)
	if seen, ok := p.prompted[h]; ok && seen == turn {
		p.stats.Ignored++
		return out
	}
	p.prompted[h] = turn
	return append(out, evidence.PromptAccepted{Where: where, SessionID: p.session, Cwd: p.cwd, TurnID: turn, SHA256: h, Len: len(text)})
}

func (p *Parser) turnOf(id string) string {
	if id != "" {
		return id
	}
	return p.turn
}

// codexOutput reads a tool output: its text (a string, or the content of
// {content, success}), whether it failed, and whether the user declined
// it. Esc at an approval or a question ends the call with "aborted by
// user" (0.155.1: "Wall time: 1.1 seconds\naborted by user", "aborted by
// user after 0.3s").
func codexOutput(raw json.RawMessage) (doc []byte, isErr, rejected bool) {
	if s, ok := evidence.RawString(raw); ok {
		doc = []byte(s)
	} else if t, ok := itemsText(raw); ok {
		doc = []byte(t)
	} else {
		var o struct {
			Content json.RawMessage `json:"content"`
			Success *bool           `json:"success"`
		}
		doc = raw
		if evidence.Decode(raw, &o) == nil {
			isErr = o.Success != nil && !*o.Success
			if s, ok := evidence.RawString(o.Content); ok {
				doc = []byte(s)
			}
		}
	}
	for _, line := range bytes.Split(doc, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("aborted by user")) {
			return doc, isErr, true
		}
	}
	return doc, isErr, false
}

// itemsText reads an output that is a list of content items (0.171's
// exec: [{"type":"input_text","text":"Script completed\n..."},...]): their
// texts joined by newlines. ok is false for anything else.
func itemsText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '[' {
		return "", false
	}
	var items []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return "", false
	}
	texts := make([]string, 0, len(items))
	for _, it := range items {
		texts = append(texts, it.Text)
	}
	return strings.Join(texts, "\n"), true
}

type escalationArgs struct {
	SandboxPermissions string `json:"sandbox_permissions"`
	WithEscalated      bool   `json:"with_escalated_permissions"`
}

func (a *escalationArgs) escalated() bool {
	return a.SandboxPermissions == "require_escalated" || a.WithEscalated
}

// escalation says why a tool call will ask for approval, when its input
// shows it: a request for escalated sandbox permissions under a policy
// that asks ("on-request", "untrusted"; not "never"). The input is the
// call's JSON arguments or, for 0.171's freeform exec tool (codeMode),
// JavaScript whose nested tool calls carry them.
func (p *Parser) escalation(codeMode bool, input json.RawMessage) string {
	if p.policy == "never" {
		return ""
	}
	doc := []byte(input)
	if s, ok := evidence.RawString(input); ok {
		doc = []byte(s)
	}
	var args escalationArgs
	switch {
	case codeMode:
		if !codeModeEscalation(doc) {
			return ""
		}
	case json.Unmarshal(doc, &args) != nil, !args.escalated():
		return ""
	}
	return "require_escalated"
}

var (
	// nestedCall finds a nested tool call in exec's JavaScript:
	// "tools.exec_command(" (0.171.0: `const r = await
	// tools.exec_command({"cmd":"ls -la",...,"sandbox_permissions":
	// "require_escalated"});`).
	nestedCall = regexp.MustCompile(`\btools\s*\.\s*[A-Za-z_$][\w$]*\s*\(\s*`)
	// escalationLiteral finds the same request written as a JavaScript
	// object literal (unquoted or single-quoted keys, as exec's own
	// description writes it: sandbox_permissions: "require_escalated").
	escalationLiteral = regexp.MustCompile(`\bsandbox_permissions['"]?\s*:\s*['"\x60]require_escalated['"\x60]|\bwith_escalated_permissions['"]?\s*:\s*true\b`)
)

// codeModeEscalation says whether exec's JavaScript asks a nested tool for
// escalated permissions. A nested call's argument that is a JSON object
// is decoded; unless every nested call was read that way (an argument
// that is an object literal or a variable, a call written
// tools["name"](...)), the script's text is searched for the request too.
func codeModeEscalation(js []byte) bool {
	calls, decoded := nestedCall.FindAllIndex(js, -1), 0
	for _, loc := range calls {
		rest := js[loc[1]:]
		if len(rest) == 0 || rest[0] != '{' {
			continue
		}
		var args escalationArgs
		if json.NewDecoder(bytes.NewReader(rest)).Decode(&args) != nil {
			continue
		}
		if args.escalated() {
			return true
		}
		decoded++
	}
	return (len(calls) == 0 || decoded < len(calls)) && escalationLiteral.Match(js)
}

// userText says whether a user-role message is the user's own text: its
// content kinds say so, or (versions without kinds) it is not one of the
// context blocks Codex adds.
func userText(kinds []string, text string) bool {
	if len(kinds) > 0 {
		for _, k := range kinds {
			if k != "user.text" {
				return false
			}
		}
		return true
	}
	for _, pre := range []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<INSTRUCTIONS>"} {
		if strings.HasPrefix(text, pre) {
			return false
		}
	}
	return true
}

// codexText reads the text of a user message: its input_text (response
// item) or text (UserMessage item) entries joined (one in practice). ok is
// false when it holds anything else.
func codexText(raw json.RawMessage) (string, bool) {
	var items []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &items) != nil || len(items) == 0 {
		return "", false
	}
	var b strings.Builder
	for i, it := range items {
		if it.Type != "input_text" && it.Type != "text" {
			return "", false
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(it.Text)
	}
	return b.String(), true
}

// asksSecret reads a Codex question call's arguments (a JSON string
// holding {"questions":[{"isSecret":true,...}]}) and reports whether any
// question is marked secret. Arguments it cannot read are not secret:
// the screen's own words still make such a question manual.
func asksSecret(raw json.RawMessage) bool {
	args, ok := evidence.RawString(raw)
	if !ok {
		return false
	}
	var v struct {
		Questions []struct {
			IsSecret bool `json:"isSecret"`
		} `json:"questions"`
	}
	if evidence.Decode([]byte(args), &v) != nil {
		return false
	}
	for _, q := range v.Questions {
		if q.IsSecret {
			return true
		}
	}
	return false
}
