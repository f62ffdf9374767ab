package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"html/template"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/answer"
	"github.com/agent-knock-knock/akk/vt"
)

// listView is the list of agents that need the person.
type listView struct {
	Items  []itemView
	Others int    // agents that need nobody now
	Err    string // the daemon could not be read
	Sel    string // the terminal whose detail is open
	// Degraded: the daemon cannot act now ("": it can); every answer would
	// be refused before input.
	Degraded string
}

type itemView struct {
	ID, Kind, Agent, Where, Age, Key string
	Urgent, Selected                 bool
}

func newListView(l api.ListResponse, now time.Time, sel string) listView {
	items := api.AttentionList(l.Terminals, now)
	v := listView{Sel: sel}
	if d := l.Degraded; d != nil {
		v.Degraded = d.State + ": " + d.Detail
	}
	for _, it := range items {
		t := it.Terminal
		agent := answer.AgentLabel(t)
		v.Items = append(v.Items, itemView{
			ID: t.TerminalID, Kind: it.Kind, Agent: agent, Where: where(t), Age: answer.Age(now, t.StateSince),
			Key: key(t), Urgent: urgent[it.Kind],
			Selected: t.TerminalID == sel,
		})
	}
	for _, t := range l.Terminals {
		if t.Agent != api.AgentNone && t.Agent != "" {
			v.Others++
		}
	}
	v.Others -= len(v.Items)
	return v
}

// urgent kinds are shown in red (the popup's colours).
var urgent = map[string]bool{api.AttentionPermission: true, api.AttentionBlocked: true, api.AttentionFailed: true}

// where names a pane the way a tmux user finds it: session, window,
// pane, and the last part of a long working directory.
func where(t api.Terminal) string {
	s := t.Session + " " + t.PaneID
	if c := t.Cwd; c != "" {
		if i := strings.LastIndexByte(c, '/'); i >= 0 && len(c) > 32 {
			c = "…" + c[i:]
		}
		s += " · " + c
	}
	return s
}

// key is what the page compares to know that a terminal's prompt changed
// (ids and states only, all public).
func key(t api.Terminal) string {
	k := t.TerminalID + "/" + string(t.ScreenState)
	if in := t.Interaction; in != nil {
		k += "/" + in.InteractionID + "/" + string(in.State)
	}
	return k
}

// detailView is one terminal's prompt and what the person may answer.
type detailView struct {
	ID, Key, Title, Where, State string
	Region                       template.HTML
	Wide                         bool // the region is wider than a phone
	Manual                       string
	Hint                         string // what is answered in the pane instead
	Choices                      []choiceView
	Shown                        string // the digest of what is shown
	CSRF                         string
	Msg                          string
	MsgBad                       bool
}

type choiceView struct {
	Index     int
	Label     string
	FreeText  bool
	MaxLength int
}

// regionWidth is wide enough for any pane's row.
const regionWidth = 512

func newDetailView(st api.StatusResponse, shown string, csrf string) detailView {
	t := st.Terminal
	v := detailView{ID: t.TerminalID, Key: key(t), Where: where(t), State: string(t.ScreenState), Shown: shown, CSRF: csrf}
	v.Title = answer.AgentLabel(t)
	if p := st.Prompt; p != nil {
		rows := max(p.Bottom-p.Top+1, 1)
		for _, src := range []string{p.ANSI, p.Text} {
			if c, err := vt.ParseCapture([]byte(src), regionWidth, rows); src != "" && err == nil {
				v.Region = RegionHTML(c)
				for i, row := range c.Rows {
					v.Wide = v.Wide || len(trimBlank(row[:c.Used[i]])) > 48
				}
				break
			}
		}
	}
	cs, manual := answer.Choices(t)
	v.Manual = manual
	if len(cs) > 0 && cs[0].Decision != "" {
		v.Hint = "Reject, \"always allow\" and the other choices are made in the pane: akk approves once only from here."
	}
	for i, c := range cs {
		cv := choiceView{Index: i, Label: c.Label, FreeText: c.FreeText}
		if c.Question != nil {
			cv.MaxLength = c.Question.MaxLength
		}
		if cv.MaxLength <= 0 || cv.MaxLength > api.MaxAnswerText {
			cv.MaxLength = api.MaxAnswerText
		}
		v.Choices = append(v.Choices, cv)
	}
	return v
}

// digest binds an answer to what the page showed: the terminal, its
// interaction and the styled prompt (answer.SameShown's fields), keyed by
// this process's secret so the value means nothing elsewhere.
func digest(key []byte, st api.StatusResponse) string {
	m := hmac.New(sha256.New, key)
	t := st.Terminal
	parts := []string{t.TerminalID, string(t.ScreenState)}
	if in := t.Interaction; in != nil {
		parts = append(parts, in.InteractionID, string(in.State))
	} else {
		parts = append(parts, "", "")
	}
	if p := st.Prompt; p != nil {
		parts = append(parts, "p", p.ANSI, p.Text)
	}
	for _, s := range parts {
		m.Write(binary.BigEndian.AppendUint64(nil, uint64(len(s))))
		m.Write([]byte(s))
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
