package recognizers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
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
		sh   shot
		want string
	}{
		{shot{"claude", "2.1.267", "model-menu", 2, 0}, "models " + hl(c267, 1) + " | effort High (d) s"},
		{shot{"claude", "2.1.267", "model-menu", 3, 0}, "models " + hl(c267, 3) + " | effort High (d) s"},
		{shot{"claude", "2.1.267", "model-menu", 4, 0}, "models " + hl(c267, 3) + " | effort Medium s"},
		{shot{"claude", "2.1.267", "model-menu", 5, 0}, `confirm for "Sonnet 5" |*1 Yes, switch to Sonnet 5 |2 No, go back`},
		{shot{"claude", "2.1.332", "model-menu", 2, 0}, "models " + hl(c332, 1) + " | effort Medium (d) s"},
		{shot{"claude", "2.1.332", "model-menu", 4, 0}, "models " + hl(c332, 4) + " | effort High s"},
		{shot{"claude", "2.1.332", "model-menu", 5, 0}, `confirm for "Sonnet 5.5" |*1 Yes, switch to Sonnet 5.5 |2 No, go back`},
		{shot{"codex", "0.155.1", "model-menu", 2, 0}, "models " + hl(x155, 5)},
		{shot{"codex", "0.155.1", "model-menu", 3, 0}, "models " + hl(x155, 4)},
		{shot{"codex", "0.155.1", "model-menu", 4, 0}, `efforts for "gpt-5.6-luna" |1 Low |*2 Medium (d) |3 High |4 Extra high |5 More reasoning…`},
		{shot{"codex", "0.155.1", "model-menu", 5, 0}, `efforts for "gpt-5.6-luna" |1 Low |2 Medium (d) |*3 High |4 Extra high |5 More reasoning…`},
		{shot{"codex", "0.171.0", "model-menu", 2, 0}, "models " + hl(x171, 6) + " ↓"},
		{shot{"codex", "0.171.0", "model-menu", 3, 0}, "models " + hl(x171, 5) + " ↓"},
		{shot{"codex", "0.171.0", "model-menu-session", 3, 0}, `efforts for "GPT-6-Astra" |1 Low (d) |*2 Medium |3 High |4 Extra high |5 More reasoning… s`},
		// Scrolled: "↑" in the last blank row under the title, the rows
		// past the ninth unnumbered (model-catalog).
		{shot{"codex", "0.171.0", "model-catalog", 30, 0}, "models |3 GPT-6.1 Terra |4 GPT-6.1-Sol |5 GPT-6-Astra |6 GPT-6-Sol ✔ |7 GPT-6-Luna |8 GPT-5.6-Sol |9 GPT-5.6-Terra |*0 GPT-5.6-Luna ↑ ↓"},
		{shot{"codex", "0.171.0", "model-catalog", 33, 0}, "models |4 GPT-6.1-Sol |5 GPT-6-Astra |6 GPT-6-Sol ✔ |7 GPT-6-Luna |8 GPT-5.6-Sol |9 GPT-5.6-Terra |0 GPT-5.6-Luna |*0 GPT-5.5 ↑"},
		{shot{"codex", "0.171.0", "model-catalog", 34, 0}, `efforts for "GPT-5.5" |1 Low |*2 Medium (d) |3 High |4 Extra high s`},
	} {
		r := recognize(c.sh.screen(t), c.sh.agent, c.sh.version)
		if got := menuSummary(r.ModelMenu); got != c.want || r.ScreenState != contract.ScreenMenuOrViewer || r.Interaction != nil || r.Plan != nil {
			t.Errorf("%s: %s %s\n want menu_or_viewer %s", c.sh, r.ScreenState, got, c.want)
		}
		other := map[string]string{"2.1.267": "2.1.332", "2.1.332": "2.1.267", "0.155.1": "0.171.0", "0.171.0": "0.155.1"}[c.sh.version]
		if r := recognize(c.sh.screen(t), c.sh.agent, other); r.ModelMenu != nil {
			t.Errorf("%s read by %s: %s", c.sh, other, menuSummary(r.ModelMenu))
		}
	}
}

