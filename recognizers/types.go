package recognizers

import "github.com/agent-knock-knock/akk/contract"

// Recognition is what a profile makes of one screen. It is a value;
// slices in it may share memory with a Recognizer's cache and must not be
// modified.
type Recognition struct {
	Agent   string
	Version string
	Exact   bool   // an exact profile; false for the generic one
	Profile string // "claude@2.1.267", or "claude@generic"

	// QualifiedAs is the pinned version whose profile reads this binary's
	// screens under a qualification (Qualified); "" for a pinned or an
	// unknown version.
	QualifiedAs string
	// Qualification is the qualification the profile reads under (nil
	// for a pinned or unknown version). Read-only: the profile's.
	Qualification *Qualification

	ScreenState contract.ScreenState
	// Surface is the kind of screen the reading proved (SurfaceOf).
	Surface  Surface
	Composer contract.Composer
	// Draft is the composer's (or a free-text editor's) text, for local
	// renderings only (a person's own terminal, the popup): the public
	// projection carries "draft" and DraftLen, never the text.
	Draft    string
	DraftLen int // in characters

	Activity Activity

	// Blocked says why a Blocked screen is blocked by an API error, and
	// the facts it prints (nil otherwise).
	Blocked *Block

	// Clear is the profile's native way to empty the composer's whole
	// draft, set only when the screen proves the draft's shape (nil
	// otherwise: a user-explicit send refuses before any input).
	Clear *Clear
	// Stashed: Claude Code shows its stash chip (a draft stashed with
	// ctrl+s waits to come back).
	Stashed bool
	// DraftRestored: Claude Code shows its "Draft restored" notice where
	// the stash chip goes (a stashed draft came back after a submit). It
	// is not the stash chip.
	DraftRestored bool

	// Completion is the slash command the composer's completion list
	// highlights, what Enter would run, exactly as drawn ("/clear"). An
	// exact profile sets it only on an idle composer whose draft is one
	// row holding that command alone, with the list proven whole in the
	// shape its recordings show: its rows and columns, the description
	// column, exactly one entry in the highlight style, the typed command
	// highlighted (the only relation recorded); "" otherwise. It is
	// private like Draft (it is the draft's text).
	Completion string
	// NoCompletion: the screen proves that no completion list is drawn
	// over the draft, so Enter submits the line as typed instead of a
	// highlighted entry. Completion == "" does not say that: it is also
	// "" for any list not proven. An exact profile whose completion list
	// is recorded (Claude Code 2.1.267 and 2.1.332, Codex 0.155.1 and
	// 0.171.0; thread-new, thread-resume, thread-resume-id) sets it only
	// on an idle composer whose draft is one row starting with "/" (a
	// slash command, with or without an argument), when the place that
	// profile draws its list shows none:
	//   - Claude Code: the list always ends on the row right above the
	//     composer's upper rule, every row of it starting at the list's
	//     command column (its glyph's on 2.1.332) or its description
	//     column; here that row and every row up to the first blank one
	//     (16 at most) start right of the description
	//     column (the right-aligned effort line, stash chip or notice),
	//     or that row is blank;
	//   - Codex 0.155.1: the status line, proven as the composer reads it
	//     (the model at column 2 in its colour), is drawn in the place the
	//     completion row takes, on the screen's last row;
	//   - Codex 0.171.0: the rows its list takes over the composer (from
	//     the second row above it, 16 of them) hold no cell
	//     in reverse video, the style of its highlighted entry.
	// Never set with Completion; false everywhere else (another version,
	// the generic profile, a working composer, a draft of several rows or
	// without "/"). Private like Draft.
	NoCompletion bool
	// Picker is the session picker's list (a resume picker, read as
	// menu_or_viewer), set by an exact profile only when every row of
	// it is proven in a shape its recordings show; nil otherwise. It is
	// private like Draft: its titles are screen text.
	Picker *Picker
	// Status is the agent's own status result (/status), set by an exact
	// profile whose status is recorded (Claude Code 2.1.267 and 2.1.332,
	// Codex 0.155.1 and 0.171.0: status, status-policy-error,
	// status-ambiguous) only when the screen shows it whole in a shape
	// those recordings show, every row parsed and known (the agents'
	// screen packages, status.go); nil otherwise. It is private like Draft: its values
	// are screen text, a credential's only ever withheld (StatusField).
	Status *StatusPanel
	// ModelMenu is the agent's own model menu (/model: its model list,
	// Codex's effort list, Claude's switch confirmation), read as
	// menu_or_viewer, set by an exact profile whose menus are recorded
	// only when every row is proven in a shape those recordings show
	// (the agents' screen packages, model.go); nil otherwise. Private like
	// Draft: its rows are screen text.
	ModelMenu *ModelMenu
	// ModelNotice is the row /model printed last into the history, right
	// above an exact profile's composer: Claude's "Set model to …" or
	// "Kept model as …" under "❯ /model", Codex's "Model changed to …";
	// "" otherwise. Private like Draft.
	ModelNotice string

	// Prompt is the parsed prompt (every native row, as the screen shows
	// it), or nil. It is private: the public view is Interaction.
	Prompt *Prompt
	// Region is the rows of the isolated prompt region (or of the composer
	// frame when there is no prompt); Fingerprint is vt.Fingerprint over
	// exactly those rows, taken before any redaction.
	Region      Region
	Fingerprint [32]byte

	// Interaction is the public projection (seed 000 terminal-interaction
	// v1), or nil when the screen shows none.
	Interaction *contract.Interaction
	// Plan is the private key plan: for each semantic choice the exact keys
	// and the expected next state. Nil unless the interaction is pending.
	Plan *Plan
	// Reasons say why the interaction is manual_required (then they are
	// also in Interaction.Reasons), or why prompt-like text is not a
	// prompt (Interaction nil).
	Reasons []Reason
	// Warnings are shown to people and controllers (compatibility of a
	// generic profile).
	Warnings []string

	// Specs and Multi are what a grammar sets for the plan before ids
	// exist: one ChoiceSpec per choice, and a multi-select question's
	// plan beyond its toggles. The projection turns them into Plan; a
	// caller reads Plan, never these.
	Specs []ChoiceSpec
	Multi *MultiSpec
}

