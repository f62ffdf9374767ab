package recognizers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// menuSummary is a model menu in one line: its kind, what it is for, the
// rows ("*" the highlighted, "✔" current, "(d)" default), the effort and
// the scroll marks.
func menuSummary(m *recognizers.ModelMenu) string {
	if m == nil {
		return "none"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s", m.Kind)
	if m.For != "" {
		fmt.Fprintf(&b, " for %q", m.For)
	}
	for i, r := range m.Rows {
		b.WriteString(" |")
		if i == m.Highlight {
			b.WriteString("*")
		}
		fmt.Fprintf(&b, "%d %s", r.Number, r.Label)
		if r.Current {
			b.WriteString(" ✔")
		}
		if r.Default {
			b.WriteString(" (d)")
		}
	}
	if m.Effort != "" {
		fmt.Fprintf(&b, " | effort %s", m.Effort)
		if m.EffortDefault {
			b.WriteString(" (d)")
		}
	}
	if m.Above {
		b.WriteString(" ↑")
	}
	if m.Below {
		b.WriteString(" ↓")
	}
	if m.Session {
		b.WriteString(" s")
	}
	return b.String()
}

// TestModelMenus: the /model menus read as recorded, row by row, with
// what each highlights; each version's only by its own profile.
func TestModelMenus(t *testing.T) {
	const (
		c267 = "|1 Default (recommended) ✔ |2 Opus (1M context) |3 Sonnet |4 Sonnet 5 (1M context) |5 Haiku"
		c332 = "|1 Default (recommended) ✔ |2 Opus |3 Fable |4 Sonnet |5 Haiku"
		x155 = "|1 gpt-6-astra (d) |2 gpt-5.6-sol |3 gpt-5.6-terra |4 gpt-5.6-luna |5 gpt-5.5 ✔"
		x171 = "|1 GPT-6.2-Sol |2 GPT-6.2-Astra |3 GPT-6.1 Terra |4 GPT-6.1-Sol |5 GPT-6-Astra |6 GPT-6-Sol ✔ |7 GPT-6-Luna |8 GPT-5.6-Sol"
	)
	hl := func(rows string, n int) string { return strings.Replace(rows, "|"+itoa(n)+" ", "|*"+itoa(n)+" ", 1) }
	for _, c := range []struct {
		sh   screentest.Shot
		want string
	}{
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-menu", Marker: 2}, "models " + hl(c267, 1) + " | effort High (d) s"},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-menu", Marker: 3}, "models " + hl(c267, 3) + " | effort High (d) s"},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-menu", Marker: 4}, "models " + hl(c267, 3) + " | effort Medium s"},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-menu", Marker: 5}, `confirm for "Sonnet 5" |*1 Yes, switch to Sonnet 5 |2 No, go back`},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "model-menu", Marker: 2}, "models " + hl(c332, 1) + " | effort Medium (d) s"},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "model-menu", Marker: 4}, "models " + hl(c332, 4) + " | effort High s"},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "model-menu", Marker: 5}, `confirm for "Sonnet 5.5" |*1 Yes, switch to Sonnet 5.5 |2 No, go back`},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "model-menu", Marker: 2}, "models " + hl(x155, 5)},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "model-menu", Marker: 3}, "models " + hl(x155, 4)},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "model-menu", Marker: 4}, `efforts for "gpt-5.6-luna" |1 Low |*2 Medium (d) |3 High |4 Extra high |5 More reasoning…`},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "model-menu", Marker: 5}, `efforts for "gpt-5.6-luna" |1 Low |2 Medium (d) |*3 High |4 Extra high |5 More reasoning…`},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "model-menu", Marker: 2}, "models " + hl(x171, 6) + " ↓"},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "model-menu", Marker: 3}, "models " + hl(x171, 5) + " ↓"},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "model-menu-session", Marker: 3}, `efforts for "GPT-6-Astra" |1 Low (d) |*2 Medium |3 High |4 Extra high |5 More reasoning… s`},
		// Scrolled: "↑" in the last blank row under the title, the rows
		// past the ninth unnumbered (model-catalog).
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "model-catalog", Marker: 30}, "models |3 GPT-6.1 Terra |4 GPT-6.1-Sol |5 GPT-6-Astra |6 GPT-6-Sol ✔ |7 GPT-6-Luna |8 GPT-5.6-Sol |9 GPT-5.6-Terra |*0 GPT-5.6-Luna ↑ ↓"},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "model-catalog", Marker: 33}, "models |4 GPT-6.1-Sol |5 GPT-6-Astra |6 GPT-6-Sol ✔ |7 GPT-6-Luna |8 GPT-5.6-Sol |9 GPT-5.6-Terra |0 GPT-5.6-Luna |*0 GPT-5.5 ↑"},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "model-catalog", Marker: 34}, `efforts for "GPT-5.5" |1 Low |*2 Medium (d) |3 High |4 Extra high s`},
	} {
		r := screentest.Recognize(c.sh.Screen(t), c.sh.Agent, c.sh.Version)
		if got := menuSummary(r.ModelMenu); got != c.want || r.ScreenState != contract.ScreenMenuOrViewer || r.Interaction != nil || r.Plan != nil {
			t.Errorf("%s: %s %s\n want menu_or_viewer %s", c.sh, r.ScreenState, got, c.want)
		}
		other := map[string]string{"2.1.267": "2.1.332", "2.1.332": "2.1.267", "0.155.1": "0.171.0", "0.171.0": "0.155.1"}[c.sh.Version]
		if r := screentest.Recognize(c.sh.Screen(t), c.sh.Agent, other); r.ModelMenu != nil {
			t.Errorf("%s read by %s: %s", c.sh, other, menuSummary(r.ModelMenu))
		}
	}
}

