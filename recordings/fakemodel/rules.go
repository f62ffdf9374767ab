package fakemodel

import (
	"cmp"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"
)

// Rules drive a fake model the way an LLM drives its tools: each reply is
// decided by the state of the conversation the request carries (which
// tool's result came last, and what that result says), and a tool call's
// input is copied out of that result by path. A scenario written as rules
// holds no ids of its own: whatever ids the model sends, it read in the
// conversation first, which is what a test of a model-facing contract
// needs to prove.
//
// Rules keep no state between requests: the conversation is the state,
// so a client that retries a request gets the same reply.
//
// A rule names an MCP server's tool by its own name (agent_knock_knock_list)
// or as a host shows it: a name the request offers is used as it is,
// else the one offered tool that ends in "__" + the name (Claude Code and
// Pi offer mcp__akk__agent_knock_knock_list, OpenClaw
// akk__agent_knock_knock_list), so one rule set drives every host.

// Rule is one situation and the model's reply to it. The first rule whose
// situation holds is taken; when none holds the model says so in text
// (choice "rule:none"), which ends the agent's turn.
type Rule struct {
	// Name is logged as the request's choice ("rule:<Name>").
	Name string
	// After is the tool whose result is the newest input; "" means the
	// newest input is the user's prompt (When is then empty).
	After string
	// Prompt, if set, is a regular expression the user's newest prompt
	// must match: the newest user message with text, also when tool
	// results came after it (what the user asked for decides the act).
	// At a prompt (After ""), Input's paths read its named groups
	// ("$.turn_id" is the group (?P<turn_id>...)), as a model reads an id
	// out of a message.
	Prompt string
	// Error: the rule applies to an error result (is_error) instead of a
	// successful one. Conditions on an error's text do not resolve.
	Error bool
	// When must all hold on the result, decoded as JSON.
	When []Cond
	// Max bounds a repeat: the rule holds only while the conversation
	// has at most Max results of After that meet When (this one
	// included). 0: no bound.
	Max int
	// Call is the tool to call; "" ends the turn with Text.
	Call string
	// Input is the call's input: a JSON-shaped template (maps, slices,
	// scalars) in which every string that starts with "$" is a path into
	// the result, replaced by the value found there. A path that does not
	// resolve makes the situation not hold.
	Input any
	// From, if set, is the tool whose newest successful result Input's
	// paths read instead (as a model remembers an id from earlier in the
	// conversation: a refusal names no turn, the status before it does).
	From string
	// Text is said before the call, or is the final text.
	Text string
	// Pace holds the reply back, as a model's thinking time: a repeat
	// (status again) then runs at a model's pace, not a busy loop's.
	Pace time.Duration
}

// Cond is a predicate on one path of a result.
type Cond struct {
	Path string
	Op   string // "==", "!=" (also when absent), "exists", "absent"
	Val  string
}

// Eq holds when the value at path is val (compared as text).
func Eq(path, val string) Cond { return Cond{Path: path, Op: "==", Val: val} }

// Ne holds when the value at path is absent or not val.
func Ne(path, val string) Cond { return Cond{Path: path, Op: "!=", Val: val} }

// Has holds when path resolves.
func Has(path string) Cond { return Cond{Path: path, Op: "exists"} }

// Lacks holds when path does not resolve.
func Lacks(path string) Cond { return Cond{Path: path, Op: "absent"} }

func (c Cond) holds(doc any, ok bool) bool {
	var v any
	found := false
	if ok {
		v, found = lookup(doc, c.Path)
	}
	switch c.Op {
	case "==":
		return found && text(v) == c.Val
	case "!=":
		return !found || text(v) != c.Val
	case "exists":
		return found
	case "absent":
		return !found
	}
	return false
}

// Conversation is what a rule reads of a request.
type Conversation struct {
	// Prompt is the newest user prompt when the newest user message is a
	// prompt, "" when it carries tool results.
	Prompt string
	// Asked is the newest user prompt of the conversation, also when
	// tool results came after it ("" when there is none).
	Asked string
	// Calls are the model's tool calls in order, with their results.
	Calls []Call
	// Tools are the names of the tools the request offers.
	Tools []string
}

// sameTool says whether have, a tool's name as the host offered it, is
// the tool a rule names want: the same name, or the host's prefix
// ("mcp__akk__", "akk__") and then want.
func sameTool(have, want string) bool {
	return have == want || strings.HasSuffix(have, "__"+want)
}

// offered is the name under which the request offers the tool a rule
// names: want itself if offered, else the one offered tool that is want
// under a host's prefix; want when none or several are.
func (c Conversation) offered(want string) string {
	found := ""
	for _, t := range c.Tools {
		if t == want {
			return t
		}
		if sameTool(t, want) {
			if found != "" {
				return want
			}
			found = t
		}
	}
	return cmp.Or(found, want)
}

// Call is one tool call of the model and its result.
type Call struct {
	Name    string
	Result  string // the result's text
	IsError bool
	Done    bool // a result arrived
}

