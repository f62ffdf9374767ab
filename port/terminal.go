package port

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Terminal asks on a plain terminal: it prints the prompt and reads one
// line. One goroutine reads the input for the port's whole life and hands
// each line to the question waiting for it; a line typed while no question
// waits is dropped, so a stale keystroke never answers a later question.
//
// Without a terminal (tty false: stdin is a pipe or a file) it prints
// nothing and never answers, so another channel (the response file) is the
// only one that can (seed 004).
type Terminal struct {
	in  io.Reader
	out io.Writer
	tty bool

	turn  chan struct{} // cap 1: one question at a time on one terminal
	start sync.Once

	mu     sync.Mutex // guards waiter and closed
	waiter chan string
	closed error // the input ended: no question can be answered again
}

// NewTerminal returns a terminal port reading in and writing out; tty says
// whether they are a person's terminal.
func NewTerminal(in io.Reader, out io.Writer, tty bool) *Terminal {
	t := &Terminal{in: in, out: out, tty: tty, turn: make(chan struct{}, 1)}
	return t
}

// AskDecision prints p and reads the raw answer line.
func (t *Terminal) AskDecision(ctx context.Context, p Prompt) (string, error) {
	return t.ask(ctx, p, p.question())
}

// AskManualIntervention waits for Enter (or any line) once the person has
// done what p asks.
func (t *Terminal) AskManualIntervention(ctx context.Context, p Prompt) (string, error) {
	q := p.Question
	if q == "" {
		q = "Press Enter when you have done it"
	}
	return t.ask(ctx, p, q)
}

// AskText reads one line of free text, case kept.
func (t *Terminal) AskText(ctx context.Context, p Prompt) (string, error) {
	q := p.Question
	if q == "" {
		q = "Answer"
	}
	return t.ask(ctx, p, q)
}

// AskChoice prints the options numbered and reads the numbers (or the
// person's own words).
func (t *Terminal) AskChoice(ctx context.Context, p Prompt, c Choice) (string, error) {
	np := NumberedPrompt(p, c)
	return t.ask(ctx, np, np.Question)
}

// Notify prints msg on its own line (nothing without a terminal).
func (t *Terminal) Notify(msg string) {
	if t.tty {
		fmt.Fprintf(t.out, "akk: %s\n", msg)
	}
}

func (t *Terminal) ask(ctx context.Context, p Prompt, question string) (string, error) {
	if !t.tty {
		<-ctx.Done() // cannot ask: never answer, let another channel win
		return "", ctx.Err()
	}
	select {
	case t.turn <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-t.turn }()
	t.start.Do(func() { go t.readLines() })
	w := make(chan string, 1)
	t.mu.Lock()
	if t.closed != nil {
		err := t.closed
		t.mu.Unlock()
		return "", err
	}
	t.waiter = w
	t.mu.Unlock()
	t.print(p, question)
	select {
	case line, ok := <-w:
		if !ok {
			return "", t.closedErr()
		}
		return line, nil
	case <-ctx.Done():
		t.mu.Lock()
		if t.waiter == w {
			t.waiter = nil
		}
		t.mu.Unlock()
		// Leave the terminal usable: end the question's line and say why
		// it went away.
		fmt.Fprintln(t.out, "\n(answered elsewhere)")
		return "", ctx.Err()
	}
}

func (t *Terminal) print(p Prompt, question string) {
	var b strings.Builder
	if p.Title != "" {
		b.WriteString(p.Title + "\n")
	}
	for _, l := range p.Lines {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString(question + " ")
	io.WriteString(t.out, b.String())
}

func (t *Terminal) readLines() {
	sc := bufio.NewScanner(t.in)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		t.mu.Lock()
		if t.waiter != nil {
			t.waiter <- line
			t.waiter = nil
		}
		t.mu.Unlock()
	}
	t.mu.Lock()
	t.closed = fmt.Errorf("%w: the terminal's input ended", ErrCannotAsk)
	if sc.Err() != nil {
		t.closed = fmt.Errorf("%w: read the terminal: %w", ErrCannotAsk, sc.Err())
	}
	if t.waiter != nil {
		close(t.waiter)
		t.waiter = nil
	}
	t.mu.Unlock()
}

func (t *Terminal) closedErr() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}
