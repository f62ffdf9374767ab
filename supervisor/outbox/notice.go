package outbox

import (
	"encoding/json"
	"log/slog"
	"strings"
	"unicode"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
)

// What a person's route says (desktop, terminal, a webhook marked person):
// which agent (its name, tmux session and window, directory) and what it
// asks (the prompt's header and question as the projection has them).
// Never an answer's text or a draft: neither is in a notification's
// envelope, and the place is read from the daemon's rows, which carry
// neither.

// Place is where a terminal's agent runs, as a person names it.
type Place struct {
	Agent   string // claude, codex, ...
	Session string // the tmux session's name
	Window  string // the window's index
	Cwd     string // the pane's directory (~ for the home)
}

// Places finds a terminal's place, and the web page's link to its entry
// when `akk web` runs ("" otherwise).
type Places interface {
	PlaceOf(terminalID string) (Place, bool)
	WebLink(terminalID string) string
}

// Notice is a person's notification: plain text, control characters
// removed, each part bounded.
type Notice struct {
	Title string // "Claude Code asks permission"
	Body  string // "main:2 · ~/project\nBash command: Do you want to proceed?"
	Link  string // the web page's entry, or ""
}

// LogValue: a notice's text is for the person, not for logs.
func (Notice) LogValue() slog.Value { return slog.StringValue("notice") }

// Bounds of a notice's parts, in runes.
const (
	maxTitle = 80
	maxLine  = 160
)

// NoticeOf is what a person hears of n (places may be nil).
func NoticeOf(n *store.Notification, places Places) Notice {
	var env api.CallbackEnvelope
	_ = json.Unmarshal(n.Envelope, &env)
	if env.TaskKind == DaemonNotice { // about akk itself (Tell)
		return Notice{Title: clean("akk: "+strings.ReplaceAll(env.Event, "_", " "), maxTitle), Body: clean(env.Reason, maxLine)}
	}
	var p Place
	link := ""
	if places != nil {
		p, _ = places.PlaceOf(env.TerminalID)
		link = places.WebLink(env.TerminalID)
	}
	if p.Agent == "" && env.Interaction != nil {
		p.Agent = env.Interaction.Agent
	}
	var lines []string
	if where := placeLine(p); where != "" {
		lines = append(lines, where)
	}
	if what := whatLine(env); what != "" {
		lines = append(lines, what)
	}
	for i, l := range lines {
		lines[i] = clean(l, maxLine)
	}
	return Notice{Title: clean(agentName(p.Agent)+" "+titleOf(env), maxTitle), Body: strings.Join(lines, "\n"), Link: link}
}

// agentName is the agent as its users call it (the registry's display
// name; an agent akk does not know by its contract value).
func agentName(agent string) string {
	if agent == "" {
		return "An agent"
	}
	if a, ok := registry.Lookup(agent); ok {
		return a.Display()
	}
	return agent
}

// titleOf says what happened, after the agent's name.
func titleOf(env api.CallbackEnvelope) string {
	if in := env.Interaction; in != nil && env.Type == api.CallbackBlocked {
		switch in.Kind {
		case contract.KindPermission:
			if what, ok := toolAsks[in.Tool]; ok {
				return "asks permission to " + what
			}
			return "asks permission"
		case contract.KindConfirmation:
			return "asks you to confirm"
		}
		return "asks you a question"
	}
	switch {
	case env.Event == api.CallbackAgentBlocked && env.Blocked != nil:
		return "is blocked: " + strings.ReplaceAll(env.Blocked.Reason, "_", " ")
	case env.Event == api.CallbackLimitReset:
		return "can go on: its limit reset"
	case env.Event == api.CallbackCompleted:
		return "finished"
	case env.Event == api.CallbackUnqualified:
		return "is a version akk only watches"
	}
	return strings.ReplaceAll(env.Type+" "+env.Event, "_", " ")
}

// toolAsks says what a permission is for, from the profile's closed tool
// name: a permission's projection carries no screen text (the command, a
// file's name), and neither does its notice.
var toolAsks = map[contract.Tool]string{
	contract.ToolShell: "run a shell command", contract.ToolEdit: "edit a file",
	contract.ToolWrite: "write a file", contract.ToolNotebookEdit: "edit a notebook",
	contract.ToolWebFetch: "fetch a web page", contract.ToolMCP: "use an MCP tool",
	contract.ToolRead: "read a file outside the project", contract.ToolPlan: "start on its plan",
	contract.ToolExitPlan: "leave plan mode", contract.ToolPermissions: "widen its sandbox",
}

// placeLine: "main:2 · ~/project".
func placeLine(p Place) string {
	where := p.Session
	if p.Window != "" {
		where += ":" + p.Window
	}
	switch {
	case where == "":
		return p.Cwd
	case p.Cwd == "":
		return where
	}
	return where + " · " + p.Cwd
}

// whatLine is the question the agent asks (its header, then the prompt),
// a block's printed reset, or an end's reason.
func whatLine(env api.CallbackEnvelope) string {
	if in := env.Interaction; in != nil && len(in.Questions) > 0 {
		q := in.Questions[0]
		what := q.Prompt
		if q.Header != "" && q.Header != q.Prompt {
			what = q.Header + ": " + q.Prompt
		}
		if len(in.Questions) > 1 {
			what += " (+" + itoa(len(in.Questions)-1) + " more)"
		}
		return what
	}
	if b := env.Blocked; b != nil && b.ResetsAtShown != "" {
		return "resets " + b.ResetsAtShown
	}
	return strings.ReplaceAll(env.Reason, "_", " ")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// clean makes s one line of plain text: control characters (an escape
// sequence an agent printed, a newline) and other spaces become one space,
// and it is cut to max runes with an ellipsis.
func clean(s string, max int) string {
	f := strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029'
	})
	rs := []rune(strings.Join(f, " "))
	if len(rs) > max {
		return string(rs[:max-1]) + "…"
	}
	return string(rs)
}