// TestModelMenuShapes: a menu changed anywhere a profile proves gives no
// menu (a person's Enter there might do something else).
func TestModelMenuShapes(t *testing.T) {
	for _, c := range []struct {
		sh    screentest.Shot
		cases []screentest.Change
	}{
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-menu", Marker: 3}, []screentest.Change{
			{Name: "rule blank", Mut: screentest.Blanked(26)}, {Name: "title changed", Mut: screentest.Written(3, 27, "s")}, {Name: "title unstyled", Mut: screentest.Restyled(27, vt.Style{})},
			{Name: "two highlighted", Mut: screentest.Written(3, 31, "❯")}, {Name: "number changed", Mut: screentest.Written(5, 34, "7")},
			{Name: "effort unknown", Mut: screentest.Written(5, 37, "Ultra  effort")}, {Name: "effort blank", Mut: screentest.Blanked(37)},
			{Name: "hints changed", Mut: screentest.Written(3, 39, "X")}, {Name: "label restyled", Mut: screentest.Restyled(33, vt.Style{})},
			{Name: "a row between", Mut: screentest.Written(5, 36, "x")},
		}},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-menu", Marker: 5}, []screentest.Change{
			{Name: "yes changed", Mut: screentest.Written(8, 37, "No ")}, {Name: "no changed", Mut: screentest.Written(8, 38, "Go")},
			{Name: "title changed", Mut: screentest.Written(3, 31, "s")}, {Name: "rule blank", Mut: screentest.Blanked(30)},
		}},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "model-menu", Marker: 3}, []screentest.Change{
			{Name: "title changed", Mut: screentest.Written(2, 18, "s")}, {Name: "subtitle blank", Mut: screentest.Blanked(19)},
			{Name: "two highlighted", Mut: screentest.Written(0, 22, "›")}, {Name: "number gone", Mut: screentest.Written(2, 23, "  ")},
			{Name: "hints changed", Mut: screentest.Written(2, 27, "X")}, {Name: "row restyled", Mut: screentest.Restyled(24, vt.Style{})},
			{Name: "description moved", Mut: screentest.Written(26, 22, "xx")},
		}},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "model-menu", Marker: 2}, []screentest.Change{
			{Name: "scroll mark restyled", Mut: screentest.Restyled(38, vt.Style{})}, {Name: "hints changed", Mut: screentest.Written(2, 39, "x")},
			{Name: "highlight restyled", Mut: screentest.Restyled(35, vt.Style{})}, {Name: "title blank", Mut: screentest.Blanked(27)},
		}},
	} {
		for _, m := range c.cases {
			if r := screentest.Recognize(m.Mut(c.sh.Screen(t)), c.sh.Agent, c.sh.Version); r.ModelMenu != nil {
				t.Errorf("%s, %s: %s, want none", c.sh, m.Name, menuSummary(r.ModelMenu))
			}
		}
	}
}

// TestModelNotice: the row /model leaves over the composer is read where
// recorded, and only there.
func TestModelNotice(t *testing.T) {
	for _, c := range []struct {
		sh   screentest.Shot
		want string
	}{
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-menu", Marker: 6}, "Set model to Sonnet 5 and saved as your default for new sessions with medium effort"},
		{screentest.Shot{Agent: "claude", Version: "2.1.332", Surface: "model-menu", Marker: 6}, "Set model to Sonnet 5.5 and saved as your default for new sessions with high effort"},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-menu", Marker: 0}, ""},
		{screentest.Shot{Agent: "claude", Version: "2.1.267", Surface: "model-abandon", Marker: 3}, "Kept model as Opus 5 (1M context) (default)"},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "model-menu", Marker: 6}, "Model changed to gpt-5.6-luna high"},
		{screentest.Shot{Agent: "codex", Version: "0.155.1", Surface: "model-menu", Marker: 7}, ""},
		{screentest.Shot{Agent: "codex", Version: "0.171.0", Surface: "model-menu-session", Marker: 4}, "Model changed to gpt-6-astra medium for this session only"},
	} {
		r := screentest.Recognize(c.sh.Screen(t), c.sh.Agent, c.sh.Version)
		if r.ModelNotice != c.want || r.ScreenState != contract.ScreenIdle {
			t.Errorf("%s: %s notice %q, want idle %q", c.sh, r.ScreenState, r.ModelNotice, c.want)
		}
	}
}

func itoa(n int) string { return fmt.Sprint(n) }
