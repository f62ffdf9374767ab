package recognizers_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// The adversarial suite mutates real screens of the corpus. Every case
// first proves its unmutated source IS actionable with the expected
// decisions or options (a recognizer that never acts fails here), then
// that the mutation leaves no actionable interaction and names why.

// source is an actionable screen of the corpus.
type source struct {
	name     string
	surface  string
	marker   int
	kind     contract.Kind
	expect   []string // decisions, or option labels offered
	versions []string // where the surface is recorded with this shape
}

var (
	claudeVersions = []string{"2.1.263", "2.1.266", "2.1.267", "2.1.332"}
	codexVersions  = []string{"0.153.4", "0.154.0", "0.155.1", "0.171.0"}
)

var claudeSources = []source{
	{"permission", "permission-approve", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeVersions},
	{"question", "question-digit", 0, contract.KindQuestionnaire, []string{"Red", "Green", "Blue", "Type something."}, claudeVersions},
	{"second-of-two", "several-questions", 1, contract.KindQuestionnaire, []string{"Postgres", "SQLite", "Type something."}, claudeVersions},
	{"editor", "type-something", 1, contract.KindQuestionnaire, []string{"Red", "Green", "Blue", "Type something."}, claudeVersions},
	{"review", "several-questions", 2, contract.KindConfirmation, []string{"Submit answers", "Cancel"}, []string{"2.1.263", "2.1.266", "2.1.267"}},
	{"multi-select", "multi-select", 0, contract.KindQuestionnaire, []string{"Cheese", "Mushrooms", "Olives"}, claudeVersions},
	{"multi-select-ticked", "multi-select", 1, contract.KindQuestionnaire, []string{"Cheese", "Mushrooms", "Olives"}, claudeVersions},
	{"bash-wrapped-80", "bash-long-80", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"edit", "edit-approve", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"write-create", "write-create-approve", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"write-overwrite", "write-overwrite-approve", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"notebook-edit", "notebook-edit-approve", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"web-fetch", "webfetch-approve", 0, contract.KindPermission, []string{"approve_once"}, claudeToolVersions},
	{"mcp-tool", "mcp-tool-approve", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"read-outside", "read-outside", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"plan", "plan-approve", 0, contract.KindPermission, []string{"approve_once"}, claudeToolVersions},
	{"permission-light", "permission-approve-theme-light", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"permission-light-ansi", "permission-approve-theme-light-ansi", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"permission-w60", "permission-approve-w60", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"permission-w80", "permission-approve-w80", 0, contract.KindPermission, []string{"approve_once", "reject"}, claudeToolVersions},
	{"question-light", "question-digit-theme-light", 0, contract.KindQuestionnaire, []string{"Red", "Green", "Blue", "Type something."}, claudeToolVersions},
	{"question-light-ansi", "question-digit-theme-light-ansi", 0, contract.KindQuestionnaire, []string{"Red", "Green", "Blue", "Type something."}, claudeToolVersions},
}

// claudeToolVersions record the dialogs of the tools besides Bash (and
// plan mode's; "Exit plan mode?" is never actionable: no source).
var claudeToolVersions = []string{"2.1.267", "2.1.332"}

var codexSources = []source{
	{"permission", "permission-approve", 0, contract.KindPermission, []string{"approve_once"}, codexVersions},
	{"question", "question-digit", 0, contract.KindQuestionnaire, []string{"Red (Recommended)", "Green", "Blue", "None of the above", "None of the above, with notes"}, codexVersions},
	{"notes", "question-notes", 2, contract.KindFreeText, nil, codexVersions},
	{"unanswered", "question-unanswered", 0, contract.KindConfirmation, []string{"Proceed", "Go back"}, codexVersions},
	{"submit-all", "question-submit-all", 4, contract.KindQuestionnaire, []string{"Small", "Large", "None of the above", "None of the above, with notes"}, codexVersions},
	{"async-expanded", "async-question", 1, contract.KindAsyncQuestion, []string{"Red", "Green", "Blue", "Other"}, []string{"0.154.0", "0.155.1", "0.171.0"}},
	{"exec-wrapped", "exec-long", 0, contract.KindPermission, []string{"approve_once"}, codexToolVersions},
	{"exec-wrapped-80", "exec-long-80", 0, contract.KindPermission, []string{"approve_once"}, codexToolVersions},
	{"exec-multiline", "exec-multiline", 0, contract.KindPermission, []string{"approve_once"}, codexToolVersions},
	{"apply-patch", "apply-patch-approve", 0, contract.KindPermission, []string{"approve_once"}, codexToolVersions},
	{"network-grant", "network-approve", 0, contract.KindPermission, []string{"approve_once"}, codexToolVersions},
	{"permission-bg-light", "permission-approve-bg-light", 0, contract.KindPermission, []string{"approve_once"}, codexToolVersions},
	{"permission-w60", "permission-approve-w60", 0, contract.KindPermission, []string{"approve_once"}, codexToolVersions},
	{"permission-w80", "permission-approve-w80", 0, contract.KindPermission, []string{"approve_once"}, codexToolVersions},
}

