package recognizers_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// The adversarial suite mutates real screens of the corpus. Every case
// first proves its unmutated source IS actionable with the expected
// decisions or options (a recognizer that never acts fails here), then
// that the mutation leaves no actionable interaction and names why.

var (
	claudeVersions = []string{"2.1.263", "2.1.266", "2.1.267", "2.1.332"}
	codexVersions  = []string{"0.153.4", "0.154.0", "0.155.1", "0.171.0"}
)

var claudeSources = []screentest.Source{
	{Name: "permission", Surface: "permission-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeVersions},
	{Name: "question", Surface: "question-digit", Marker: 0, Kind: contract.KindQuestionnaire, Expect: []string{"Red", "Green", "Blue", "Type something."}, Versions: claudeVersions},
	{Name: "second-of-two", Surface: "several-questions", Marker: 1, Kind: contract.KindQuestionnaire, Expect: []string{"Postgres", "SQLite", "Type something."}, Versions: claudeVersions},
	{Name: "editor", Surface: "type-something", Marker: 1, Kind: contract.KindQuestionnaire, Expect: []string{"Red", "Green", "Blue", "Type something."}, Versions: claudeVersions},
	{Name: "review", Surface: "several-questions", Marker: 2, Kind: contract.KindConfirmation, Expect: []string{"Submit answers", "Cancel"}, Versions: []string{"2.1.263", "2.1.266", "2.1.267"}},
	{Name: "multi-select", Surface: "multi-select", Marker: 0, Kind: contract.KindQuestionnaire, Expect: []string{"Cheese", "Mushrooms", "Olives"}, Versions: claudeVersions},
	{Name: "multi-select-ticked", Surface: "multi-select", Marker: 1, Kind: contract.KindQuestionnaire, Expect: []string{"Cheese", "Mushrooms", "Olives"}, Versions: claudeVersions},
	{Name: "bash-wrapped-80", Surface: "bash-long-80", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "edit", Surface: "edit-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "write-create", Surface: "write-create-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "write-overwrite", Surface: "write-overwrite-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "notebook-edit", Surface: "notebook-edit-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "web-fetch", Surface: "webfetch-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: claudeToolVersions},
	{Name: "mcp-tool", Surface: "mcp-tool-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "read-outside", Surface: "read-outside", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "plan", Surface: "plan-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: claudeToolVersions},
	{Name: "permission-light", Surface: "permission-approve-theme-light", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "permission-light-ansi", Surface: "permission-approve-theme-light-ansi", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "permission-w60", Surface: "permission-approve-w60", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "permission-w80", Surface: "permission-approve-w80", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: claudeToolVersions},
	{Name: "question-light", Surface: "question-digit-theme-light", Marker: 0, Kind: contract.KindQuestionnaire, Expect: []string{"Red", "Green", "Blue", "Type something."}, Versions: claudeToolVersions},
	{Name: "question-light-ansi", Surface: "question-digit-theme-light-ansi", Marker: 0, Kind: contract.KindQuestionnaire, Expect: []string{"Red", "Green", "Blue", "Type something."}, Versions: claudeToolVersions},
}

// claudeToolVersions record the dialogs of the tools besides Bash (and
// plan mode's; "Exit plan mode?" is never actionable: no source).
var claudeToolVersions = []string{"2.1.267", "2.1.332"}

var codexSources = []screentest.Source{
	{Name: "permission", Surface: "permission-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexVersions},
	{Name: "question", Surface: "question-digit", Marker: 0, Kind: contract.KindQuestionnaire, Expect: []string{"Red (Recommended)", "Green", "Blue", "None of the above", "None of the above, with notes"}, Versions: codexVersions},
	{Name: "notes", Surface: "question-notes", Marker: 2, Kind: contract.KindFreeText, Expect: nil, Versions: codexVersions},
	{Name: "unanswered", Surface: "question-unanswered", Marker: 0, Kind: contract.KindConfirmation, Expect: []string{"Proceed", "Go back"}, Versions: codexVersions},
	{Name: "submit-all", Surface: "question-submit-all", Marker: 4, Kind: contract.KindQuestionnaire, Expect: []string{"Small", "Large", "None of the above", "None of the above, with notes"}, Versions: codexVersions},
	{Name: "async-expanded", Surface: "async-question", Marker: 1, Kind: contract.KindAsyncQuestion, Expect: []string{"Red", "Green", "Blue", "Other"}, Versions: []string{"0.154.0", "0.155.1", "0.171.0"}},
	{Name: "exec-wrapped", Surface: "exec-long", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexToolVersions},
	{Name: "exec-wrapped-80", Surface: "exec-long-80", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexToolVersions},
	{Name: "exec-multiline", Surface: "exec-multiline", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexToolVersions},
	{Name: "apply-patch", Surface: "apply-patch-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexToolVersions},
	{Name: "network-grant", Surface: "network-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexToolVersions},
	{Name: "permission-bg-light", Surface: "permission-approve-bg-light", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexToolVersions},
	{Name: "permission-w60", Surface: "permission-approve-w60", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexToolVersions},
	{Name: "permission-w80", Surface: "permission-approve-w80", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: codexToolVersions},
}

// codexToolVersions record the tool dialogs besides a short exec (the
// MCP tool approval form is read but never actionable: no source).
var codexToolVersions = []string{"0.155.1", "0.171.0"}

var geminiVersions = []string{"0.61.0"}

var geminiSources = []screentest.Source{
	{Name: "permission", Surface: "permission-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: geminiVersions},
	{Name: "write-file", Surface: "edit-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: geminiVersions},
	{Name: "permission-colors256", Surface: "permission-approve-colors256", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: geminiVersions},
	{Name: "permission-w60", Surface: "permission-approve-w60", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: geminiVersions},
	{Name: "permission-w80", Surface: "permission-approve-w80", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: geminiVersions},
	{Name: "permission-w200", Surface: "permission-approve-w200", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: geminiVersions},
	{Name: "permission-h15", Surface: "permission-approve-h15", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: geminiVersions},
	{Name: "permission-cwd120", Surface: "permission-approve-cwd120", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once"}, Versions: geminiVersions},
}

var openCodeVersions = []string{"1.18.33"}

var openCodeSources = []screentest.Source{
	{Name: "permission", Surface: "permission-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "edit", Surface: "edit-approve", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "permission-colors256", Surface: "permission-approve-colors256", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "permission-w60", Surface: "permission-approve-w60", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "permission-w80", Surface: "permission-approve-w80", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "permission-w200", Surface: "permission-approve-w200", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "permission-h15", Surface: "permission-approve-h15", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "permission-cwd120", Surface: "permission-approve-cwd120", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "permission-model-long", Surface: "permission-approve-model-long", Marker: 0, Kind: contract.KindPermission, Expect: []string{"approve_once", "reject"}, Versions: openCodeVersions},
	{Name: "question", Surface: "question-digit", Marker: 0, Kind: contract.KindQuestionnaire, Expect: []string{"Red", "Green", "Blue", "Type your own answer"}, Versions: openCodeVersions},
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
	eachSource(t, func(agent, v string, src screentest.Source, scr *vt.Screen) {
		w, h := scr.Size()
		base := screentest.CopyScreen(scr, 0, w, h)
		r := screentest.Recognize(base, agent, v)
		name := fmt.Sprintf("%s@%s/%s", agent, v, src.Name)
		screentest.AssertActionable(t, name, &r, src)
		idle := screentest.MarkerScreen(t, agent, v, "permission-approve", 1)
		if iw, ih := idle.Size(); iw != w || ih != h {
			// recorded at another size (exec-long-80): the
			// source's own next marker is its idle screen
			idle = screentest.MarkerScreen(t, agent, v, src.Surface, src.Marker+1)
		}
		for _, m := range mutations {
			mut := m.apply(screentest.CopyScreen(base, 0, w, h), &r, screentest.CopyScreen(idle, 0, w, h))
			if mut == nil {
				continue
			}
			cases++
			got := screentest.Recognize(mut, agent, v)
			switch {
			case got.Actionable():
				t.Errorf("%s, %s: FALSE ACTIONABLE %s %v", name, m.name, got.ScreenState, got.Interaction)
			case !screentest.HasReason(got, m.want...):
				t.Errorf("%s, %s: reasons %v, want one of %v (state %s)", name, m.name, screentest.ReasonCodes(got), m.want, got.ScreenState)
			default:
				refused[m.name]++
			}
		}
	})
	t.Logf("%d mutated screens, none actionable: %v", cases, refused)
	if cases < 300 {
		t.Errorf("only %d cases", cases)
	}
}

// eachSource runs f on the marker screen of every source of every agent,
// in every version of it recorded.
func eachSource(t *testing.T, f func(agent, v string, src screentest.Source, scr *vt.Screen)) {
	t.Helper()
	for _, agent := range []string{"claude", "codex", "gemini", "opencode"} {
		srcs := map[string][]screentest.Source{"claude": claudeSources, "codex": codexSources, "gemini": geminiSources, "opencode": openCodeSources}[agent]
		for _, src := range srcs {
			for _, v := range src.Versions {
				if _, err := os.Stat(screentest.CastPath(agent, v, src.Surface)); err != nil {
					continue
				}
				f(agent, v, src, screentest.MarkerScreen(t, agent, v, src.Surface, src.Marker))
			}
		}
	}
}

// eachRecorded runs check on every Claude Code and Codex version with a
// recording of surface, after proving that version's own source (source
// in its agent's table) actionable, so that a recognizer that never acts
// fails; each required version ("agent@version") without the recording
// fails the test.
func eachRecorded(t *testing.T, surface string, source int, required []string, check func(agent, v string)) {
	t.Helper()
	var seen []string
	for _, agent := range []string{"claude", "codex"} {
		src, versions := claudeSources[source], claudeVersions
		if agent == "codex" {
			src, versions = codexSources[source], codexVersions
		}
		for _, v := range versions {
			if _, err := os.Stat(screentest.CastPath(agent, v, surface)); err != nil {
				continue
			}
			seen = append(seen, agent+"@"+v)
			live := screentest.Recognize(screentest.MarkerScreen(t, agent, v, src.Surface, src.Marker), agent, v)
			screentest.AssertActionable(t, agent+"@"+v+"/"+src.Name, &live, src)
			check(agent, v)
		}
	}
	for _, n := range required {
		if !slices.Contains(seen, n) {
			t.Errorf("no %s recording for %s", surface, n)
		}
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
	eachRecorded(t, "quoted-prompt", 0, required, func(agent, v string) {
		name := agent + "@" + v
		p := recognizers.Lookup(agent, v)
		r := recognizers.NewRecognizer(p, recognizers.TestKey)
		_, err := recordings.Replay(screentest.LoadCast(t, screentest.CastPath(agent, v, "quoted-prompt")), vt.Options{}, func(s recordings.Step) error {
			if got := r.Recognize(s.Screen); got.Actionable() {
				return fmt.Errorf("event %d: FALSE ACTIONABLE %s %v", s.Index, got.ScreenState, got.Interaction)
			}
			return nil
		})
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}

		got := screentest.Recognize(screentest.MarkerScreen(t, agent, v, "quoted-prompt", 0), agent, v)
		switch {
		case got.Interaction != nil || got.Actionable():
			t.Errorf("%s: quoted prompt read as an interaction: %s %v", name, got.ScreenState, got.Interaction)
		case got.ScreenState != contract.ScreenIdle || got.Composer != contract.ComposerEmpty:
			t.Errorf("%s: %s/%s, want idle/empty", name, got.ScreenState, got.Composer)
		case !screentest.HasReason(got, recognizers.NotePromptInTranscript):
			t.Errorf("%s: reasons %v, want %s", name, screentest.ReasonCodes(got), recognizers.NotePromptInTranscript)
		}
	})
}

// Mutations. Each works on rows the source's recognition located.

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

// stackedOptions is the recognition's options when there are at least n
// of them, each a row of its own (the row mutations' precondition).
func stackedOptions(r *recognizers.Recognition, n int) ([]recognizers.Option, bool) {
	opts := screentest.Options(r)
	return opts, len(opts) >= n && stacked(opts)
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

func renumber(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts, ok := stackedOptions(r, 2)
	if !ok {
		return nil
	}
	screentest.SetText(s, numberX(s, opts[1]), opts[1].Row, fmt.Sprint(opts[1].Number+1))
	return s
}

func duplicate(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts, ok := stackedOptions(r, 3)
	if !ok {
		return nil
	}
	screentest.CopyRow(s, opts[1].Row, opts[2].Row)
	return s
}

func reorder(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts, ok := stackedOptions(r, 3)
	if !ok {
		return nil
	}
	w, h := s.Size()
	tmp := screentest.CopyScreen(s, 0, w, h)
	screentest.CopyRow(s, opts[2].Row, opts[1].Row)
	screentest.CopyRow(tmp, opts[1].Row, opts[2].Row)
	screentest.CopyRowFrom(s, tmp, opts[2].Row, opts[2].Row)
	return s
}

// missing deletes an option's row: the rows below move up.
func missing(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts, ok := stackedOptions(r, 3)
	if !ok {
		return nil
	}
	w, h := s.Size()
	out := screentest.CopyScreen(s, 0, w, h)
	for y := opts[1].Row; y < h-1; y++ {
		screentest.BlankRow(out, y)
		screentest.CopyRowFrom(out, s, y+1, y)
	}
	screentest.BlankRow(out, h-1)
	return out
}

func footerRemoved(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() {
		return nil
	}
	screentest.BlankRow(s, r.Region.Bottom())
	return s
}

func topRemoved(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() || r.Interaction.Kind == contract.KindAsyncQuestion && r.ScreenState != contract.ScreenAsyncQuestion {
		return nil
	}
	screentest.BlankRow(s, r.Region.Top)
	return s
}

// glyphCell finds the highlighted row's glyph.
func glyphCell(s *vt.Screen, r *recognizers.Recognition) (x, y int, ok bool) {
	opts := screentest.Options(r)
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
	opts := screentest.Options(r)
	other := opts[0].Row
	if other == y {
		other = opts[1].Row
	}
	g := s.Cell(x, y).Text
	screentest.SetText(s, x, y, " ")
	screentest.SetText(s, x, other, g)
	return s
}

func highlightStripped(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	_, y, ok := glyphCell(s, r)
	if !ok {
		return nil
	}
	screentest.Restyle(s, y, y, vt.Style{})
	return s
}

// clipped keeps the rows from two below the prompt's top: a shorter pane.
func clipped(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() || r.Region.Rows < 4 {
		return nil
	}
	w, h := s.Size()
	y0 := r.Region.Top + 2
	return screentest.CopyScreen(s, y0, w, h-y0)
}

// staleAbove puts a copy of the prompt region above the whole screen (a
// taller pane: the live prompt stays the bottom-most).
func staleAbove(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	if r.Region.Empty() {
		return nil
	}
	w, h := s.Size()
	n := r.Region.Rows
	out := screentest.CopyScreen(s, -n, w, h+n)
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
	screentest.Restyle(s, r.Region.Top, r.Region.Bottom(), vt.Style{})
	return s
}

func contentBelow(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	_, h := s.Size()
	y := r.Region.Bottom() + 2
	if r.Region.Empty() || y >= h {
		return nil
	}
	screentest.SetText(s, 4, y, "x")
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
	ir := screentest.Recognize(idle, r.Agent, r.Version)
	if ir.Region.Top < 2 {
		return nil // no composer to quote above (an idle screen of another shape)
	}
	top := ir.Region.Top - len(text) - 1
	if top < 0 {
		text, top = text[len(text)-ir.Region.Top+1:], 0
	}
	for i, line := range text {
		screentest.BlankRow(idle, top+i)
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
	opts := screentest.Options(r)
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
	opts := screentest.Options(r)
	if !stacked(opts) || !slices.ContainsFunc(opts, func(o recognizers.Option) bool { return o.Role == recognizers.RolePersistent }) {
		return nil // no grant to leave alone (exec-multiline)
	}
	// Move the glyph and highlight with the rows: rows 2.. up by one.
	for i := 1; i < len(opts); i++ {
		screentest.CopyRow(s, opts[i].Row, opts[i-1].Row)
		screentest.SetText(s, numberX(s, opts[i]), opts[i-1].Row, fmt.Sprint(i))
	}
	screentest.BlankRow(s, opts[len(opts)-1].Row)
	return s
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
		if len(row) >= 10 && strings.HasPrefix(q, row) && screentest.ReplaceText(s, y, row, "What is the password?") {
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
	if !ok || !screentest.ReplaceText(s, r.Region.Top+1, h, word) {
		return nil
	}
	return s
}

// freeTextLabel relabels the model's second option "Other" (the tool
// schemas' name for the automatic free-text row).
func freeTextLabel(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := screentest.Options(r)
	k := r.Interaction.Kind
	if len(opts) < 3 || k != contract.KindQuestionnaire && k != contract.KindAsyncQuestion ||
		opts[1].Role != recognizers.RoleChoice || !screentest.ReplaceText(s, opts[1].Row, opts[1].Label, "Other") {
		return nil
	}
	return s
}

// wrappedLabel puts a continuation row under the first option, at its
// label's column in its label's style: its label wrapped.
func wrappedLabel(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	opts := screentest.Options(r)
	if len(opts) == 0 || r.Region.Top < 2 || !stacked(opts) {
		return nil
	}
	o := opts[0]
	x := screentest.FindText(s, o.Row, o.Label)
	if x < 0 {
		return nil
	}
	st := s.Cell(x, o.Row).Style
	out := screentest.InsertRow(s, o.Row)
	screentest.WriteText(out, x, o.Row, "and more of it", st)
	return out
}

// TestAdversarialSecretGeneric: the secret mutations read with each
// agent's generic profile (the screen relabelled 9.9.9) still name
// secret_input beside unknown_version.
func TestAdversarialSecretGeneric(t *testing.T) {
	cases := 0
	eachSource(t, func(agent, v string, src screentest.Source, scr *vt.Screen) {
		w, h := scr.Size()
		r := screentest.Recognize(screentest.CopyScreen(scr, 0, w, h), agent, v)
		for _, m := range []func(*vt.Screen, *recognizers.Recognition, *vt.Screen) *vt.Screen{secretPrompt, secretHeader} {
			mut := m(screentest.CopyScreen(scr, 0, w, h), &r, nil)
			if mut == nil {
				continue
			}
			cases++
			got := screentest.Recognize(mut, agent, "9.9.9")
			name := fmt.Sprintf("%s@%s/%s as 9.9.9", agent, v, src.Name)
			if got.Actionable() || !screentest.HasReason(got, recognizers.ReasonSecretInput) || !screentest.HasReason(got, recognizers.ReasonUnknownVersion) {
				t.Errorf("%s: %s, reasons %v", name, got.ScreenState, screentest.ReasonCodes(got))
			}
		}
	})
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
	eachRecorded(t, "question-secret", 1, required, func(agent, v string) {
		for _, as := range []string{v, "9.9.9"} {
			name := agent + "@" + v + " read as " + as
			r := recognizers.NewRecognizer(recognizers.Lookup(agent, as), recognizers.TestKey)
			markers := 0
			_, err := recordings.Replay(screentest.LoadCast(t, screentest.CastPath(agent, v, "question-secret")), vt.Options{}, func(s recordings.Step) error {
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
	})
}

// multiRows are a multi-select source's answer rows and its free-text
// row, or nil for any other source.
func multiRows(r *recognizers.Recognition) (answers []recognizers.Option, freeText recognizers.Option, ok bool) {
	if r.Prompt == nil || !r.Prompt.MultiSelect {
		return nil, freeText, false
	}
	for _, o := range screentest.Options(r) {
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
			screentest.SetText(s, boxAt(s, o)+1, o.Row, "✔")
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
	screentest.SetText(s, boxAt(s, answers[0])+1, answers[0].Row, "x")
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
	screentest.BlankRow(s, ft.Row+1)
	return s
}

// OpenCode's permission buttons: " Allow once ", " Allow always ",
// " Reject " on one row from column 5, a gap between them, the selected
// one on the warning colour.

// openCodeButtonRow returns the buttons' row, or -1 when the source has
// no button row (another agent, a question).
func openCodeButtonRow(r *recognizers.Recognition) int {
	opts := screentest.Options(r)
	if r.Agent != "opencode" || len(opts) != 3 || stacked(opts) {
		return -1
	}
	return opts[0].Row
}

// buttonsSwapped writes the second button's label over the first's
// ("Allow alway" in the first button's paint).
func buttonsSwapped(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	y := openCodeButtonRow(r)
	if y < 0 || !screentest.ReplaceText(s, y, "Allow once", "Allow alwa") {
		return nil
	}
	return s
}

// buttonMissing blanks the last button in the row's background.
func buttonMissing(s *vt.Screen, r *recognizers.Recognition, _ *vt.Screen) *vt.Screen {
	y := openCodeButtonRow(r)
	x := screentest.FindText(s, y, "Reject")
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
		x0, x := screentest.FindText(s, y, labels[0]), screentest.FindText(s, y, labels[2])
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
	x0, x := screentest.FindText(s, y, "Allow once"), screentest.FindText(s, y, "Reject")
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
		if screentest.ReplaceText(s, row, "select", "choose") {
			return s
		}
	}
	return nil
}
