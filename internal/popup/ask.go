package popup

import (
	"context"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/port"
	"github.com/agent-knock-knock/akk/vt"
)

// Ask mode (`akk popup --ask FILE`) shows one question of the interaction
// port — a port.Request the daemon wrote — and hands the person's raw
// answer back. It is the popup's half of the port (Port in port.go): it
// never talks to the daemon and never answers an agent; the daemon decides
// what the answer means and runs the dispatch transaction itself.

// AskModel is the state of an ask-mode popup.
type AskModel struct {
	Req    port.Request
	Region *vt.Capture // Req.Styled parsed, or nil
	Opt    int         // the highlighted choice
	Picked []bool      // a multiple choice's ticks
	Text   []rune      // a text answer being typed
	// Answer is set once the person answered; Quit without Answer means
	// they closed the popup (the port then keeps waiting for another
	// channel: closing is not an answer).
	Answer *string
	Quit   bool
}

// askChoice is one line the person may pick.
type askChoice struct{ label, answer string }

// NewAskModel prepares the model of req.
func NewAskModel(req port.Request) *AskModel {
	m := &AskModel{Req: req, Picked: make([]bool, len(req.Options))}
	if req.Styled != "" {
		rows := strings.Count(strings.TrimRight(req.Styled, "\n"), "\n") + 1
		if c, err := vt.ParseCapture([]byte(req.Styled), regionWidth, rows); err == nil {
			m.Region = c
		}
	}
	return m
}

func (m *AskModel) choices() []askChoice {
	switch m.Req.Kind {
	case "decision":
		return []askChoice{{"y  Yes", "y"}, {"n  No", "n"}}
	case "manual":
		return []askChoice{{"Done: I did it by hand", ""}}
	case "choice":
		out := make([]askChoice, len(m.Req.Options))
		for i, o := range m.Req.Options {
			out[i] = askChoice{o, strconv.Itoa(i + 1)}
		}
		return out
	}
	return nil // text: the field
}

func (m *AskModel) answer(a string) {
	m.Answer, m.Quit = &a, true
}

// Update applies one event.
func (m *AskModel) Update(ev tcell.Event) {
	e, ok := ev.(*tcell.EventKey)
	if !ok {
		return
	}
	if e.Key() == tcell.KeyEscape || e.Key() == tcell.KeyCtrlC {
		m.Quit = true
		return
	}
	if m.Req.Kind == "text" {
		var erased bool
		if m.Text, erased = erase(m.Text, e.Key()); erased {
			return
		}
		switch e.Key() {
		case tcell.KeyEnter:
			m.answer(string(m.Text))
		case tcell.KeyRune:
			m.Text = append(m.Text, e.Rune())
		}
		return
	}
	cs := m.choices()
	switch e.Key() {
	case tcell.KeyUp:
		m.Opt = max(0, m.Opt-1)
	case tcell.KeyDown:
		m.Opt = min(len(cs)-1, m.Opt+1)
	case tcell.KeyEnter:
		m.pick(cs, m.Opt, true)
	case tcell.KeyRune:
		switch r := e.Rune(); {
		case r == 'q':
			m.Quit = true
		case r == 'y' && m.Req.Kind == "decision":
			m.answer("y")
		case r == 'n' && m.Req.Kind == "decision":
			m.answer("n")
		case r == ' ' && m.Req.Multiple:
			m.Picked[m.Opt] = !m.Picked[m.Opt]
		case r >= '1' && r <= '9' && int(r-'1') < len(cs) && m.Req.Kind != "decision":
			// Not for a decision: the agent's own prompt, shown above,
			// numbers its options differently ("2. Yes, and always
			// allow"), so a digit would mean something else there.
			m.Opt = int(r - '1')
			m.pick(cs, m.Opt, false)
		}
	}
}

// pick answers choice i; in a multiple choice a digit ticks and Enter
// sends the ticks (or the highlighted one when none is ticked).
func (m *AskModel) pick(cs []askChoice, i int, enter bool) {
	if !m.Req.Multiple {
		m.answer(cs[i].answer)
		return
	}
	if !enter {
		m.Picked[i] = !m.Picked[i]
		return
	}
	var nums []string
	for j, p := range m.Picked {
		if p {
			nums = append(nums, strconv.Itoa(j+1))
		}
	}
	if len(nums) == 0 {
		nums = []string{strconv.Itoa(i + 1)}
	}
	m.answer(strings.Join(nums, ","))
}

// ViewAsk draws m on s (without Show).
func ViewAsk(s tcell.Screen, m *AskModel) {
	s.Clear()
	w, h := s.Size()
	if w < 20 || h < 8 {
		put(s, 0, 0, w, "akk popup: too small", stBad)
		return
	}
	title := m.Req.Title
	if title == "" {
		title = "a question"
	}
	fill(s, 0, 0, w, stTitle)
	put(s, 0, 0, w, " akk asks: "+title, stTitle)
	var below []line
	if q := m.Req.Question; q != "" {
		below = append(below, line{" " + q, tcell.StyleDefault.Bold(true)})
	}
	for i, c := range m.choices() {
		st, mark := tcell.StyleDefault, "  "
		if i == m.Opt {
			st, mark = stChoice, "❯ "
		}
		tick := ""
		if m.Req.Multiple {
			tick = "[ ] "
			if m.Picked[i] {
				tick = "[x] "
			}
		}
		num := strconv.Itoa(i+1) + ". "
		if m.Req.Kind == "decision" {
			num = "" // answered by y / n: see Update
		}
		below = append(below, line{mark + num + tick + c.label, st})
	}
	if m.Req.Kind == "text" {
		below = append(below, line{"  > " + string(m.Text) + "▏", tcell.StyleDefault.Bold(true)})
	}
	help := " ↑↓ choose  1-9 pick  ⏎ answer  esc close (answer later)"
	switch {
	case m.Req.Kind == "decision":
		help = " y yes  n no  up/down+enter choose  esc close (answer later)"
	case m.Req.Kind == "text":
		help = " type the answer  ⏎ send  esc close (answer later)"
	case m.Req.Multiple:
		help = " space/1-9 tick  ⏎ send  esc close (answer later)"
	}
	y := 1
	bottom := h - 1
	// Room for the prompt: what is left above the question and choices.
	room := bottom - y - len(below) - 1
	if m.Region != nil {
		y = viewRegion(s, m.Region, y, w, room)
	} else {
		for _, l := range m.Req.Lines {
			if y >= 1+room {
				break
			}
			put(s, 1, y, w-1, l, tcell.StyleDefault)
			y++
		}
	}
	for x := 0; x < w; x++ {
		s.SetContent(x, y, '─', nil, stFrame)
	}
	y++
	for _, l := range below {
		if y >= bottom {
			break
		}
		put(s, 0, y, w, l.text, l.style)
		y++
	}
	put(s, 0, h-1, w, help, stDim)
}

// RunAsk shows req on s until the person answers (answer is called with
// the raw answer once), closes the popup, or ctx ends.
func RunAsk(ctx context.Context, s tcell.Screen, req port.Request, answer func(string) error) error {
	m := NewAskModel(req)
	events := make(chan tcell.Event, 16)
	quit := make(chan struct{})
	defer close(quit)
	go s.ChannelEvents(events, quit)
	for {
		ViewAsk(s, m)
		s.Show()
		if m.Quit {
			if m.Answer != nil {
				return answer(*m.Answer)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev := <-events:
			if ev == nil {
				return nil
			}
			if _, ok := ev.(*tcell.EventResize); ok {
				s.Sync()
			}
			m.Update(ev)
		}
	}
}