// codexToolVersions record the tool dialogs besides a short exec (the
// MCP tool approval form is read but never actionable: no source).
var codexToolVersions = []string{"0.155.1", "0.171.0"}

var geminiVersions = []string{"0.61.0"}

var geminiSources = []source{
	{"permission", "permission-approve", 0, contract.KindPermission, []string{"approve_once"}, geminiVersions},
	{"write-file", "edit-approve", 0, contract.KindPermission, []string{"approve_once"}, geminiVersions},
	{"permission-colors256", "permission-approve-colors256", 0, contract.KindPermission, []string{"approve_once"}, geminiVersions},
	{"permission-w60", "permission-approve-w60", 0, contract.KindPermission, []string{"approve_once"}, geminiVersions},
	{"permission-w80", "permission-approve-w80", 0, contract.KindPermission, []string{"approve_once"}, geminiVersions},
	{"permission-w200", "permission-approve-w200", 0, contract.KindPermission, []string{"approve_once"}, geminiVersions},
	{"permission-h15", "permission-approve-h15", 0, contract.KindPermission, []string{"approve_once"}, geminiVersions},
	{"permission-cwd120", "permission-approve-cwd120", 0, contract.KindPermission, []string{"approve_once"}, geminiVersions},
}

var openCodeVersions = []string{"1.18.33"}

var openCodeSources = []source{
	{"permission", "permission-approve", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"edit", "edit-approve", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"permission-colors256", "permission-approve-colors256", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"permission-w60", "permission-approve-w60", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"permission-w80", "permission-approve-w80", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"permission-w200", "permission-approve-w200", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"permission-h15", "permission-approve-h15", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"permission-cwd120", "permission-approve-cwd120", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"permission-model-long", "permission-approve-model-long", 0, contract.KindPermission, []string{"approve_once", "reject"}, openCodeVersions},
	{"question", "question-digit", 0, contract.KindQuestionnaire, []string{"Red", "Green", "Blue", "Type your own answer"}, openCodeVersions},
}

// mutation changes a copy of a source screen; nil means it does not apply.
// want lists the reason codes any of which names the refusal.
type mutation struct {
	name  string
	apply func(s *vt.Screen, r *recognizers.Recognition, idle *vt.Screen) *vt.Screen
	want  []string
}

var mutations = []mutation{
	{"option renumbered", renumber, []string{recognizers.ReasonOutOfOrderOption, recognizers.ReasonDuplicateOption}},
	{"option duplicated", duplicate, []string{recognizers.ReasonDuplicateOption}},
	{"options reordered", reorder, []string{recognizers.ReasonOutOfOrderOption, recognizers.ReasonChangedMenuShape}},
	{"option missing", missing, []string{recognizers.ReasonOutOfOrderOption, recognizers.ReasonChangedMenuShape}},
	{"footer removed", footerRemoved, []string{recognizers.ReasonFooterMissing, recognizers.ReasonChangedMenuShape, recognizers.NoteUnrecognized}},
	{"rule or title removed", topRemoved, []string{recognizers.ReasonFrameMissing, recognizers.ReasonClippedFrame, recognizers.ReasonChangedMenuShape, recognizers.NoteUnstyledLookalike, recognizers.NoteUnrecognized}},
	{"highlight moved by text only", highlightByText, []string{recognizers.ReasonHighlightUnproven, recognizers.ReasonChangedMenuShape}},
	{"highlight style stripped", highlightStripped, []string{recognizers.ReasonHighlightUnproven}},
	{"clipped by a short pane", clipped, []string{recognizers.ReasonClippedFrame, recognizers.NoteUnrecognized, recognizers.NoteUnstyledLookalike}},
	{"stale prompt above the live one", staleAbove, []string{recognizers.ReasonStalePrompt}},
	{"prompt without its styles", unstyled, []string{recognizers.NoteUnstyledLookalike, recognizers.NoteUnrecognized, recognizers.ReasonClippedFrame}},
	{"content below the prompt", contentBelow, []string{recognizers.ReasonContentBelow, recognizers.NoteUnrecognized}},
	{"frame drawn for another width", resized, []string{recognizers.ReasonResizedFrame}},
	{"prompt quoted in an assistant message", quoted, []string{recognizers.NotePromptInTranscript}},
	{"Tab to amend", amend, []string{recognizers.ReasonTabToAmend}},
	{"persistent grants only", persistentOnly, []string{recognizers.ReasonPersistentOnly, recognizers.ReasonWrappedLabel}}, // a wrapped source keeps its continuation rows
	{"question asks for a secret", secretPrompt, []string{recognizers.ReasonSecretInput}},
	{"question header asks for a secret", secretHeader, []string{recognizers.ReasonSecretInput}},
	{"model option labelled as the free-text row", freeTextLabel, []string{recognizers.ReasonFreeTextLookalike}},
	{"option label wrapped onto a continuation row", wrappedLabel, []string{recognizers.ReasonWrappedLabel, recognizers.ReasonFooterMissing, recognizers.ReasonChangedMenuShape}},
	{"checkbox ticked in the default colour", tickUnstyled, []string{recognizers.ReasonChangedMenuShape}},
	{"checkbox drawn with another mark", boxMark, []string{recognizers.ReasonChangedMenuShape}},
	{"free-text row ticked", freeTextTicked, []string{recognizers.ReasonMultiSelect}},
	{"multi-select without its Submit row", multiSubmitRemoved, []string{recognizers.ReasonMultiSelect, recognizers.ReasonChangedMenuShape}},
	{"buttons relabelled", buttonsSwapped, []string{recognizers.ReasonChangedMenuShape}},
	{"button missing", buttonMissing, []string{recognizers.ReasonChangedMenuShape}},
	{"another button selected", buttonSelected(2), []string{recognizers.ReasonHighlightMoved}},
	{"selection drawn on two buttons", buttonSelected(-1), []string{recognizers.ReasonHighlightUnproven, recognizers.ReasonChangedMenuShape}},
	{"no button selected", buttonUnselected, []string{recognizers.ReasonHighlightUnproven}},
	{"buttons' hints changed", buttonHints, []string{recognizers.ReasonChangedMenuShape}},
}

