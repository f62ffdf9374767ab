package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// app is the agent's state: its composer, its history and the permission
// it asks, if any.
type app struct {
	j     *journal
	w, h  int
	draft []rune
	lines []line // the history, oldest first
	turns int    // turns started so far
	turn  string // the running turn ("" when idle)
	// asking: the command waiting for permission, its call and the
	// highlighted row (0: Yes, 1: No).
	asking string
	call   string
	lit    int
}

// line is one row: text in its style, then rest in the terminal's own.
type line struct {
	style string
	text  string
	rest  string
}

// The styles it draws with: 256-colour SGR, so a screen grammar names
// each one exactly.
const (
	sgrReset    = "\x1b[0m"
	sgrHeader   = "\x1b[1;38;5;214m" // "Parrot v1.0.0"
	sgrYou      = "\x1b[38;5;245m"   // a prompt in the history
	sgrRan      = "\x1b[38;5;114m"   // a command it "ran"
	sgrDeclined = "\x1b[38;5;174m"   // a command declined
	sgrRule     = "\x1b[38;5;240m"   // the rule over the composer
	sgrGlyph    = "\x1b[1;38;5;114m" // "parrot> "
	sgrHint     = "\x1b[38;5;244m"   // the footer, "Esc to cancel"
	sgrAskRule  = "\x1b[38;5;214m"   // the rule over the dialog
	sgrAsk      = "\x1b[1;38;5;214m" // "Parrot wants to run:"
	sgrLit      = "\x1b[1;38;5;114m" // the highlighted option row
)

// The texts its screen grammar anchors on.
const (
	header  = "Parrot v" + version
	glyph   = "parrot> "
	footer  = "enter to send · ctrl+d to quit"
	askText = "Parrot wants to run:"
	cancel  = "Esc to cancel"
)

// keys handles one chunk of input; false ends the program.
func (a *app) keys(b []byte) bool {
	for len(b) > 0 {
		switch {
		case b[0] == 0x03 || b[0] == 0x04: // ctrl+c, ctrl+d
			return false
		case b[0] == 0x1b && len(b) > 1 && (b[1] == '[' || b[1] == 'O'):
			n := 2
			for n < len(b) && (b[n] < 0x40 || b[n] > 0x7e) {
				n++
			}
			a.sequence(string(b[:min(n+1, len(b))]))
			b = b[min(n+1, len(b)):]
			continue
		case b[0] == 0x1b:
			a.escape()
		default:
			r, n := utf8.DecodeRune(b)
			a.key(r)
			b = b[n:]
			continue
		}
		b = b[1:]
	}
	return true
}

// key is one key other than Esc and the escape sequences.
func (a *app) key(r rune) {
	switch {
	case a.asking != "":
		switch r {
		case '1':
			a.decide(0)
		case '2':
			a.decide(1)
		case '\r', '\n':
			a.decide(a.lit)
		}
	case r == '\r' || r == '\n':
		a.submit()
	case r == 0x7f || r == 0x08:
		if len(a.draft) > 0 {
			a.draft = a.draft[:len(a.draft)-1]
		}
	case r == 0x15: // ctrl+u
		a.draft = nil
	case r >= 0x20 && r != utf8.RuneError:
		a.draft = append(a.draft, r)
	}
}

// escape is Esc alone: it declines a permission, as "2. No" does.
func (a *app) escape() {
	if a.asking != "" {
		a.decide(2)
	}
}

// sequence is an escape sequence: Up and Down move the dialog's
// highlight; the rest is ignored.
func (a *app) sequence(seq string) {
	if a.asking == "" {
		return
	}
	switch seq[len(seq)-1] {
	case 'A':
		a.lit = 0
	case 'B':
		a.lit = 1
	}
}

// submit takes the draft as a prompt: echoed back, or a command to ask
// permission for.
func (a *app) submit() {
	text := strings.TrimSpace(string(a.draft))
	a.draft = nil
	if text == "" {
		return
	}
	a.turns++
	a.turn = "turn-" + strconv.Itoa(a.turns)
	a.j.write(record{Type: "prompt", Turn: a.turn, Text: &text})
	a.add(sgrYou, "› "+text)
	if cmd, ok := strings.CutPrefix(text, "run "); ok && strings.TrimSpace(cmd) != "" {
		a.asking, a.call, a.lit = strings.TrimSpace(cmd), "call-"+strconv.Itoa(a.turns), 0
		a.j.write(record{Type: "tool_call", Turn: a.turn, Call: a.call, Name: "run", Input: map[string]string{"command": a.asking}})
		return
	}
	a.reply(text)
	a.end("completed")
}

// decide answers the permission: 0 yes, 1 no, 2 Esc.
func (a *app) decide(choice int) {
	cmd := a.asking
	a.asking = ""
	decision := [...]string{"yes", "no", "cancel"}[choice]
	a.j.write(record{Type: "tool_result", Turn: a.turn, Call: a.call, Name: "run", Decision: decision})
	if choice != 0 {
		a.add(sgrDeclined, "● Declined: "+cmd)
		a.end("declined")
		return
	}
	a.add(sgrRan, "● Ran: "+cmd+" (nothing was run)")
	a.reply("Ran: " + cmd)
	a.end("completed")
}

func (a *app) reply(text string) {
	a.j.write(record{Type: "reply", Turn: a.turn, Text: &text})
	a.add("", text)
}

func (a *app) end(outcome string) {
	a.j.write(record{Type: "turn_end", Turn: a.turn, Outcome: outcome})
	a.turn = ""
}

func (a *app) add(style, text string) { a.lines = append(a.lines, line{style: style, text: text}) }
