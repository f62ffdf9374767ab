package screen_test

import (
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// TestClaudeLightQuestionShapes: the light themes' question styles are
// recorded on a single-select question only (question-digit-theme-light),
// yet they would match the questionnaire's other shapes too. Each dark
// recording of such a shape, repainted in the light theme's colours, is
// read as a questionnaire but never actionable (unsupported_prompt_shape);
// the repainted single-select question reads as the light recording does,
// which proves the repainting, and offers every row but "Type something"
// (its editor is not recorded in the light theme).
func TestClaudeLightQuestionShapes(t *testing.T) {
	for _, v := range []string{"2.1.267", "2.1.332"} {
		light := screentest.Recognize(screentest.MarkerScreen(t, "claude", v, "question-digit-theme-light", 0), "claude", v)
		painted := screentest.Recognize(lightPaint(screentest.MarkerScreen(t, "claude", v, "question-digit", 0)), "claude", v)
		if !light.Actionable() || !painted.Actionable() {
			t.Fatalf("%s: question-digit not actionable: light %v %v, repainted %v %v", v,
				light.ScreenState, screentest.ReasonCodes(light), painted.ScreenState, screentest.ReasonCodes(painted))
		}
		if got, want := offered(painted), offered(light); !slices.Equal(got, want) || !slices.Equal(got, []int{0, 1, 2}) {
			t.Fatalf("%s: repainted question offers %v, the light recording %v, want [0 1 2]", v, got, want)
		}
		for _, c := range []struct {
			surface string
			marker  int
		}{
			{"several-questions", 0}, // tabs
			{"several-questions", 2}, // the review
			{"multi-select", 0},
			{"multi-select", 1},   // ticked (the tick keeps its dark colour)
			{"type-something", 1}, // the open editor
		} {
			dark := screentest.Recognize(screentest.MarkerScreen(t, "claude", v, c.surface, c.marker), "claude", v)
			if !dark.Actionable() {
				t.Fatalf("%s %s@%d: the dark source is not actionable: %v", v, c.surface, c.marker, screentest.ReasonCodes(dark))
			}
			r := screentest.Recognize(lightPaint(screentest.MarkerScreen(t, "claude", v, c.surface, c.marker)), "claude", v)
			if r.Actionable() || r.Interaction == nil || r.Interaction.State != contract.StateManualRequired {
				t.Errorf("%s %s@%d repainted light: %s actionable=%v %v", v, c.surface, c.marker, r.ScreenState, r.Actionable(), screentest.ReasonCodes(r))
			}
		}
	}
}

// offered lists the option indexes a recognition's plan answers.
func offered(r recognizers.Recognition) []int {
	var out []int
	if r.Plan == nil {
		return nil
	}
	for _, c := range r.Plan.Choices {
		out = append(out, c.Index)
	}
	return out
}

// lightPaint repaints a dark Claude screen in the light theme's colours as
// the light recordings show them: the chip fg 16 on 153 -> 231 on 105,
// the highlight 153 -> 105, greys 246 -> 241, the question 231 -> 16.
func lightPaint(s *vt.Screen) *vt.Screen {
	w, h := s.Size()
	fgs := map[tcell.Color]tcell.Color{tcell.PaletteColor(246): tcell.PaletteColor(241),
		tcell.PaletteColor(153): tcell.PaletteColor(105), tcell.PaletteColor(231): tcell.PaletteColor(16)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := s.Cell(x, y)
			if c.Width == 0 {
				continue
			}
			fg, bg, _ := c.Style.Decompose()
			switch {
			case bg == tcell.PaletteColor(153):
				c.Style.Style = c.Style.Style.Foreground(tcell.PaletteColor(231)).Background(tcell.PaletteColor(105))
			case fgs[fg] != 0:
				c.Style.Style = c.Style.Style.Foreground(fgs[fg])
			default:
				continue
			}
			s.SetCell(x, y, c)
		}
	}
	return s
}