// TestAdversarialMutations: zero false actionable results over every
// source, version and mutation; and every source actionable unmutated.
func TestAdversarialMutations(t *testing.T) {
	cases, refused := 0, map[string]int{}
	for _, agent := range []string{"claude", "codex", "gemini", "opencode"} {
		srcs := map[string][]source{"claude": claudeSources, "codex": codexSources, "gemini": geminiSources, "opencode": openCodeSources}[agent]
		for _, src := range srcs {
			for _, v := range src.versions {
				if _, err := os.Stat(castPath(agent, v, src.surface)); err != nil {
					continue
				}
				scr := markerScreen(t, agent, v, src.surface, src.marker)
				w, h := scr.Size()
				base := copyScreen(scr, 0, w, h)
				r := recognize(base, agent, v)
				name := fmt.Sprintf("%s@%s/%s", agent, v, src.name)
				assertActionable(t, name, &r, src)
				idle := markerScreen(t, agent, v, "permission-approve", 1)
				if iw, ih := idle.Size(); iw != w || ih != h {
					// recorded at another size (exec-long-80): the
					// source's own next marker is its idle screen
					idle = markerScreen(t, agent, v, src.surface, src.marker+1)
				}
				for _, m := range mutations {
					mut := m.apply(copyScreen(base, 0, w, h), &r, copyScreen(idle, 0, w, h))
					if mut == nil {
						continue
					}
					cases++
					got := recognize(mut, agent, v)
					switch {
					case got.Actionable():
						t.Errorf("%s, %s: FALSE ACTIONABLE %s %v", name, m.name, got.ScreenState, got.Interaction)
					case !hasReason(got, m.want...):
						t.Errorf("%s, %s: reasons %v, want one of %v (state %s)", name, m.name, reasonCodes(got), m.want, got.ScreenState)
					default:
						refused[m.name]++
					}
				}
			}
		}
	}
	t.Logf("%d mutated screens, none actionable: %v", cases, refused)
	if cases < 300 {
		t.Errorf("only %d cases", cases)
	}
}

// TestAdversarialRecordedQuote: the fake model's plain assistant text
// quoting a questionnaire and then a permission prompt verbatim (surface
// quoted-prompt, recorded for real with each agent) is never taken for a
// prompt: at no step of the recording is anything actionable, and its
// final screen is idle with an empty composer, no interaction, and the
// lookalike named. Each case first proves that the same version's
// recorded permission prompt IS actionable, so a recognizer that never
// acts fails.
func TestAdversarialRecordedQuote(t *testing.T) {
	required := []string{"claude@2.1.267", "codex@0.155.1", "claude@2.1.332", "codex@0.171.0"}
	var seen []string
	for _, agent := range []string{"claude", "codex"} {
		src, versions := claudeSources[0], claudeVersions
		if agent == "codex" {
			src, versions = codexSources[0], codexVersions
		}
		for _, v := range versions {
			name := agent + "@" + v
			if _, err := os.Stat(castPath(agent, v, "quoted-prompt")); err != nil {
				continue
			}
			seen = append(seen, name)
			live := recognize(markerScreen(t, agent, v, src.surface, src.marker), agent, v)
			assertActionable(t, name+"/"+src.name, &live, src)

			p := recognizers.Lookup(agent, v)
			r := recognizers.NewRecognizer(p, recognizers.TestKey)
			_, err := recordings.Replay(loadCast(t, castPath(agent, v, "quoted-prompt")), vt.Options{}, func(s recordings.Step) error {
				if got := r.Recognize(s.Screen); got.Actionable() {
					return fmt.Errorf("event %d: FALSE ACTIONABLE %s %v", s.Index, got.ScreenState, got.Interaction)
				}
				return nil
			})
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}

			got := recognize(markerScreen(t, agent, v, "quoted-prompt", 0), agent, v)
			switch {
			case got.Interaction != nil || got.Actionable():
				t.Errorf("%s: quoted prompt read as an interaction: %s %v", name, got.ScreenState, got.Interaction)
			case got.ScreenState != contract.ScreenIdle || got.Composer != contract.ComposerEmpty:
				t.Errorf("%s: %s/%s, want idle/empty", name, got.ScreenState, got.Composer)
			case !hasReason(got, recognizers.NotePromptInTranscript):
				t.Errorf("%s: reasons %v, want %s", name, reasonCodes(got), recognizers.NotePromptInTranscript)
			}
		}
	}
	for _, n := range required {
		if !slices.Contains(seen, n) {
			t.Errorf("no quoted-prompt recording for %s", n)
		}
	}
}

