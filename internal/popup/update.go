package popup

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/answer"
)

// Update applies one event and returns the effects to run, in order.
func (m *Model) Update(ev any) []any {
	switch e := ev.(type) {
	case *tcell.EventResize:
		m.W, m.H = e.Size()
	case *tcell.EventKey:
		return m.key(e)
	case ListLoaded:
		return m.listLoaded(e)
	case StatusLoaded:
		return m.statusLoaded(e)
	case Answered:
		return m.answered(e)
	case Jumped:
		if e.Err == nil {
			m.Quit = true // the person is at the pane now
		} else {
			m.say("jump failed: "+e.Err.Error(), true)
		}
	}
	return nil
}

func (m *Model) say(msg string, bad bool) { m.Msg, m.MsgBad = msg, bad }

func (m *Model) selected() *api.Attentive {
	if m.Sel < 0 || m.Sel >= len(m.Items) {
		return nil
	}
	return &m.Items[m.Sel]
}

func (m *Model) listLoaded(e ListLoaded) []any {
	if e.Err != nil {
		m.say("list: "+e.Err.Error(), true)
		return nil
	}
	var prevID string
	if it := m.selected(); it != nil {
		prevID = it.Terminal.TerminalID
	}
	m.Items = api.AttentionList(e.List.Terminals, e.Now)
	m.Loaded = true
	m.Degraded = e.List.Degraded
	m.Sel = 0
	for i, it := range m.Items {
		if it.Terminal.TerminalID == prevID {
			m.Sel = i
		}
	}
	it := m.selected()
	if it == nil {
		m.Detail = nil
		return nil
	}
	// A new selection, or the row changed under the detail: show it
	// again (a fresh Status, hence a fresh offer for what is shown).
	if m.Detail == nil || m.Detail.Status.Terminal.TerminalID != it.Terminal.TerminalID || rowChanged(m.Detail.Status.Terminal, it.Terminal) {
		return []any{LoadStatus{TerminalID: it.Terminal.TerminalID}}
	}
	return nil
}

func rowChanged(a, b api.Terminal) bool {
	if a.ScreenState != b.ScreenState || (a.Interaction == nil) != (b.Interaction == nil) {
		return true
	}
	return a.Interaction != nil && (a.Interaction.InteractionID != b.Interaction.InteractionID || a.Interaction.State != b.Interaction.State)
}

func (m *Model) statusLoaded(e StatusLoaded) []any {
	it := m.selected()
	if it == nil || it.Terminal.TerminalID != e.TerminalID {
		return nil // the person moved on meanwhile
	}
	if e.Err != nil {
		m.say("status: "+e.Err.Error(), true)
		return nil
	}
	m.show(e.Status)
	return nil
}

// show replaces the detail; the highlight and any typing start over when
// the interaction is another one.
func (m *Model) show(st api.StatusResponse) {
	if m.Detail == nil || !answer.SameShown(m.Detail.Status, st) {
		m.Opt, m.Typing, m.Text = 0, false, nil
	}
	m.Detail = NewDetail(st)
}

func (m *Model) answered(e Answered) []any {
	m.Busy = false
	if e.Changed != nil {
		m.say("The screen changed since it was shown: nothing was sent. This is the new state.", true)
		m.show(*e.Changed)
		return []any{LoadList{}}
	}
	msg, bad := answer.Say(e.Result, e.Err)
	if e.Err != nil {
		m.say(msg, bad)
		return nil
	}
	if e.Result.Outcome == api.OutcomeManual {
		msg = "Manual required: " + e.Result.Reason + " — press g to jump to the pane."
	}
	m.say(msg, bad)
	var out []any
	if it := m.selected(); it != nil {
		out = append(out, LoadStatus{TerminalID: it.Terminal.TerminalID})
	}
	return append(out, LoadList{})
}