// TestModelMenuShapes: a menu changed anywhere a profile proves gives no
// menu (a person's Enter there might do something else).
func TestModelMenuShapes(t *testing.T) {
	for _, c := range []struct {
		sh    shot
		cases []pickerCase
	}{
		{shot{"claude", "2.1.267", "model-menu", 3, 0}, []pickerCase{
			{"rule blank", blanked(26)}, {"title changed", written(3, 27, "s")}, {"title unstyled", restyled(27, vt.Style{})},
			{"two highlighted", written(3, 31, "❯")}, {"number changed", written(5, 34, "7")},
			{"effort unknown", written(5, 37, "Ultra  effort")}, {"effort blank", blanked(37)},
			{"hints changed", written(3, 39, "X")}, {"label restyled", restyled(33, vt.Style{})},
			{"a row between", written(5, 36, "x")},
		}},
		{shot{"claude", "2.1.267", "model-menu", 5, 0}, []pickerCase{
			{"yes changed", written(8, 37, "No ")}, {"no changed", written(8, 38, "Go")},
			{"title changed", written(3, 31, "s")}, {"rule blank", blanked(30)},
		}},
		{shot{"codex", "0.155.1", "model-menu", 3, 0}, []pickerCase{
			{"title changed", written(2, 18, "s")}, {"subtitle blank", blanked(19)},
			{"two highlighted", written(0, 22, "›")}, {"number gone", written(2, 23, "  ")},
			{"hints changed", written(2, 27, "X")}, {"row restyled", restyled(24, vt.Style{})},
			{"description moved", written(26, 22, "xx")},
		}},
		{shot{"codex", "0.171.0", "model-menu", 2, 0}, []pickerCase{
			{"scroll mark restyled", restyled(38, vt.Style{})}, {"hints changed", written(2, 39, "x")},
			{"highlight restyled", restyled(35, vt.Style{})}, {"title blank", blanked(27)},
		}},
	} {
		for _, m := range c.cases {
			if r := recognize(m.mut(c.sh.screen(t)), c.sh.agent, c.sh.version); r.ModelMenu != nil {
				t.Errorf("%s, %s: %s, want none", c.sh, m.name, menuSummary(r.ModelMenu))
			}
		}
	}
}

// TestModelNotice: the row /model leaves over the composer is read where
// recorded, and only there.
func TestModelNotice(t *testing.T) {
	for _, c := range []struct {
		sh   shot
		want string
	}{
		{shot{"claude", "2.1.267", "model-menu", 6, 0}, "Set model to Sonnet 5 and saved as your default for new sessions with medium effort"},
		{shot{"claude", "2.1.332", "model-menu", 6, 0}, "Set model to Sonnet 5.5 and saved as your default for new sessions with high effort"},
		{shot{"claude", "2.1.267", "model-menu", 0, 0}, ""},
		{shot{"claude", "2.1.267", "model-abandon", 3, 0}, "Kept model as Opus 5 (1M context) (default)"},
		{shot{"codex", "0.155.1", "model-menu", 6, 0}, "Model changed to gpt-5.6-luna high"},
		{shot{"codex", "0.155.1", "model-menu", 7, 0}, ""},
		{shot{"codex", "0.171.0", "model-menu-session", 4, 0}, "Model changed to gpt-6-astra medium for this session only"},
	} {
		r := recognize(c.sh.screen(t), c.sh.agent, c.sh.version)
		if r.ModelNotice != c.want || r.ScreenState != contract.ScreenIdle {
			t.Errorf("%s: %s notice %q, want idle %q", c.sh, r.ScreenState, r.ModelNotice, c.want)
		}
	}
}

func itoa(n int) string { return fmt.Sprint(n) }
