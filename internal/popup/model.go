package popup

import (
	"fmt"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/vt"
)

// Model is the popup's whole state.
type Model struct {
	W, H  int
	Items []api.Attentive
	Sel   int // the selected item
	// Detail is the selected terminal's status as shown (nil while it
	// loads).
	Detail *Detail
	Opt    int    // the highlighted choice
	Text   []rune // the free text being typed
	Typing bool   // keys go to Text
	Msg    string
	MsgBad bool
	Busy   bool // an answer is in flight: answering keys wait
	Loaded bool // a list arrived at least once
	Quit   bool
}

// Detail is one terminal's Status as the popup shows it, and what the
// person may choose from it.
type Detail struct {
	Status  api.StatusResponse
	Region  *vt.Capture // the prompt region's cells and styles
	Rows    int
	Choices []Choice
	// Manual says why nothing can be answered here ("" when something
	// can): the reasons of a manual_required interaction, or the kind.
	Manual string
}

// Choice is one thing the person may answer.
type Choice struct {
	Label    string
	Decision string // approve_once (a permission)
	Question *api.Question
	OptionID string // "" for a free_text question
	FreeText bool   // the answer carries typed text
}

// Effects the update asks Run to perform, in order.
type (
	// LoadList lists the terminals.
	LoadList struct{}
	// LoadStatus asks a fresh Status (with Render) of a terminal.
	LoadStatus struct{ TerminalID string }
	// Answer makes a fresh Status and, only when it shows what Shown
	// shows, sends Approve or Respond.
	Answer struct {
		Shown   api.StatusResponse
		Approve *api.ApproveRequest
		Respond *api.RespondRequest
	}
	// Jump switches the popup's client to the pane, then the popup ends.
	Jump struct{ Session, Pane string }
)

// Events Run feeds back to Update besides keys.
type (
	// ListLoaded carries a list (or its error) and the time it was read.
	ListLoaded struct {
		List api.ListResponse
		Err  error
		Now  time.Time
	}
	// StatusLoaded carries a Status.
	StatusLoaded struct {
		TerminalID string
		Status     api.StatusResponse
		Err        error
	}
	// Answered carries an answer's outcome, or Changed: the fresh Status
	// showed something else, and nothing was sent.
	Answered struct {
		Result  api.ActionResult
		Err     error
		Changed *api.StatusResponse
	}
	// Jumped says a jump failed (a successful one ends the popup).
	Jumped struct{ Err error }
)

// SameShown reports whether a fresh Status shows what the person saw: the
// same terminal, interaction and styled prompt region. The interaction id
// is derived from the prompt's exact fingerprint; the rendering is
// compared as well because it is what the person read.
func SameShown(shown, fresh api.StatusResponse) bool {
	a, b := shown.Terminal, fresh.Terminal
	if a.TerminalID != b.TerminalID || a.ScreenState != b.ScreenState || (a.Interaction == nil) != (b.Interaction == nil) {
		return false
	}
	if a.Interaction != nil && (a.Interaction.InteractionID != b.Interaction.InteractionID ||
		a.Interaction.State != b.Interaction.State) {
		return false
	}
	if (shown.Prompt == nil) != (fresh.Prompt == nil) {
		return false
	}
	return shown.Prompt == nil || (shown.Prompt.ANSI == fresh.Prompt.ANSI && shown.Prompt.Text == fresh.Prompt.Text)
}

// NewDetail derives what a Status lets the person do.
func NewDetail(st api.StatusResponse) *Detail {
	d := &Detail{Status: st}
	if p := st.Prompt; p != nil {
		d.Rows = p.Bottom - p.Top + 1
		// The styled rendering when it parses, else the plain text.
		for _, src := range []string{p.ANSI, p.Text} {
			if c, err := vt.ParseCapture([]byte(src), regionWidth, max(d.Rows, 1)); src != "" && err == nil {
				d.Region = c
				break
			}
		}
	}
	d.Choices, d.Manual = choices(st.Terminal)
	return d
}

// regionWidth is wide enough for any pane's row; the view clips.
const regionWidth = 512

// choices lists what may be answered here, or why nothing may.
func choices(t api.Terminal) ([]Choice, string) {
	in := t.Interaction
	if in == nil {
		switch t.ScreenState {
		case api.ScreenExited:
			return nil, "the agent exited"
		case api.ScreenIdle:
			return nil, "the agent is idle: jump to the pane to give it a task"
		}
		return nil, "nothing the popup can answer (" + t.ScreenState + "): jump to the pane"
	}
	switch in.State {
	case "pending":
	case "manual_required":
		return nil, "manual required: " + strings.Join(in.Reasons, ", ") + " — answer it in the pane"
	case "response_uncertain":
		return nil, "an earlier answer may or may not have arrived: look at the pane (akk never retries)"
	default:
		return nil, "interaction " + in.State
	}
	if in.Kind == api.AttentionPermission {
		// By terminal_id only approve_once (DESIGN invariant 9); a reject
		// is made in the pane.
		for _, d := range in.Decisions {
			if d == api.DecisionApproveOnce {
				return []Choice{{Label: "Approve once", Decision: d}}, ""
			}
		}
		return nil, "no decision offered: answer it in the pane"
	}
	if len(in.Questions) != 1 {
		return nil, fmt.Sprintf("%d questions at once: answer them in the pane", len(in.Questions))
	}
	q := &in.Questions[0]
	switch q.ResponseKind {
	case "single_select", "confirmation":
		var cs []Choice
		for _, o := range q.Options {
			cs = append(cs, Choice{Label: o.Label, Question: q, OptionID: o.OptionID, FreeText: o.FreeText})
		}
		return cs, ""
	case "free_text":
		return []Choice{{Label: "Type an answer", Question: q, FreeText: true}}, ""
	}
	return nil, q.ResponseKind + " questions are answered in the pane"
}