// assertActionable: the unmutated copy is what the recording proves.
func assertActionable(t *testing.T, name string, r *recognizers.Recognition, src source) {
	t.Helper()
	if !r.Actionable() || r.Interaction.Kind != src.kind {
		t.Fatalf("%s: source not actionable as %s: %s %v %v", name, src.kind, r.ScreenState, r.Interaction, r.Reasons)
	}
	var got []string
	if src.kind == contract.KindPermission {
		for _, d := range r.Interaction.Decisions {
			got = append(got, string(d))
		}
	} else if len(r.Interaction.Questions) > 0 {
		for _, o := range r.Interaction.Questions[0].Options {
			got = append(got, o.Label)
		}
	}
	if !slices.Equal(got, src.expect) {
		t.Fatalf("%s: source offers %q, want %q", name, got, src.expect)
	}
}

// Mutations. Each works on rows the source's recognition located.

func options(r *recognizers.Recognition) []recognizers.Option {
	if r.Prompt == nil || len(r.Prompt.Questions) == 0 {
		return nil
	}
	var out []recognizers.Option
	for _, o := range r.Prompt.Questions[0].Options {
		if o.Role != recognizers.RoleChat {
			out = append(out, o)
		}
	}
	return out
}

// stacked: the options are rows of their own (OpenCode's permission
// buttons share one row: the row mutations do not apply to them, its
// button mutations do).
func stacked(opts []recognizers.Option) bool {
	for i := 1; i < len(opts); i++ {
		if opts[i].Row == opts[i-1].Row {
			return false
		}
	}
	return true
}

// numberX finds the column of the number of option o.
func numberX(s *vt.Screen, o recognizers.Option) int {
	w, _ := s.Size()
	for x := 0; x < w; x++ {
		if s.Cell(x, o.Row).Text == fmt.Sprint(o.Number) && s.Cell(x+1, o.Row).Text == "." {
			return x
		}
	}
	return -1
}

func setText(s *vt.Screen, x, y int, text string) {
	c := s.Cell(x, y)
	c.Text, c.Width = text, 1
	s.SetCell(x, y, c)
}

func copyRow(s *vt.Screen, from, to int) {
	w, _ := s.Size()
	for x := 0; x < w; x++ {
		if c := s.Cell(x, from); c.Width != 0 {
			s.SetCell(x, to, c)
		}
	}
}

func blankRow(s *vt.Screen, y int) {
	w, _ := s.Size()
	for x := 0; x < w; x++ {
		s.SetCell(x, y, vt.Cell{Text: " ", Width: 1})
	}
}

func restyle(s *vt.Screen, y0, y1 int, st vt.Style) {
	w, _ := s.Size()
	for y := y0; y <= y1; y++ {
		for x := 0; x < w; x++ {
			if c := s.Cell(x, y); c.Width != 0 {
				c.Style, c.Link = st, ""
				s.SetCell(x, y, c)
			}
		}
	}
}

func renumber(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := options(r)
	if len(opts) < 2 || !stacked(opts) {
		return nil
	}
	setText(s, numberX(s, opts[1]), opts[1].Row, fmt.Sprint(opts[1].Number+1))
	return s
}

func duplicate(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := options(r)
	if len(opts) < 3 || !stacked(opts) {
		return nil
	}
	copyRow(s, opts[1].Row, opts[2].Row)
	return s
}

func reorder(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := options(r)
	if len(opts) < 3 || !stacked(opts) {
		return nil
	}
	w, h := s.Size()
	tmp := copyScreen(s, 0, w, h)
	copyRow(s, opts[2].Row, opts[1].Row)
	copyRow(tmp, opts[1].Row, opts[2].Row)
	copyRow2(s, tmp, opts[2].Row, opts[2].Row)
	return s
}

// copyRow2 copies row from of src to row to of dst.
func copyRow2(dst, src *vt.Screen, from, to int) {
	w, _ := dst.Size()
	for x := 0; x < w; x++ {
		if c := src.Cell(x, from); c.Width != 0 {
			dst.SetCell(x, to, c)
		}
	}
}

