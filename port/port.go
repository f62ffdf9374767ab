package port

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// ErrCannotAsk is returned by a port that has no way to ask at all (its
// terminal is gone): the race treats it as a port that dropped out.
var ErrCannotAsk = errors.New("port: cannot ask")

// ErrNoAnswer is returned by First when every port dropped out.
var ErrNoAnswer = errors.New("port: no port can ask")

// Prompt is what a checkpoint shows (seed 004's ApprovalPrompt).
type Prompt struct {
	Title string
	Lines []string
	// Question is the line asked in a plain terminal; "" means the
	// default approve/reject question.
	Question string
	// Markdown: render Lines as markdown where the UI can (a plan).
	Markdown bool
	// Styled is Lines as terminal text with SGR styles (capture-pane -e
	// format), for a UI that draws cells: an agent's prompt shown with its
	// own colours. Lines stays the plain version every port can print.
	Styled string
}

// DefaultQuestion is asked when a Prompt names none.
const DefaultQuestion = "Approve? [y]es / [n]o"

func (p Prompt) question() string {
	if p.Question != "" {
		return p.Question
	}
	return DefaultQuestion
}

// Choice is the options of AskChoice.
type Choice struct {
	Options  []string
	Multiple bool
}

// Port asks a person. Every Ask blocks until the person answered (the raw
// answer), ctx ended (ctx.Err()), or the port cannot ask (an error; but a
// port that merely has nobody to show the question to blocks instead).
type Port interface {
	// AskDecision asks a step-gate or approval; the answer is raw ("y",
	// "n", "q", "").
	AskDecision(ctx context.Context, p Prompt) (string, error)
	// AskManualIntervention waits until the person says they intervened
	// by hand (logged in, answered in the pane).
	AskManualIntervention(ctx context.Context, p Prompt) (string, error)
	// Notify shows a one-way message; it never blocks on the person.
	Notify(msg string)
}

// TextAsker is a Port that can ask for free text (case kept).
type TextAsker interface {
	AskText(ctx context.Context, p Prompt) (string, error)
}

// ChoiceAsker is a Port that can ask a choice: the answer is the chosen
// numbers ("1", "1,3") and/or the person's own words on the next line.
type ChoiceAsker interface {
	AskChoice(ctx context.Context, p Prompt, c Choice) (string, error)
}

// AskText asks for free text through port, through its AskDecision when it
// has no AskText (a terminal reads a decision as text anyway).
func AskText(ctx context.Context, port Port, p Prompt) (string, error) {
	if t, ok := port.(TextAsker); ok {
		return t.AskText(ctx, p)
	}
	return port.AskDecision(ctx, p)
}

// AskChoice asks a choice through port, through its AskDecision with the
// options numbered in the lines when it has no AskChoice.
func AskChoice(ctx context.Context, port Port, p Prompt, c Choice) (string, error) {
	if a, ok := port.(ChoiceAsker); ok {
		return a.AskChoice(ctx, p, c)
	}
	return port.AskDecision(ctx, NumberedPrompt(p, c))
}

// NumberedPrompt is p with c's options numbered in its lines and a
// question saying how to answer.
func NumberedPrompt(p Prompt, c Choice) Prompt {
	q := p
	q.Lines = append(append([]string(nil), p.Lines...), numbered(c.Options)...)
	if q.Question == "" {
		q.Question = "Choose a number"
		if c.Multiple {
			q.Question = "Choose numbers, separated by commas"
		}
	}
	return q
}

func numbered(opts []string) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = strconv.Itoa(i+1) + ". " + o
	}
	return out
}

// Decision normalises a decision's raw answer (seed 004: the kit
// lowercases and trims it). Text and choice answers keep their case.
func Decision(raw string) string { return strings.ToLower(strings.TrimSpace(raw)) }
