package screen

import (
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// Codex's exact versions, each its own value (so its own Profile). Add a
// version only with its recordings in recordings/testdata.
var (
	codex0_153_4 = codex0_153_4Grammar()
	codex0_154_0 = codex0xBase
	codex0_155_1 = codex0_155_1Grammar()
	codex0_171_0 = codex0_171_0Grammar()
)

// codexVersions are the registered versions. Those whose thread, status
// and model surfaces are recorded the whole way (thread-new,
// thread-resume, thread-resume-id, status, model-menu, model-catalog;
// recordings/rig/threads.go, inspect_codex.go, model_catalog_*.go) carry
// them: /new and /resume ask for no confirmation, /status prints its card
// above the composer (nothing to dismiss). 0.171.0's model list scrolls
// onto unnumbered rows no profile reads yet: it has no model control.
var codexVersions = []recognizers.Version{
	{Version: "0.153.4", Grammar: &codex0_153_4},
	{Version: "0.154.0", Grammar: &codex0_154_0},
	{Version: "0.155.1", Grammar: &codex0_155_1, Threads: &codexThreads, Inspect: &codexInspect,
		Model: &recognizers.ModelControlProfile{Command: "/model", Scope: "current_and_new_sessions", Set: []byte("\r"), EffortPopup: true,
			TwoStep:    []string{"gpt-6-astra", "gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna", "gpt-5.5"},
			NotOffered: []string{"More reasoning…"}, Repair: true, Applied: codexApplied("")}},
	{Version: "0.171.0", Grammar: &codex0_171_0, Threads: &codexThreads, Inspect: &codexInspect},
}

var (
	codexThreads = recognizers.ThreadProfile{New: "/new", Resume: "/resume"}
	codexInspect = recognizers.InspectProfile{Status: "/status"}
)

// An unknown version is read with each exact grammar, newest first.
func init() {
	recognizers.Register(recognizers.Grammars{Agent: "codex", Versions: codexVersions,
		Generic: []recognizers.Grammar{&codex0_171_0, &codex0_155_1, &codex0_153_4}})
}

// codex0_155_1Grammar: while a turn runs, Codex 0.155.1 replaces its
// status line under a draft with a dim "tab to queue message" and a dim
// right-aligned "NN% context left" (send-working). A slash command typed
// at rest replaces it with its completion row (slashPopup); /resume opens
// its session picker (thread-new, thread-resume). /status prints its card
// in a dim box, names at column 3 (status, status-ambiguous:
// status.go).
func codex0_155_1Grammar() codex0x {
	c := codex0xBase
	c.queueRow = []styledRun{{"tab to queue message", recognizers.Plain().Dim().Style()}}
	c.queueContext = "% context left"
	c.slashPopup = true
	c.picker = &codexPicker{
		title:      "Resume a previous session",
		titleStyle: recognizers.FgIdx(6).Bold().Style(),
		header:     []string{"Type to search                              Filter: [Cwd] All    Status: [Active] Archived    Sort: [Updated] Created"},
		glyph:      '❯',
		hints: [2]string{
			"enter resume   ctrl+a archive   esc exit   ctrl+c exit   tab focus sort/filter   ←/→ change option",
			"ctrl+o comfortable view   ctrl+t transcript   ctrl+e expand   ↑/↓ browse",
		},
		curGlyph: recognizers.FgIdx(3).Bold().Style(), curAge: recognizers.FgIdx(3).Dim().Style(), curTitle: recognizers.FgIdx(3).Style(),
		age: recognizers.Plain().Dim().Style(),
	}
	c.model = &codexModel{gap: 1, subtitle: "Access legacy models by running codex -m <model_name> or in your config.toml",
		hlLabel: recognizers.FgIdx(6).Bold().Style(), hlDesc: recognizers.FgIdx(6).Bold().Style(),
		listHints: []string{codexModelHint155}, effortHints: []string{codexModelHint155}}
	c.status = &codexStatus{boxed: true, header: ">_ OpenAI Codex (v0.155.1)", glyph: recognizers.Plain().Dim().Style(),
		layout: codexStatusLayout(3, 3, codexStatusRows(false))}
	return c
}

// codex0_171_0Grammar: Codex 0.171.0 runs on the alternate screen with a
// row of key hints under the status line, highlights the current row in
// reverse video, colours the status line and questions differently. While
// a turn runs, a draft turns the hints row into "tab to queue message",
// "tab" in bold (send-working). Its async questions show only while the
// turn runs (async-question, async-working, async-queue-text,
// async-working-queue): shift+← opens them ("shift+← to answer", the key
// bold, the rest dim), the count in bold colour 75, two blank rows under
// the header of the open editor, its question in colour 75, the footer's
// keys bold ("enter submit   ^] skip   shift+→ main prompt   shift+← next
// question"); the history prints them as "? <question>" over "  • <option>"
// rows. At the turn's end an answer typed but not sent moves into the
// composer with an empty line (draftBlankRows). A slash command typed at
// rest shows its completion row over the composer (slashAbove); /resume
// opens its session picker with the filters above the search box, keys
// written "^a" (thread-new, thread-resume). /status prints its card
// unboxed, names at column 2, with a Thread name row once the thread has
// a prompt (status, status-ambiguous).
func codex0_171_0Grammar() codex0x {
	c := codex0xBase
	c.queueRow = []styledRun{{"tab", recognizers.Plain().Bold().Style()}, {" to queue message", recognizers.Plain().Style()}}
	c.rowLit = []vt.Style{recognizers.Plain().Bold().Reverse().Style(), recognizers.Plain().Reverse().Style()}
	c.permMenu.Painted, c.qMenu.Painted = true, true
	c.statusModel = recognizers.Fg256(223).Style()
	c.qPrompt = recognizers.Fg256(75).Style()
	c.hintsRow = true
	c.statusWraps = true
	c.hints = []string{"for agents · ? for shortcuts", "to view"}
	c.draftBlankRows = true
	c.asyncGap = 2
	c.asyncKey = recognizers.Plain().Bold().Style()
	c.asyncSegs = []string{"^] skip", "shift+→ main prompt", "shift+← next question", "shift+← queued messages"}
	c.asyncPrompt = recognizers.Fg256(75).Style()
	c.asyncCount = recognizers.Fg256(75).Bold().Style()
	c.asyncOpenRow = []styledRun{{"shift+←", recognizers.Plain().Bold().Style()}, {" to answer", recognizers.Plain().Dim().Style()}}
	c.asyncOpenKey = keyShiftLeft
	c.printedMark, c.printedItem = "? ", "• "
	c.slashAbove = &codexSlashRow{head: recognizers.Plain().Bold().Reverse().Style(), desc: recognizers.Plain().Reverse().Style()}
	c.picker = &codexPicker{
		title:      "Resume a previous session",
		titleStyle: recognizers.Plain().Bold().Style(),
		header:     []string{"Filter:  Cwd  All    Status:  Active  Archived    Sort:  Updated  Created", "Type to search"},
		glyph:      '›',
		hints: [2]string{
			"enter resume   ^a archive   esc exit   ^c exit   tab focus sort/filter   ←/→ change option",
			"^o comfortable view   ^t transcript   ^e expand   ↑/↓ browse",
		},
		curGlyph: recognizers.Plain().Bold().Reverse().Style(), curAge: recognizers.Plain().Reverse().Style(), curTitle: recognizers.Plain().Bold().Reverse().Style(),
		curPadded: true, age: recognizers.Plain().Style(), titleColoured: true,
	}
	c.model = &codexModel{gap: 2, hlLabel: recognizers.Plain().Bold().Reverse().Style(), hlDesc: recognizers.Plain().Reverse().Style(),
		listHints: []string{"enter select · esc back"}, effortHints: []string{"enter default · s session · esc back"},
		sessionHint: "enter default · s session · esc back", scroll: recognizers.Fg256(75).Style(), unnumbered: true}
	c.status = &codexStatus{header: ">_ OpenAI Codex (v0.171.0)", glyph: recognizers.Fg256(75).Style(),
		layout: codexStatusLayout(2, 2, codexStatusRows(true))}
	return c
}

// codex0_153_4Grammar: Codex 0.153.4 has no request_user_input_async (its
// recordings have no async surface; seed 000: added in 0.154.0).
func codex0_153_4Grammar() codex0x {
	c := codex0xBase
	c.asyncSupported = false
	return c
}
