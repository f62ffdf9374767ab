package recognizers

import (
	"fmt"
	"strings"

	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// A trace records the checks a profile made of a screen, in order: which
// rule (the profile's function that asked), which check of which row, and
// for a failed one the first cell that differs. It exists for
// `akk recognize --explain` only: a grid traces when it has a tracer, and
// a recognition for the daemon never has one.

// TraceStep is one rule's evaluation in a trace: a call of a profile
// function, nested under the rule that called it, with the checks it made
// of the screen itself. Consecutive failed calls of the same rule (a scan
// over rows) are one step.
type TraceStep struct {
	Rule  string // the profile's function, e.g. "claude21.permission"
	Depth int    // nesting under the profile's entry rule
	// Row and Rows are the first and last rows its checks examined (Rows
	// may be above Row: scans run upward).
	Row, Rows int
	Calls     int // calls merged into this step (a scan)
	Checks    int // checks it made itself; 0 for a rule that only calls others
	// Pass is the verdict of its last check; Kind is that check (hasAt,
	// rowIs, styled, rule) and Diff, for a failed one, its first
	// differing cell.
	Pass bool
	Kind string
	Diff *CellDiff
}

// CellDiff is where a failed check first differs: the column, what the
// profile expected there and what the screen has. Its texts are screen
// text: local renderings only (DESIGN.md invariant 8).
type CellDiff struct {
	Col      int
	Expected string
	Got      string
}

// Section is the trace of one profile (a generic profile's grammars each
// have their own).
type Section struct {
	Profile string
	Steps   []TraceStep
}

type tracer struct {
	sections []Section
	open     []int // indexes of the steps being evaluated, outermost first
}

func (t *tracer) begin(profile string) {
	t.sections = append(t.sections, Section{Profile: profile})
	t.open = t.open[:0]
}

func (t *tracer) section() *Section {
	if len(t.sections) == 0 {
		t.begin("")
	}
	return &t.sections[len(t.sections)-1]
}

func (t *tracer) push(rule string) {
	s := t.section()
	s.Steps = append(s.Steps, TraceStep{Rule: rule, Depth: len(t.open), Row: -1, Rows: -1, Calls: 1, Pass: true})
	t.open = append(t.open, len(s.Steps)-1)
}

// pop closes the innermost step, merging it into the previous sibling
// when both are failed calls of the same rule (its own nested steps are
// then dropped: the scan's first call shows them).
func (t *tracer) pop() {
	if len(t.open) == 0 {
		return
	}
	s := t.section()
	i := t.open[len(t.open)-1]
	t.open = t.open[:len(t.open)-1]
	cur := s.Steps[i]
	if cur.Checks == 0 && i == len(s.Steps)-1 {
		s.Steps = s.Steps[:i] // a rule that checked nothing on the screen
		return
	}
	prev := i - 1
	for prev >= 0 && s.Steps[prev].Depth > cur.Depth {
		prev--
	}
	if prev < 0 || s.Steps[prev].Depth != cur.Depth || s.Steps[prev].Rule != cur.Rule ||
		s.Steps[prev].Pass || cur.Pass || cur.Checks == 0 || s.Steps[prev].Checks == 0 {
		return
	}
	p := &s.Steps[prev]
	p.Calls++
	p.Checks += cur.Checks
	if cur.Row >= 0 {
		p.Rows = cur.Rows
	}
	s.Steps = s.Steps[:i]
}

// add records a check of the innermost step.
func (t *tracer) add(kind string, y int, ok bool, diff *CellDiff) {
	s := t.section()
	if len(t.open) == 0 {
		t.push("?")
		defer t.pop()
	}
	st := &s.Steps[t.open[len(t.open)-1]]
	if st.Row < 0 {
		st.Row = y
	}
	st.Rows = y
	st.Checks++
	st.Pass, st.Kind, st.Diff = ok, kind, diff
}

// Enter opens the step of a rule until the returned func closes it:
// `defer g.enter("claude21.permission")()`.
func (g *Grid) Enter(rule string) func() {
	if g.trace == nil {
		return noTrace
	}
	g.trace.push(rule)
	return g.trace.pop
}

func noTrace() {}

// styleName describes a style for a person: colours as 256-colour
// numbers where they are ones, else #rrggbb, then attributes.
func styleName(s vt.Style) string {
	fg, bg, attrs := s.Style.Decompose()
	var parts []string
	if fg != tcell.ColorDefault {
		parts = append(parts, "fg "+colorName(fg))
	}
	if bg != tcell.ColorDefault {
		parts = append(parts, "bg "+colorName(bg))
	}
	for _, a := range []struct {
		m    tcell.AttrMask
		name string
	}{{tcell.AttrBold, "bold"}, {tcell.AttrDim, "dim"}, {tcell.AttrItalic, "italic"}, {tcell.AttrReverse, "reverse"},
		{tcell.AttrBlink, "blink"}, {tcell.AttrStrikeThrough, "strike"}} {
		if attrs&a.m != 0 {
			parts = append(parts, a.name)
		}
	}
	if s.Style.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		parts = append(parts, "underline")
	}
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, " ")
}

func colorName(c tcell.Color) string {
	if c&tcell.ColorIsRGB == 0 && c&tcell.ColorValid != 0 {
		return fmt.Sprint(int(c - tcell.ColorValid))
	}
	return fmt.Sprintf("#%06x", c.Hex())
}