// missing deletes an option's row: the rows below move up.
func missing(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := options(r)
	if len(opts) < 3 || !stacked(opts) {
		return nil
	}
	w, h := s.Size()
	out := copyScreen(s, 0, w, h)
	for y := opts[1].Row; y < h-1; y++ {
		blankRow(out, y)
		copyRow2(out, s, y+1, y)
	}
	blankRow(out, h-1)
	return out
}

func footerRemoved(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() {
		return nil
	}
	blankRow(s, r.Region.Bottom())
	return s
}

func topRemoved(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() || r.Interaction.Kind == contract.KindAsyncQuestion && r.ScreenState != contract.ScreenAsyncQuestion {
		return nil
	}
	blankRow(s, r.Region.Top)
	return s
}

// glyphCell finds the highlighted row's glyph.
func glyphCell(s *vt.Screen, r *recognizers.Recognition) (x, y int, ok bool) {
	opts := options(r)
	h := r.Prompt.Highlighted
	if h < 0 || h >= len(opts) {
		return 0, 0, false
	}
	y = opts[h].Row
	for x = 0; x < 4; x++ {
		if t := s.Cell(x, y).Text; t == "❯" || t == "›" {
			return x, y, true
		}
	}
	return 0, 0, false
}

func highlightByText(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	x, y, ok := glyphCell(s, r)
	if !ok {
		return nil
	}
	opts := options(r)
	other := opts[0].Row
	if other == y {
		other = opts[1].Row
	}
	g := s.Cell(x, y).Text
	setText(s, x, y, " ")
	setText(s, x, other, g)
	return s
}

func highlightStripped(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	_, y, ok := glyphCell(s, r)
	if !ok {
		return nil
	}
	restyle(s, y, y, vt.Style{})
	return s
}

// clipped keeps the rows from two below the prompt's top: a shorter pane.
func clipped(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() || r.Region.Rows < 4 {
		return nil
	}
	w, h := s.Size()
	y0 := r.Region.Top + 2
	return copyScreen(s, y0, w, h-y0)
}

// staleAbove puts a copy of the prompt region above the whole screen (a
// taller pane: the live prompt stays the bottom-most).
func staleAbove(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() {
		return nil
	}
	w, h := s.Size()
	n := r.Region.Rows
	out := copyScreen(s, -n, w, h+n)
	for y := 0; y < n; y++ {
		for x := 0; x < w; x++ {
			if c := s.Cell(x, r.Region.Top+y); c.Width != 0 {
				out.SetCell(x, y, c)
			}
		}
	}
	return out
}

func unstyled(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() {
		return nil
	}
	restyle(s, r.Region.Top, r.Region.Bottom(), vt.Style{})
	return s
}

func contentBelow(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	_, h := s.Size()
	y := r.Region.Bottom() + 2
	if r.Region.Empty() || y >= h {
		return nil
	}
	setText(s, 4, y, "x")
	return s
}

// resized shortens the frame: Claude's top rule, Codex's padded approval
// footer.
func resized(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	w, _ := s.Size()
	switch {
	case r.Agent == "claude" && r.Interaction.Kind != contract.KindFreeText && s.Cell(0, r.Region.Top).Text == "─":
		for x := w - 10; x < w; x++ {
			s.SetCell(x, r.Region.Top, vt.Cell{Text: " ", Width: 1})
		}
	case r.Agent == "codex" && r.Interaction.Kind == contract.KindPermission:
		for x := w - 10; x < w; x++ {
			s.SetCell(x, r.Region.Bottom(), vt.Cell{Text: " ", Width: 1})
		}
	default:
		return nil
	}
	return s
}

// quoted writes the prompt's text, as an assistant message would show it,
// into the transcript of the version's idle screen, above its composer.
func quoted(s *vt.Screen, r *recognizers.Recognition, idle *vt.Screen) *vt.Screen {
	if r.Region.Empty() {
		return nil
	}
	w, _ := s.Size()
	text := strings.Split(s.PlainText(vt.Rect{X: 0, Y: r.Region.Top, W: w, H: r.Region.Rows}), "\n")
	ir := recognize(idle, r.Agent, r.Version)
	if ir.Region.Top < 2 {
		return nil // no composer to quote above (an idle screen of another shape)
	}
	top := ir.Region.Top - len(text) - 1
	if top < 0 {
		text, top = text[len(text)-ir.Region.Top+1:], 0
	}
	for i, line := range text {
		blankRow(idle, top+i)
		x := 0
		for _, ch := range line {
			if x+2 < w {
				idle.SetCell(x+2, top+i, vt.Cell{Text: string(ch), Width: uint8(max(vt.RuneWidth(ch), 1))})
			}
			x += max(vt.RuneWidth(ch), 1)
		}
	}
	return idle
}

func amend(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := options(r)
	if r.Agent != "claude" || r.Interaction.Kind != contract.KindPermission {
		return nil
	}
	y := opts[0].Row
	x0 := numberX(s, opts[0]) + 3
	st := s.Cell(x0, y).Style
	for i, ch := range "Yes, and tell Claude what to do next" {
		s.SetCell(x0+i, y, vt.Cell{Text: string(ch), Width: 1, Style: st})
	}
	return s
}