// Actionable reports whether a controller could act on the screen: an
// interaction is shown and it is pending.
func (r *Recognition) Actionable() bool {
	return r.Interaction.Pending()
}

// Clear is a composer-clearing step: Keys, after which the composer must
// be proven empty (and, when Stash, the stash chip shown).
type Clear struct {
	Keys  []byte
	Stash bool
}

// Picker is a session picker's list as drawn, top to bottom.
type Picker struct {
	Rows []PickerRow
	// Current is the index in Rows of the highlighted row (Enter resumes
	// it).
	Current int
	// Shown is len(Rows). Total is the number of sessions the picker
	// counts: Codex's "N / M" gives M (its N is the highlighted row's
	// position, proven to be Current+1); Claude prints no count, so it is
	// Shown.
	Shown, Total int
}

// PickerRow is one session of a picker.
type PickerRow struct {
	// Title is the session's title as drawn (Codex: its first prompt;
	// Claude: its AI title or first prompt).
	Title string
	// Detail is the rest of its entry as drawn: Codex's age ("16s ago"),
	// Claude's "N seconds ago · HEAD · <size>" line.
	Detail string
	// Truncated: the title ends in "…", so the drawn title is a cut of
	// the session's title and cannot name it exactly.
	Truncated bool
}

// StatusPanel is an agent's status result as drawn, top to bottom.
type StatusPanel struct {
	Fields []StatusField // at most maxStatusFields
}

