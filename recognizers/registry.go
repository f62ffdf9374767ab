package recognizers

import (
	"slices"

	"github.com/agent-knock-knock/akk/vt"
)

// Each exact version is its own value (so its own Profile): an offer made
// under one version can never be taken under another, and a version whose
// screens drift gets its own fields without touching its neighbours.
// Add a version only with its recordings in recordings/testdata.
var (
	claude2_1_263   = claude21Base
	claude2_1_266   = claude21Base
	claude2_1_267   = claude2_1_267Grammar()
	claude2_1_332   = claude2_1_332Grammar()
	codex0_153_4    = codex0_153_4Grammar()
	codex0_154_0    = codex0xBase
	codex0_155_1    = codex0_155_1Grammar()
	codex0_171_0    = codex0_171_0Grammar()
	gemini0_61_0    = gemini0xBase
	openCode1_18_33 = openCode1xBase

	// The versions whose screens are recorded in Claude Code's themes.
	claude2_1_267Themed = withThemes(&claude2_1_267, claudeThemes(246))
	claude2_1_332Themed = withThemes(&claude2_1_332, claudeThemes(245))
)

// codex0_155_1Grammar: while a turn runs, Codex 0.155.1 replaces its
// status line under a draft with a dim "tab to queue message" and a dim
// right-aligned "NN% context left" (send-working). A slash command typed
// at rest replaces it with its completion row (slashPopup); /resume opens
// its session picker (thread-new, thread-resume). /status prints its card
// in a dim box, names at column 3 (status, status-ambiguous:
// codex_status.go).
func codex0_155_1Grammar() codex0x {
	c := codex0xBase
	c.queueRow = []styledRun{{"tab to queue message", plain().dim().vt()}}
	c.queueContext = "% context left"
	c.slashPopup = true
	c.picker = &codexPicker{
		title:      "Resume a previous session",
		titleStyle: fgIdx(6).bold().vt(),
		header:     []string{"Type to search                              Filter: [Cwd] All    Status: [Active] Archived    Sort: [Updated] Created"},
		glyph:      '❯',
		hints: [2]string{
			"enter resume   ctrl+a archive   esc exit   ctrl+c exit   tab focus sort/filter   ←/→ change option",
			"ctrl+o comfortable view   ctrl+t transcript   ctrl+e expand   ↑/↓ browse",
		},
		curGlyph: fgIdx(3).bold().vt(), curAge: fgIdx(3).dim().vt(), curTitle: fgIdx(3).vt(),
		age: plain().dim().vt(),
	}
	c.model = &codexModel{gap: 1, subtitle: "Access legacy models by running codex -m <model_name> or in your config.toml",
		hlLabel: fgIdx(6).bold().vt(), hlDesc: fgIdx(6).bold().vt(),
		listHints: []string{codexModelHint155}, effortHints: []string{codexModelHint155}}
	c.status = &codexStatus{boxed: true, header: ">_ OpenAI Codex (v0.155.1)", glyph: plain().dim().vt(),
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
	c.queueRow = []styledRun{{"tab", plain().bold().vt()}, {" to queue message", plain().vt()}}
	c.rowLit = []vt.Style{plain().bold().reverse().vt(), plain().reverse().vt()}
	c.permMenu.painted, c.qMenu.painted = true, true
	c.statusModel = fg256(223).vt()
	c.qPrompt = fg256(75).vt()
	c.hintsRow = true
	c.statusWraps = true
	c.hints = []string{"for agents · ? for shortcuts", "to view"}
	c.draftBlankRows = true
	c.asyncGap = 2
	c.asyncKey = plain().bold().vt()
	c.asyncSegs = []string{"^] skip", "shift+→ main prompt", "shift+← next question", "shift+← queued messages"}
	c.asyncPrompt = fg256(75).vt()
	c.asyncCount = fg256(75).bold().vt()
	c.asyncOpenRow = []styledRun{{"shift+←", plain().bold().vt()}, {" to answer", plain().dim().vt()}}
	c.asyncOpenKey = keyShiftLeft
	c.printedMark, c.printedItem = "? ", "• "
	c.slashAbove = &codexSlashRow{head: plain().bold().reverse().vt(), desc: plain().reverse().vt()}
	c.picker = &codexPicker{
		title:      "Resume a previous session",
		titleStyle: plain().bold().vt(),
		header:     []string{"Filter:  Cwd  All    Status:  Active  Archived    Sort:  Updated  Created", "Type to search"},
		glyph:      '›',
		hints: [2]string{
			"enter resume   ^a archive   esc exit   ^c exit   tab focus sort/filter   ←/→ change option",
			"^o comfortable view   ^t transcript   ^e expand   ↑/↓ browse",
		},
		curGlyph: plain().bold().reverse().vt(), curAge: plain().reverse().vt(), curTitle: plain().bold().reverse().vt(),
		curPadded: true, age: plain().vt(), titleColoured: true,
	}
	c.model = &codexModel{gap: 2, hlLabel: plain().bold().reverse().vt(), hlDesc: plain().reverse().vt(),
		listHints: []string{"enter select · esc back"}, effortHints: []string{"enter default · s session · esc back"},
		sessionHint: "enter default · s session · esc back", scroll: fg256(75).vt(), unnumbered: true}
	c.status = &codexStatus{header: ">_ OpenAI Codex (v0.171.0)", glyph: fg256(75).vt(),
		layout: codexStatusLayout(2, 2, codexStatusRows(true))}
	return c
}

// claude2_1_267Grammar: Claude Code 2.1.267 stashes a draft with ctrl+s,
// shows "› stashed" while it waits and "Draft restored" when a submit
// brought it back, in grey (stash-send, stash-empty, stash-multiline,
// stash-working). At 80 columns its persistent grant's path wraps onto
// one continuation row under the label (permission-narrow). It asks for
// the tools other than Bash with their own dialogs (toolDialogs). /resume
// opens its session picker (thread-resume); a slash command typed opens
// its completion list, commands at column 2 (thread-new, thread-resume).
// /status opens the settings panel's Status tab at column 3 over "Esc to
// cancel" in grey (status, status-policy-error: claude_status.go).
func claude2_1_267Grammar() claude21 {
	c := claude21Base
	c.permDialogs = append(slices.Clip(c.permDialogs), toolDialogs...)
	c.plan = claudePlanFrame(4)
	c.footerModes = append(slices.Clip(c.footerModes), claudePlanMode)
	c.stashKey, c.stashChip, c.restoredNotice, c.notice = []byte{0x13}, "› stashed", "Draft restored", fg256(246).vt()
	c.wrapProven = claudeWrapProven
	c.picker = &claudePicker{x: 3, hintX: 5, hints: "Ctrl+A to show all projects · Ctrl+B to only show current branch · Space to preview · Ctrl+R to rename · Type to search · Esc to cancel"}
	c.completionList = &claudeCompletion{cmdX: 2, descX: 32}
	c.model = &claudeModel{x: 3, descX: 33, hints: "Enter to set as default · s to use this session only · Esc to cancel",
		hintStyle: fg256(246).vt(), efforts: claudeEfforts267, effortRing: true, note: fg256(239).vt()}
	c.status = &claudeStatus{x: 3, hint: "Esc to cancel", hintStyle: fg256(246).vt(),
		layout: claudeStatusLayout(3, claudeStatusRows(true))}
	return c
}

// claudeWrapProven: the rows 2.1.267 and 2.1.332 show wrapped onto one
// continuation row: the persistent grant's path (permission-narrow,
// bash-long-80, any long cwd) and, at 60 columns, auto mode's description
// (permission-approve-w60).
var claudeWrapProven = []string{"Yes, and always allow access to ", "Yes, and switch to auto mode "}

// claude2_1_332Grammar: Claude Code 2.1.332's review has no "Ready to
// submit your answers?" line, and it has an auto mode; its stash chip is
// "draft stashed", its notice "draft restored" (its recordings). Its
// dialogs for tools other than Bash are 2.1.267's; at 80 columns its
// persistent grant's path wraps as 2.1.267's does (bash-long-80). Its
// session picker sits at column 2 and adds "Enter to resume" to the hints
// (thread-resume); its completion list marks the highlighted command
// with "❯ " at column 2, commands at column 4 (thread-new, thread-resume).
// Its Status tab sits at column 2 over "←/→ to switch · Esc to close" in
// grey italics, always with "Managed settings (remote)", and ends with
// "Auto mode server" and a "Features" notice wrapped over several rows
// (status, status-policy-error).
func claude2_1_332Grammar() claude21 {
	c := claude21Base
	c.permDialogs = append(slices.Clip(c.permDialogs), toolDialogs...)
	c.plan = claudePlanFrame(3)
	c.maxWraps = 2 // the grant's path and "project" at 60 columns (permission-approve-w60)
	c.footerModes = append(slices.Clip(c.footerModes), claudePlanMode)
	c.wrapProven = claudeWrapProven
	c.stashKey, c.stashChip, c.restoredNotice, c.notice = []byte{0x13}, "draft stashed", "draft restored", fg256(246).vt()
	c.reviewPrompt = ""
	c.picker = &claudePicker{x: 2, hintX: 2, hints: "Ctrl+A to show all projects · Ctrl+B to only show current branch · Space to preview · Ctrl+R to rename · Type to search · Enter to resume · Esc to close"}
	c.completionList = &claudeCompletion{cmdX: 4, descX: 32, glyph: true}
	c.model = &claudeModel{x: 2, descX: 32, hints: "s to use this session only · Enter to save · Esc to cancel",
		hintStyle: fg256(246).italic().vt(), confirmHint: "Enter to confirm · Esc to cancel", efforts: claudeEfforts332, note: fg256(246).vt()}
	c.status = &claudeStatus{x: 2, hint: "←/→ to switch · Esc to close", hintStyle: fg256(246).italic().vt(),
		layout: claudeStatusLayout(2, append(claudeStatusRows(false),
			statusRow{name: "Auto mode server", group: 1},
			// Features is a notice about what the environment turns off,
			// over 200 characters in every recording (its bound): withheld.
			statusRow{name: "Features", group: 1, wraps: true, link: true, carry: carryNever}))}
	// Auto mode (2.1.332's default without settings) names itself in its
	// own colour.
	c.footerModes = append(slices.Clip(c.footerModes), footerMode{mode: "⏵⏵ auto mode on (shift+tab to cycle)", lit: "⏵⏵ auto mode on", accent: fg256(220).vt()})
	return c
}

// codex0_153_4Grammar: Codex 0.153.4 has no request_user_input_async (its
// recordings have no async surface; seed 000: added in 0.154.0).
func codex0_153_4Grammar() codex0x {
	c := codex0xBase
	c.asyncSupported = false
	return c
}

// registry is the registration table: agent@exact-version -> profile.
var registry = map[string]Profile{
	"claude@2.1.263":   {Agent: "claude", Version: "2.1.263", Exact: true, grammar: &claude2_1_263},
	"claude@2.1.266":   {Agent: "claude", Version: "2.1.266", Exact: true, grammar: &claude2_1_266},
	"claude@2.1.267":   {Agent: "claude", Version: "2.1.267", Exact: true, grammar: claude2_1_267Themed},
	"claude@2.1.332":   {Agent: "claude", Version: "2.1.332", Exact: true, grammar: claude2_1_332Themed},
	"codex@0.153.4":    {Agent: "codex", Version: "0.153.4", Exact: true, grammar: &codex0_153_4},
	"codex@0.154.0":    {Agent: "codex", Version: "0.154.0", Exact: true, grammar: &codex0_154_0},
	"codex@0.155.1":    {Agent: "codex", Version: "0.155.1", Exact: true, grammar: &codex0_155_1},
	"codex@0.171.0":    {Agent: "codex", Version: "0.171.0", Exact: true, grammar: &codex0_171_0},
	"gemini@0.61.0":    {Agent: "gemini", Version: "0.61.0", Exact: true, grammar: &gemini0_61_0},
	"opencode@1.18.33": {Agent: "opencode", Version: "1.18.33", Exact: true, grammar: &openCode1_18_33},
}

// generic is how an unknown version of an agent is read: with each exact
// grammar of the agent, newest first, keeping the first that knows the
// screen. Its interactions are all manual_required (unknown_version).
var generic = map[string]grammar{
	"claude":   genericGrammar{claude2_1_332Themed, claude2_1_267Themed},
	"codex":    genericGrammar{&codex0_171_0, &codex0_155_1, &codex0_153_4},
	"gemini":   genericGrammar{&gemini0_61_0},
	"opencode": genericGrammar{&openCode1_18_33},
}