// persistentOnly deletes the one-time row and renumbers the rest.
func persistentOnly(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Interaction.Kind != contract.KindPermission {
		return nil
	}
	opts := options(r)
	if !stacked(opts) || !slices.ContainsFunc(opts, func(o recognizers.Option) bool { return o.Role == recognizers.RolePersistent }) {
		return nil // no grant to leave alone (exec-multiline)
	}
	// Move the glyph and highlight with the rows: rows 2.. up by one.
	for i := 1; i < len(opts); i++ {
		copyRow(s, opts[i].Row, opts[i-1].Row)
		setText(s, numberX(s, opts[i]), opts[i-1].Row, fmt.Sprint(i))
	}
	blankRow(s, opts[len(opts)-1].Row)
	return s
}

// findText returns the column where text starts on row y (cell by cell),
// or -1.
func findText(s *vt.Screen, y int, text string) int {
	w, _ := s.Size()
	want := []rune(text)
	for x := 0; x < w; x++ {
		i, cx := 0, x
		for i < len(want) && cx < w && s.Cell(cx, y).Text == string(want[i]) {
			i++
			cx += max(int(s.Cell(cx, y).Width), 1)
		}
		if i == len(want) && len(want) > 0 {
			return x
		}
	}
	return -1
}

// writeText writes text from column x of row y in style st, one cell a
// character.
func writeText(s *vt.Screen, x, y int, text string, st vt.Style) {
	for _, ch := range text {
		s.SetCell(x, y, vt.Cell{Text: string(ch), Width: 1, Style: st})
		x++
	}
}

// replaceText overwrites old (found on row y) with repl, padded with
// spaces in the same style to old's length; false when old is not there
// or repl is longer.
func replaceText(s *vt.Screen, y int, old, repl string) bool {
	x := findText(s, y, old)
	n := len([]rune(old))
	if x < 0 || len([]rune(repl)) > n {
		return false
	}
	st := s.Cell(x, y).Style
	writeText(s, x, y, repl+strings.Repeat(" ", n-len([]rune(repl))), st)
	return true
}

// insertRow makes room for a row right under row y: the rows above it,
// y included, move up one (row 0 is dropped), and the new row y is
// blank. It returns the screen.
func insertRow(s *vt.Screen, y int) *vt.Screen {
	w, h := s.Size()
	out := copyScreen(s, 0, w, h)
	for r := 0; r < y; r++ {
		blankRow(out, r)
		copyRow2(out, s, r+1, r)
	}
	blankRow(out, y)
	return out
}

func questionKind(r *recognizers.Recognition) bool {
	k := r.Interaction.Kind
	return k == contract.KindQuestionnaire || k == contract.KindFreeText || k == contract.KindAsyncQuestion
}

// secretPrompt rewrites the question's first row to ask for a password.
func secretPrompt(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if !questionKind(r) || len(r.Prompt.Questions) == 0 || r.Prompt.Questions[0].Prompt == "" {
		return nil
	}
	q := r.Prompt.Questions[0].Prompt
	w, _ := s.Size()
	for y := r.Region.Top; y <= r.Region.Bottom(); y++ {
		row := strings.TrimSpace(s.PlainText(vt.Rect{X: 0, Y: y, W: w, H: 1}))
		if len(row) >= 10 && strings.HasPrefix(q, row) && replaceText(s, y, row, "What is the password?") {
			return s
		}
	}
	return nil
}

// secretWord is a secret-asking header of n characters.
var secretWord = map[int]string{3: "PIN", 4: "PINs", 5: "Token", 6: "Secret", 7: "API key", 8: "Password"}

// secretHeader renames the question's header (Claude's chip or current
// tab) to a secret word of its length.
func secretHeader(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if !questionKind(r) || len(r.Prompt.Questions) == 0 || r.Prompt.Questions[0].Header == "" {
		return nil
	}
	h := r.Prompt.Questions[0].Header
	word, ok := secretWord[len([]rune(h))]
	if !ok || !replaceText(s, r.Region.Top+1, h, word) {
		return nil
	}
	return s
}

// freeTextLabel relabels the model's second option "Other" (the tool
// schemas' name for the automatic free-text row).
func freeTextLabel(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := options(r)
	k := r.Interaction.Kind
	if len(opts) < 3 || k != contract.KindQuestionnaire && k != contract.KindAsyncQuestion ||
		opts[1].Role != recognizers.RoleChoice || !replaceText(s, opts[1].Row, opts[1].Label, "Other") {
		return nil
	}
	return s
}

// wrappedLabel puts a continuation row under the first option, at its
// label's column in its label's style: its label wrapped.
func wrappedLabel(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := options(r)
	if len(opts) == 0 || r.Region.Top < 2 || !stacked(opts) {
		return nil
	}
	o := opts[0]
	x := findText(s, o.Row, o.Label)
	if x < 0 {
		return nil
	}
	st := s.Cell(x, o.Row).Style
	out := insertRow(s, o.Row)
	writeText(out, x, o.Row, "and more of it", st)
	return out
}

