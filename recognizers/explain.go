package recognizers

import (
	"fmt"
	"io"
	"strings"

	"github.com/agent-knock-knock/akk/vt"
)

// Explanation is what `akk recognize --explain` shows: for every profile
// tried (the exact one, then the agent's generic reading with each of its
// grammars), every check in evaluation order, and the recognition the
// daemon would make.
type Explanation struct {
	Sections    []Section
	Recognition Recognition
}

// Explain recognizes scr with p and with the generic profile of p's
// agent, tracing both.
func Explain(p Profile, scr *vt.Screen, key Key) Explanation {
	var ex Explanation
	run := func(p Profile, name string) Recognition {
		g := new(Grid)
		g.load(scr, true)
		g.trace = &tracer{}
		if name != "" {
			g.trace.begin(name)
		}
		r := recognizeGrid(p, g, scr, key, nil)
		ex.Sections = append(ex.Sections, g.trace.sections...)
		return r
	}
	if p.Exact {
		ex.Recognition = run(p, p.ID()+" (exact)")
	}
	generic := Lookup(p.Agent, "")
	if generic.grammar != nil {
		r := run(generic, "")
		if !p.Exact {
			ex.Recognition = r
		}
	}
	return ex
}

// grammarName is the version a grammar is registered for.
func grammarName(gr Grammar) string {
	for id, p := range registry {
		if p.grammar == gr {
			return id
		}
	}
	return "?"
}

// Write prints the explanation for a person: screen text included (the
// first differing cell of each failed check).
func (ex *Explanation) Write(w io.Writer) {
	for _, s := range ex.Sections {
		fmt.Fprintf(w, "profile %s\n", s.Profile)
		for _, st := range s.Steps {
			fmt.Fprintf(w, "  %s\n", st.Line(true))
		}
	}
	r := &ex.Recognition
	fmt.Fprintf(w, "result %s: %s, composer %s", r.Profile, r.ScreenState, r.Composer)
	for _, rs := range r.Reasons {
		fmt.Fprintf(w, ", %s", rs)
	}
	fmt.Fprintln(w)
}

// Line is a step on one line, indented by its depth; with cells false it
// has no screen text (what a check expected is the profile's, what it
// got is the screen's).
func (st TraceStep) Line(cells bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s", strings.Repeat("  ", st.Depth), st.Rule)
	if st.Checks == 0 {
		return b.String()
	}
	for b.Len() < 34 {
		b.WriteByte(' ')
	}
	rows := fmt.Sprintf("row %d", st.Row)
	if st.Rows != st.Row {
		rows = fmt.Sprintf("rows %d-%d", st.Row, st.Rows)
	}
	verdict := "pass"
	if !st.Pass {
		verdict = "fail"
	}
	fmt.Fprintf(&b, " %-11s %s", rows, verdict)
	if st.Calls > 1 {
		fmt.Fprintf(&b, " x%d", st.Calls)
	}
	if d := st.Diff; d != nil {
		fmt.Fprintf(&b, " (%s at col %d", st.Kind, d.Col)
		if cells {
			fmt.Fprintf(&b, ": expected %q, got %q", d.Expected, d.Got)
		}
		b.WriteByte(')')
	}
	return b.String()
}