func (m *Model) key(e *tcell.EventKey) []any {
	if m.Typing {
		return m.typingKey(e)
	}
	switch e.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlC:
		m.Quit = true
		return nil
	case tcell.KeyTab:
		return m.moveSel(1)
	case tcell.KeyBacktab:
		return m.moveSel(-1)
	case tcell.KeyUp:
		if m.hasChoices() {
			m.Opt = max(0, m.Opt-1)
			return nil
		}
		return m.moveSel(-1)
	case tcell.KeyDown:
		if m.hasChoices() {
			m.Opt = min(len(m.Detail.Choices)-1, m.Opt+1)
			return nil
		}
		return m.moveSel(1)
	case tcell.KeyEnter:
		if m.hasChoices() {
			return m.choose(m.Opt)
		}
		return m.jump()
	case tcell.KeyRune:
	default:
		return nil
	}
	switch r := e.Rune(); {
	case r == 'q':
		m.Quit = true
	case r == 'g':
		return m.jump()
	case r == 'r':
		return []any{LoadList{}}
	case r >= '1' && r <= '9':
		if i := int(r - '1'); m.hasChoices() && i < len(m.Detail.Choices) {
			m.Opt = i
			return m.choose(i)
		}
	}
	return nil
}

func (m *Model) hasChoices() bool { return m.Detail != nil && len(m.Detail.Choices) > 0 }

func (m *Model) moveSel(d int) []any {
	if len(m.Items) == 0 {
		return nil
	}
	m.Sel = (m.Sel + d + len(m.Items)) % len(m.Items)
	m.Detail, m.Opt, m.Typing, m.Text, m.Msg = nil, 0, false, nil, ""
	return []any{LoadStatus{TerminalID: m.Items[m.Sel].Terminal.TerminalID}}
}

func (m *Model) jump() []any {
	it := m.selected()
	if it == nil {
		return nil
	}
	return []any{Jump{Session: it.Terminal.Session, Pane: it.Terminal.PaneID}}
}

// choose answers choice i, or starts typing when it carries text.
func (m *Model) choose(i int) []any {
	if m.Busy {
		m.say("an answer is on its way…", false)
		return nil
	}
	c := m.Detail.Choices[i]
	if c.FreeText {
		m.Typing, m.Text = true, nil
		m.say("Type the answer, Enter to send, Esc to go back.", false)
		return nil
	}
	return m.send(c, "")
}

func (m *Model) typingKey(e *tcell.EventKey) []any {
	var erased bool
	if m.Text, erased = erase(m.Text, e.Key()); erased {
		return nil
	}
	switch e.Key() {
	case tcell.KeyEscape:
		m.Typing, m.Text, m.Msg = false, nil, ""
	case tcell.KeyEnter:
		if len(m.Text) == 0 {
			return nil
		}
		c := m.Detail.Choices[m.Opt]
		m.Typing = false
		return m.send(c, string(m.Text))
	case tcell.KeyRune:
		if c := m.Detail.Choices[m.Opt]; c.Question != nil && c.Question.MaxLength > 0 && len(m.Text) >= c.Question.MaxLength {
			m.say("the answer is at its length limit", true)
			return nil
		}
		if utf8.RuneLen(e.Rune()) > 0 && len(string(m.Text)) < api.MaxAnswerText {
			m.Text = append(m.Text, e.Rune())
		}
	}
	return nil
}

// erase is the editing both text fields share: Backspace drops the last
// rune typed, Ctrl-U all of them. It reports whether k was one of those.
func erase(text []rune, k tcell.Key) ([]rune, bool) {
	switch k {
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if len(text) > 0 {
			text = text[:len(text)-1]
		}
		return text, true
	case tcell.KeyCtrlU:
		return nil, true
	}
	return text, false
}

// send builds the request for choice c: approve by terminal_id for a
// permission, respond_interaction with the question's ids otherwise.
func (m *Model) send(c answer.Choice, text string) []any {
	a := Answer{Shown: m.Detail.Status}
	a.Approve, a.Respond = answer.Request(a.Shown, c, text)
	m.Busy = true
	m.say("Checking the screen, then sending…", false)
	return []any{a}
}