// TestAdversarialSecretGeneric: the secret mutations read with each
// agent's generic profile (the screen relabelled 9.9.9) still name
// secret_input beside unknown_version.
func TestAdversarialSecretGeneric(t *testing.T) {
	cases := 0
	for _, agent := range []string{"claude", "codex", "gemini", "opencode"} {
		srcs := map[string][]source{"claude": claudeSources, "codex": codexSources, "gemini": geminiSources, "opencode": openCodeSources}[agent]
		for _, src := range srcs {
			for _, v := range src.versions {
				if _, err := os.Stat(castPath(agent, v, src.surface)); err != nil {
					continue
				}
				scr := markerScreen(t, agent, v, src.surface, src.marker)
				w, h := scr.Size()
				r := recognize(copyScreen(scr, 0, w, h), agent, v)
				for _, m := range []func(*vt.Screen, *recognizers.Recognition, *vt.Screen) *vt.Screen{secretPrompt, secretHeader} {
					mut := m(copyScreen(scr, 0, w, h), &r, nil)
					if mut == nil {
						continue
					}
					cases++
					got := recognize(mut, agent, "9.9.9")
					name := fmt.Sprintf("%s@%s/%s as 9.9.9", agent, v, src.name)
					if got.Actionable() || !hasReason(got, recognizers.ReasonSecretInput) || !hasReason(got, recognizers.ReasonUnknownVersion) {
						t.Errorf("%s: %s, reasons %v", name, got.ScreenState, reasonCodes(got))
					}
				}
			}
		}
	}
	if cases < 20 {
		t.Errorf("only %d cases", cases)
	}
}

// TestAdversarialRecordedSecret: a question asking for a database
// password, recorded for real (question-secret), is never actionable, at
// any step of the recording, read with the exact profile or the generic
// one; every marker with an interaction is manual_required with
// secret_input and no plan. Each version's recorded color question is
// actionable first, so a recognizer that never acts fails.
func TestAdversarialRecordedSecret(t *testing.T) {
	required := []string{"claude@2.1.267", "claude@2.1.332", "codex@0.155.1", "codex@0.171.0"}
	var seen []string
	for _, agent := range []string{"claude", "codex"} {
		src, versions := claudeSources[1], claudeVersions
		if agent == "codex" {
			src, versions = codexSources[1], codexVersions
		}
		for _, v := range versions {
			if _, err := os.Stat(castPath(agent, v, "question-secret")); err != nil {
				continue
			}
			seen = append(seen, agent+"@"+v)
			live := recognize(markerScreen(t, agent, v, src.surface, src.marker), agent, v)
			assertActionable(t, agent+"@"+v+"/"+src.name, &live, src)
			for _, as := range []string{v, "9.9.9"} {
				name := agent + "@" + v + " read as " + as
				r := recognizers.NewRecognizer(recognizers.Lookup(agent, as), recognizers.TestKey)
				markers := 0
				_, err := recordings.Replay(loadCast(t, castPath(agent, v, "question-secret")), vt.Options{}, func(s recordings.Step) error {
					got := r.Recognize(s.Screen)
					if got.Actionable() || got.Plan != nil {
						return fmt.Errorf("event %d: FALSE ACTIONABLE %s %v", s.Index, got.ScreenState, got.Interaction)
					}
					if s.Marker == nil || s.Marker.Expect.Kind == nil {
						return nil
					}
					markers++
					if got.Interaction == nil || got.Interaction.State != contract.StateManualRequired ||
						!slices.Contains(got.Interaction.Reasons, recognizers.ReasonSecretInput) {
						return fmt.Errorf("event %d (%s): interaction %v, want manual_required with secret_input", s.Index, s.Marker.State, got.Interaction)
					}
					return nil
				})
				if err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if markers < 3 {
					t.Errorf("%s: %d markers with an interaction", name, markers)
				}
			}
		}
	}
	for _, n := range required {
		if !slices.Contains(seen, n) {
			t.Errorf("no question-secret recording for %s", n)
		}
	}
}

// multiRows are a multi-select source's answer rows and its free-text
// row, or nil for any other source.
func multiRows(r *recognizers.Recognition) (answers []recognizers.Option, freeText recognizers.Option, ok bool) {
	if r.Prompt == nil || !r.Prompt.MultiSelect {
		return nil, freeText, false
	}
	for _, o := range options(r) {
		if o.Role == recognizers.RoleFreeText {
			freeText = o
		} else {
			answers = append(answers, o)
		}
	}
	return answers, freeText, freeText.Row > 0
}

// boxAt is the column of row o's "[".
func boxAt(s *vt.Screen, o recognizers.Option) int { return numberX(s, o) + 3 }

