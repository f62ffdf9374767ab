package popup

import (
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/answer"
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
	// Degraded: the daemon cannot act now (the last list said why); every
	// answer would be refused, so the popup says so above the list.
	Degraded *api.Degraded
}

// Detail is one terminal's Status as the popup shows it, and what the
// person may choose from it.
type Detail struct {
	Status  api.StatusResponse
	Region  *vt.Capture // the prompt region's cells and styles
	Rows    int
	Choices []answer.Choice
	// Manual says why nothing can be answered here ("" when something
	// can): the reasons of a manual_required interaction, or the kind.
	Manual string
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
	d.Choices, d.Manual = answer.Choices(st.Terminal)
	return d
}

// regionWidth is wide enough for any pane's row; the view clips.
const regionWidth = 512