// latest is the call whose result is the newest input (nil if none), and
// whether that input is a prompt instead.
func (c Conversation) latest() (*Call, bool) {
	if c.Prompt != "" || len(c.Calls) == 0 {
		return nil, true
	}
	if last := &c.Calls[len(c.Calls)-1]; last.Done {
		return last, false
	}
	return nil, false
}

// newest is the newest successful result of tool, decoded.
func (c Conversation) newest(tool string) (any, bool) {
	for i := len(c.Calls) - 1; i >= 0; i-- {
		if k := c.Calls[i]; sameTool(k.Name, tool) && k.Done && !k.IsError {
			var doc any
			err := json.Unmarshal([]byte(k.Result), &doc)
			return doc, err == nil
		}
	}
	return nil, false
}

// decide picks the reply to a conversation and names the choice.
func decide(rules []Rule, conv Conversation) (Reply, string) {
	last, atPrompt := conv.latest()
	var doc any
	parsed := false
	if last != nil && !last.IsError {
		parsed = json.Unmarshal([]byte(last.Result), &doc) == nil
	}
	for _, r := range rules {
		groups, asked := r.asked(conv.Asked)
		if !asked || !r.situation(last, atPrompt, doc, parsed) || (r.Max > 0 && r.seen(conv) > r.Max) {
			continue
		}
		reply := Reply{Text: r.Text, FirstDelay: r.Pace}
		if r.Call != "" {
			src, srcParsed := doc, parsed
			switch {
			case r.From != "":
				src, srcParsed = conv.newest(r.From)
			case r.After == "":
				src, srcParsed = groups, groups != nil
			}
			in, ok := fill(r.Input, src, srcParsed)
			if !ok {
				continue
			}
			if in == nil {
				in = map[string]any{} // a tool's input is an object, even an empty one
			}
			reply.Tool = &ToolCall{Name: conv.offered(r.Call), Input: in}
		}
		return reply, "rule:" + r.Name
	}
	after := "the prompt"
	switch {
	case last != nil:
		after = fmt.Sprintf("the %s result %q", last.Name, clip(last.Result, 300))
	case !atPrompt:
		after = "a tool call that has no result"
	}
	return Reply{Text: "fakemodel: no rule holds after " + after}, "rule:none"
}

// situation: the newest input is r.After's result (or the prompt) and
// meets r.When.
func (r Rule) situation(last *Call, atPrompt bool, doc any, parsed bool) bool {
	if r.After == "" {
		return atPrompt && len(r.When) == 0
	}
	if last == nil || !sameTool(last.Name, r.After) || last.IsError != r.Error {
		return false
	}
	for _, c := range r.When {
		if !c.holds(doc, parsed) {
			return false
		}
	}
	return true
}

// asked: the user's newest prompt matches r.Prompt (always, when unset),
// and its named groups as a document.
func (r Rule) asked(prompt string) (map[string]any, bool) {
	if r.Prompt == "" {
		return nil, true
	}
	re, err := regexp.Compile(r.Prompt)
	if err != nil {
		return nil, false
	}
	m := re.FindStringSubmatch(prompt)
	if m == nil {
		return nil, false
	}
	groups := map[string]any{}
	for i, name := range re.SubexpNames() {
		if name != "" && i < len(m) {
			groups[name] = m[i]
		}
	}
	return groups, true
}

// seen counts the conversation's results that meet r's situation.
func (r Rule) seen(conv Conversation) int {
	n := 0
	for i := range conv.Calls {
		c := &conv.Calls[i]
		if !c.Done {
			continue
		}
		var doc any
		parsed := !c.IsError && json.Unmarshal([]byte(c.Result), &doc) == nil
		if r.situation(c, false, doc, parsed) {
			n++
		}
	}
	return n
}

// fill copies values out of the result into a template, after turning
// the template into plain JSON values (so a []string or a struct is
// filled too).
func fill(tmpl, doc any, parsed bool) (any, bool) {
	var plain any
	if b, err := json.Marshal(tmpl); err != nil || json.Unmarshal(b, &plain) != nil {
		return nil, false
	}
	return fillPlain(plain, doc, parsed)
}

func fillPlain(tmpl, doc any, parsed bool) (any, bool) {
	switch x := tmpl.(type) {
	case string:
		if !strings.HasPrefix(x, "$") {
			return x, true
		}
		if !parsed {
			return nil, false
		}
		return lookup(doc, x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			f, ok := fillPlain(v, doc, parsed)
			if !ok {
				return nil, false
			}
			out[k] = f
		}
		return out, true
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			f, ok := fillPlain(v, doc, parsed)
			if !ok {
				return nil, false
			}
			out[i] = f
		}
		return out, true
	}
	return tmpl, true
}

// LogValue of a rule: its name and what it calls, never its text (the
// redaction rule every value with a Text field follows).
func (r Rule) LogValue() slog.Value {
	return slog.GroupValue(slog.String("name", r.Name), slog.String("after", r.After), slog.String("call", r.Call))
}

// String is LogValue as text.
func (r Rule) String() string { return r.LogValue().String() }