// tickUnstyled ticks the first unticked answer's box in the default style.
func tickUnstyled(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	answers, _, ok := multiRows(r)
	if !ok {
		return nil
	}
	for _, o := range answers {
		if !o.Checked {
			setText(s, boxAt(s, o)+1, o.Row, "✔")
			return s
		}
	}
	return nil
}

// boxMark draws an "x" into the first answer's box in its own style.
func boxMark(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	answers, _, ok := multiRows(r)
	if !ok {
		return nil
	}
	setText(s, boxAt(s, answers[0])+1, answers[0].Row, "x")
	return s
}

// freeTextTicked ticks "Type something" in the tick colour of a ticked
// answer (or the recorded one).
func freeTextTicked(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	_, ft, ok := multiRows(r)
	if !ok {
		return nil
	}
	x := boxAt(s, ft)
	tick := vt.Cell{Text: "✔", Width: 1, Style: s.Cell(x, ft.Row).Style}
	tick.Style.Style = tick.Style.Style.Foreground(tcell.PaletteColor(114))
	s.SetCell(x+1, ft.Row, tick)
	for _, dx := range []int{0, 2} {
		c := s.Cell(x+dx, ft.Row)
		c.Style = tick.Style
		s.SetCell(x+dx, ft.Row, c)
	}
	return s
}

// multiSubmitRemoved blanks the Submit row under "Type something".
func multiSubmitRemoved(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	_, ft, ok := multiRows(r)
	if !ok {
		return nil
	}
	blankRow(s, ft.Row+1)
	return s
}

// OpenCode's permission buttons: " Allow once ", " Allow always ",
// " Reject " on one row from column 5, a gap between them, the selected
// one on the warning colour.

// openCodeButtonRow returns the buttons' row, or -1 when the source has
// no button row (another agent, a question).
func openCodeButtonRow(r *recognizers.Recognition) int {
	opts := options(r)
	if r.Agent != "opencode" || len(opts) != 3 || stacked(opts) {
		return -1
	}
	return opts[0].Row
}

// buttonsSwapped writes the second button's label over the first's
// ("Allow alway" in the first button's paint).
func buttonsSwapped(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	y := openCodeButtonRow(r)
	if y < 0 || !replaceText(s, y, "Allow once", "Allow alwa") {
		return nil
	}
	return s
}

// buttonMissing blanks the last button in the row's background.
func buttonMissing(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	y := openCodeButtonRow(r)
	x := findText(s, y, "Reject")
	if y < 0 || x < 0 {
		return nil
	}
	pad := s.Cell(x-2, y)
	for i := x - 1; i <= x+6; i++ {
		s.SetCell(i, y, vt.Cell{Text: " ", Width: 1, Style: pad.Style})
	}
	return s
}

// buttonSelected paints button i (-1: the last, besides the first) in
// the first button's selected paint, the first staying selected unless
// i >= 0.
func buttonSelected(i int) func(*vt.Screen, *recognizers.Recognition, *vt.Screen) *vt.Screen {
	return func(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
		y := openCodeButtonRow(r)
		if y < 0 {
			return nil
		}
		labels := []string{"Allow once", "Allow always", "Reject"}
		x0, x := findText(s, y, labels[0]), findText(s, y, labels[2])
		if x0 < 0 || x < 0 {
			return nil
		}
		lit, pad, plain := s.Cell(x0, y).Style, s.Cell(x0-1, y).Style, s.Cell(x, y).Style
		for j := x - 1; j <= x+len(labels[2]); j++ {
			c := s.Cell(j, y)
			c.Style = lit
			if c.Text == " " {
				c.Style = pad
			}
			s.SetCell(j, y, c)
		}
		if i >= 0 {
			for j := x0; j < x0+len(labels[0]); j++ {
				c := s.Cell(j, y)
				c.Style = plain
				s.SetCell(j, y, c)
			}
			padPlain := s.Cell(x0+len(labels[0])+1, y).Style
			for _, j := range []int{x0 - 1, x0 + len(labels[0])} {
				s.SetCell(j, y, vt.Cell{Text: " ", Width: 1, Style: padPlain})
			}
		}
		return s
	}
}

// buttonUnselected paints the selected button like the others.
func buttonUnselected(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	y := openCodeButtonRow(r)
	x0, x := findText(s, y, "Allow once"), findText(s, y, "Reject")
	if y < 0 || x0 < 0 || x < 0 {
		return nil
	}
	plain, pad := s.Cell(x, y).Style, s.Cell(x-1, y).Style
	for j := x0 - 1; j <= x0+len("Allow once"); j++ {
		c := s.Cell(j, y)
		c.Style = plain
		if c.Text == " " {
			c.Style = pad
		}
		s.SetCell(j, y, c)
	}
	return s
}

// buttonHints changes the hints' "enter confirm" into "enter continue".
func buttonHints(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	y := openCodeButtonRow(r)
	if y < 0 {
		return nil
	}
	_, h := s.Size()
	for row := y; row < h; row++ {
		if replaceText(s, row, "select", "choose") {
			return s
		}
	}
	return nil
}