// StatusField is one row of a status result.
type StatusField struct {
	// Name is the row's name as drawn, without its colon ("Session ID",
	// "Agents.md"): at most maxStatusName runes.
	Name string
	// Value is the row's value as drawn, a value the recordings show
	// wrapped joined with one space: at most maxStatusValue runes (a
	// longer one gives no StatusPanel, never a cut). "" when Redacted.
	Value string
	// Redacted: the row is shown but akk does not carry its value: a
	// credential's that is not one of the non-secret values its
	// recordings show, a URL that could carry credentials, or a row the
	// profile always withholds (status.go, StatusRow.Carry).
	Redacted bool
}

// Region is a band of whole screen rows, Top to Bottom inclusive; the zero
// value with Rows == 0 is empty.
type Region struct {
	Top, Rows int
}

// Empty reports whether the region holds no row.
func (r Region) Empty() bool { return r.Rows <= 0 }

// Bottom is the last row of the region.
func (r Region) Bottom() int { return r.Top + r.Rows - 1 }

// Activity is the screen's evidence of work in progress or done.
type Activity struct {
	// Spinner: the agent's animated status line is on screen (Claude's
	// glyph and gerund, Codex's "• Working" line).
	Spinner bool `json:"spinner"`
	// InterruptHint: "esc to interrupt" is offered.
	InterruptHint bool `json:"interrupt_hint"`
	// InterruptArmed: an interrupt is half given, the next key completes
	// it (OpenCode's "esc again to interrupt" after one Esc).
	InterruptArmed bool `json:"interrupt_armed,omitempty"`
	// Elapsed is the running timer as shown ("4s", "1m 2s"), if any.
	Elapsed string `json:"elapsed,omitempty"`
	// Done: a finished-turn line is shown (Claude "✻ Cooked for 16s");
	// DoneElapsed is its duration.
	Done        bool   `json:"done"`
	DoneElapsed string `json:"done_elapsed,omitempty"`
}

// Prompt is a recognized prompt with every native row as shown.
type Prompt struct {
	Kind contract.Kind
	// Step is the current step of a multi-step flow (1-based), or zero.
	Step contract.Step
	// Questions are the questions on screen, one for every kind here
	// (akk handles one step at a time).
	Questions []Question
	// Highlighted is the 0-based index of the highlighted row among
	// Questions[0].Options, or -1.
	Highlighted int
	// Decisions are the permission decisions the profile proves safe.
	Decisions []contract.Decision
	// Tool names what a permission dialog asks for (ToolShell, ...), set
	// only when the profile knows the dialog's title: a closed name,
	// never screen text.
	Tool contract.Tool
	// Pending is the number of queued Codex async questions (collapsed
	// summary and expanded editor).
	Pending int
	// MultiSelect: the question's rows are checkboxes (Option.Checked);
	// one answer toggles the rows it names and then moves to the review.
	MultiSelect bool
}

// Question is one question as the screen shows it.
type Question struct {
	Header string
	Prompt string
	// Options are every native row in screen order (nil for a free-text
	// step), including rows akk never offers (persistent grants, "Chat
	// about this").
	Options []Option
}

// Role says what a native row does, which decides whether and how it is
// offered.
type Role uint8

// Row roles.
const (
	RoleChoice     Role = iota // an ordinary answer supplied by the model
	RoleFreeText               // Claude "Type something.": the row is a text editor
	RoleNotes                  // Codex "None of the above": literal label, or Notes via tab
	RoleOther                  // Codex async "Other": opens a free-text step
	RoleChat                   // Claude "Chat about this": not offered
	RoleApprove                // one-time approval
	RolePersistent             // "always allow" / "don't ask again": never offered
	RoleAutoMode               // "switch to auto mode": never offered
	RoleReject                 // a semantic no
	RoleSubmit                 // a review's submit
	RoleCancel                 // a review's cancel / go back
)

// Option is one native row.
type Option struct {
	Number      int    // as printed
	Label       string // the row's label, without shortcut or description
	Description string
	Role        Role
	Row         int // screen row of its number
	// Checked: a multi-select row's checkbox shows its tick.
	Checked bool
}
