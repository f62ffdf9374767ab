package screen

import (
	"slices"

	"github.com/agent-knock-knock/akk/recognizers"
)

// Claude Code's exact versions. Each is its own value (so its own
// Profile): an offer made under one version can never be taken under
// another, and a version whose screens drift gets its own fields without
// touching its neighbours. Add a version only with its recordings in
// recordings/testdata.
var (
	claude2_1_263 = claude21Base
	claude2_1_266 = claude21Base
	claude2_1_267 = claude2_1_267Grammar()
	claude2_1_332 = claude2_1_332Grammar()

	// The versions whose screens are recorded in Claude Code's themes.
	claude2_1_267Themed = withThemes(&claude2_1_267, claudeThemes(246))
	claude2_1_332Themed = withThemes(&claude2_1_332, claudeThemes(245))
)

// claudeVersions are the registered versions. Those whose thread,
// status and model surfaces are recorded the whole way (thread-new,
// thread-resume, thread-resume-id, status, model-menu, model-session;
// recordings/rig/threads.go, inspect_claude.go, inspect_claude_model.go)
// carry them: no version asks for a confirmation of /clear or /resume,
// the Status panel closes with Esc, and "s" in the model picker sets the
// model for this session only.
var claudeVersions = []recognizers.Version{
	{Version: "2.1.263", Grammar: &claude2_1_263},
	{Version: "2.1.266", Grammar: &claude2_1_266},
	{Version: "2.1.267", Grammar: claude2_1_267Themed, Threads: &claudeThreads, Inspect: &claudeInspect,
		Model: &recognizers.ModelControlProfile{Command: "/model", Scope: "current_session", Set: []byte("s"),
			Efforts: claudeEfforts267, EffortRing: true, Applied: claudeApplied}},
	{Version: "2.1.332", Grammar: claude2_1_332Themed, Threads: &claudeThreads, Inspect: &claudeInspect,
		Model: &recognizers.ModelControlProfile{Command: "/model", Scope: "current_session", Set: []byte("s"),
			Efforts: claudeEfforts332, Applied: claudeApplied}},
}

var (
	claudeThreads = recognizers.ThreadProfile{New: "/clear", Resume: "/resume"}
	claudeInspect = recognizers.InspectProfile{Status: "/status", Dismiss: []byte{0x1b}}
)

// An unknown version is read with each exact grammar, newest first.
func init() {
	recognizers.Register(recognizers.Grammars{Agent: "claude", Versions: claudeVersions,
		Generic: []recognizers.Grammar{claude2_1_332Themed, claude2_1_267Themed}})
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
// cancel" in grey (status, status-policy-error: status.go).
func claude2_1_267Grammar() claude21 {
	c := claude21Base
	c.permDialogs = append(slices.Clip(c.permDialogs), toolDialogs...)
	c.plan = claudePlanFrame(4)
	c.footerModes = append(slices.Clip(c.footerModes), claudePlanMode)
	c.stashKey, c.stashChip, c.restoredNotice, c.notice = []byte{0x13}, "› stashed", "Draft restored", recognizers.Fg256(246).Style()
	c.wrapProven = claudeWrapProven
	c.picker = &claudePicker{x: 3, hintX: 5, hints: "Ctrl+A to show all projects · Ctrl+B to only show current branch · Space to preview · Ctrl+R to rename · Type to search · Esc to cancel"}
	c.completionList = &claudeCompletion{cmdX: 2, descX: 32}
	c.model = &claudeModel{x: 3, descX: 33, hints: "Enter to set as default · s to use this session only · Esc to cancel",
		hintStyle: recognizers.Fg256(246).Style(), efforts: claudeEfforts267, effortRing: true, note: recognizers.Fg256(239).Style()}
	c.status = &claudeStatus{x: 3, hint: "Esc to cancel", hintStyle: recognizers.Fg256(246).Style(),
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
	c.stashKey, c.stashChip, c.restoredNotice, c.notice = []byte{0x13}, "draft stashed", "draft restored", recognizers.Fg256(246).Style()
	c.reviewPrompt = ""
	c.picker = &claudePicker{x: 2, hintX: 2, hints: "Ctrl+A to show all projects · Ctrl+B to only show current branch · Space to preview · Ctrl+R to rename · Type to search · Enter to resume · Esc to close"}
	c.completionList = &claudeCompletion{cmdX: 4, descX: 32, glyph: true}
	c.model = &claudeModel{x: 2, descX: 32, hints: "s to use this session only · Enter to save · Esc to cancel",
		hintStyle: recognizers.Fg256(246).Italic().Style(), confirmHint: "Enter to confirm · Esc to cancel", efforts: claudeEfforts332, note: recognizers.Fg256(246).Style()}
	c.status = &claudeStatus{x: 2, hint: "←/→ to switch · Esc to close", hintStyle: recognizers.Fg256(246).Italic().Style(),
		layout: claudeStatusLayout(2, append(claudeStatusRows(false),
			recognizers.StatusRow{Name: "Auto mode server", Group: 1},
			// Features is a notice about what the environment turns off,
			// over 200 characters in every recording (its bound): withheld.
			recognizers.StatusRow{Name: "Features", Group: 1, Wraps: true, Link: true, Carry: recognizers.CarryNever}))}
	// Auto mode (2.1.332's default without settings) names itself in its
	// own colour.
	c.footerModes = append(slices.Clip(c.footerModes), footerMode{mode: "⏵⏵ auto mode on (shift+tab to cycle)", lit: "⏵⏵ auto mode on", accent: recognizers.Fg256(220).Style()})
	return c
}
