// Package refusaltest is the table of dispatch refusals two tiers run, over
// every agent's recorded surfaces (so it lives beside the registry, the
// one place that knows them all):
// the unit tier against a fake terminal that serves recorded screens
// through vt and the recognizers (supervisor/dispatch), the tmux tier
// against strict replicas, which end clean only if they received exactly
// their recorded inputs (supervisor). Each case names a recorded surface,
// the marker where the controller calls status, a fault made between the
// status and the call, and the call. With the fault the call is refused
// with its reason and nothing is typed; without it (unless FaultOnly) the
// same call is accepted, which proves the refusal is the fault's.
package refusaltest

import (
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// Fault is what changes between the status and the call.
type Fault string

// The faults. Each runner makes every fault it supports; a case whose
// fault the tmux tier cannot make says why in UnitOnly.
const (
	NoFault          Fault = ""
	MoveOn           Fault = "move_on"           // the recording plays on Markers markers past the next one
	ExpireOffers     Fault = "expire_offers"     // the offer is past its TTL: the live recheck decides
	ExpireMoveOn     Fault = "expire_move_on"    // both: past its TTL, and the screen moved on
	PastHorizon      Fault = "past_horizon"      // the offer is past its horizon
	ForgetOffers     Fault = "forget_offers"     // no offer (a restarted daemon)
	OtherCwd         Fault = "other_cwd"         // the agent's cwd is not the one the status saw
	OtherIncarnation Fault = "other_incarnation" // the agent process is not the one the status saw
	OtherBinding     Fault = "other_binding"     // the native session binding moved on
	Fenced           Fault = "fenced"            // the prompt was answered before (its fence is written)
	Stale            Fault = "stale"             // the screen model is re-seeding
	Busy             Fault = "busy"              // another mutation holds the terminal lock
	Gone             Fault = "gone"              // the pane went away (the barrier fails)
	Respawned        Fault = "respawned"         // the terminal's id names another process now
	StoreDown        Fault = "store_down"        // the journal refuses every write
	StoreUnavailable Fault = "store_unavailable" // the store cannot be written (full disk): store.ErrUnavailable
	NotAgent         Fault = "not_agent"         // a shell runs in the pane, not the agent
	NoSessionFile    Fault = "no_session_file"   // the bound native session file cannot be read
	Frozen           Fault = "frozen"            // the pane takes input but its screen never moves on
	NotExactWatch    Fault = "not_exact_watch"   // the watch_id names a Watch that may not answer
	Tick             Fault = "tick"              // the recording plays on up to its next input (the working row redraws)
	Remapped         Fault = "remapped"          // the agent's keybindings rebind a key the send presses
	Redrawn          Fault = "redrawn"           // the agent redraws its question with another option set (Redraw)
	CopyMode         Fault = "copy_mode"         // a person put the pane in tmux's copy-mode
	ViewMode         Fault = "view_mode"         // tmux shows a command's output over the pane (view-mode)
	TreeMode         Fault = "tree_mode"         // choose-tree runs in the pane
	InputOff         Fault = "input_off"         // select-pane -d: tmux drops the pane's input
	Synchronized     Fault = "synchronized"      // synchronize-panes is on for the pane
)

// Redraw is one change of a Redrawn fault, written over the screen as
// the agent would draw it: the row holding At is deleted (Drop: the
// rows below move up), or Write is written from At's first column
// (Write may carry SGR; cells past it keep what they show).
type Redraw struct {
	At, Write string
	Drop      bool
}

// Call is the request a case makes.
type Call string

// The calls.
const (
	ApproveTerminal  Call = "approve_terminal"   // approve_once by terminal_id
	RejectTerminal   Call = "reject_terminal"    // reject by terminal_id
	ApproveAsOther   Call = "approve_as_other"   // approve_once by another controller
	RespondOption    Call = "respond_option"     // option Option of the current question, with Text
	RespondFreeText  Call = "respond_free_text"  // the question's free_text option, with Text
	RespondOtherID   Call = "respond_other_id"   // option Option, under another interaction id
	RespondUnknownID Call = "respond_unknown_id" // an option id the prompt does not offer
	RespondAsMCP     Call = "respond_as_mcp"     // option Option by terminal_id, from an MCP controller
	SendTerminal     Call = "send_terminal"      // send Text to the terminal
	SendSession      Call = "send_session"       // send Text to a session id nobody is bound to
	ApproveUnknown   Call = "approve_unknown"    // approve a terminal id that does not exist
	ApproveTurn      Call = "approve_turn"       // approve_once by the turn_id of Turn
	CancelTurn       Call = "cancel_turn"        // cancel the turn_id of Turn
	AnswerTurn       Call = "answer_turn"        // answer the turn_id of Turn with Text
	RespondWatch     Call = "respond_watch"      // option Option through a watch_id that cannot answer
	SendUser         Call = "send_user"          // a user-explicit send of Text to the terminal
	SendNoTarget     Call = "send_no_target"     // send Text naming no target
	SendBadMode      Call = "send_bad_mode"      // send Text to the terminal with mode session_exact
)

// Turn is the managed Turn a turn call names, as the unit runner writes
// it to the store.
type Turn string

// The Turns.
const (
	NoTurn        Turn = ""
	OwnTurn       Turn = "own"       // the caller's, open, on this terminal's process
	OthersTurn    Turn = "others"    // another controller's
	SettledTurn   Turn = "settled"   // the caller's, done
	ClosedTurn    Turn = "closed"    // the caller's, closed
	MissingTurn   Turn = "missing"   // no such Turn
	OldTurn       Turn = "old"       // the caller's, sent to a process that is gone
	ElsewhereTurn Turn = "elsewhere" // the caller's, on a terminal that is gone
	// AnswerableTurn: the caller's, completed with the agent's own text,
	// on this process and binding; SupersededTurn: the same, with a newer
	// Turn sent to the terminal since; PromptedTurn: the same, and the
	// agent's file took a prompt after its end (a person's).
	AnswerableTurn Turn = "answerable"
	SupersededTurn Turn = "superseded"
	PromptedTurn   Turn = "prompted"
)

// Case is one row of the table.
type Case struct {
	Name string
	// Agent, Version and Recording name the surface: Version "A>B" plays
	// version A's recording as version B (no profile knows B).
	Agent, Version, Recording string
	// Marker is the marker the status is made at (-1: the start, up to
	// the recording's first input).
	Marker int
	Fault  Fault
	// Markers is MoveOn's extra markers.
	Markers int
	Call    Call
	Option  int
	// Select are the options of a multi-select answer (Option unused).
	Select []int
	Text   string
	// Kind overrides the response_kind sent ("": the question's).
	Kind contract.ResponseKind
	// Delivery is the delivery_mode of an async answer ("": the default).
	Delivery contract.DeliveryMode
	Turn     Turn
	// Outcome and Reason are what the call gets with the fault.
	Outcome, Reason string
	// FaultOnly: the case has no faultless twin (the fault is the setup).
	FaultOnly bool
	// Inputs is how many recorded inputs the accepted twin sends
	// (default 1).
	Inputs int
	// NoAction names an available action the status must not advertise.
	NoAction string
	// UnitOnly says why the tmux tier cannot run the case ("": both run it).
	UnitOnly string
	// Redraw is the Redrawn fault's changes, in order; Redrawn is the
	// option labels the question shows after them, under the same
	// header and prompt (the runners check it before the call).
	Redraw  []Redraw
	Redrawn []string
}

// Surface is the case's surface as one string.
func (c Case) Surface() string { return c.Agent + "/" + c.Version + "/" + c.Recording }

// RecordedVersion is the version whose recording the case plays.
func (c Case) RecordedVersion() string { v, _, _ := strings.Cut(c.Version, ">"); return v }

// ShownVersion is the version the agent claims to be.
func (c Case) ShownVersion() string {
	if _, b, ok := strings.Cut(c.Version, ">"); ok {
		return b
	}
	return c.Version
}

// Why the unit tier alone runs a case.
const (
	unitLock  = "needs a mutation in progress at the moment of the call"
	unitStale = "needs a mirror re-seeding at the call, which the tmux tier cannot time"
	unitGone  = "needs the pane to vanish between the status and the barrier"
	unitTurn  = "needs a Turn or Watch record the unit runner writes to the store; TestTmuxCancel and " +
		"TestTmuxManagedSendCallbacks cover Turns against strict replicas"
	unitShell   = "needs a pane whose process is no agent, not a replica"
	unitFile    = "a replica has no native session file"
	unitFrozen  = "a strict replica always answers its recorded input"
	unitStore   = "needs a store that refuses writes"
	unitBinding = "a replica has no native session to bind"
	unitTick    = "a strict replica plays its redraws on its own clock; the unit runner plays them between the status and the call"
	unitKeymap  = "needs the agent's keybindings rebound, which the unit runner's Keymaps fakes"
	unitAlone   = "needs the case's terminal alone: the tmux runner's server keeps earlier cases' panes, one of " +
		"which may still look ready"
)

// Cases is the table.
var Cases = []Case{
	{Name: "prompt changed between status and respond", Agent: "claude", Version: "2.1.267", Recording: "several-questions",
		Fault: MoveOn, Markers: 1, Call: RespondOption, Option: 0, Outcome: api.OutcomeRejected, Reason: api.ReasonPromptChanged},
	{Name: "another option highlighted", Agent: "claude", Version: "2.1.267", Recording: "type-something",
		Fault: MoveOn, Call: RespondOption, Option: 3, Text: "Purple", Outcome: api.OutcomeRejected, Reason: api.ReasonPromptChanged, Inputs: 5},
	{Name: "expired offer, screen changed", Agent: "codex", Version: "0.155.1", Recording: "question-notes",
		Fault: ExpireMoveOn, Call: RespondFreeText, Text: "Purple please", Outcome: api.OutcomeRejected, Reason: api.ReasonPromptChanged, Inputs: 6},
	{Name: "expired offer, same screen (live recheck passes)", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Fault: ExpireOffers, Call: RespondOption, Option: 1, Outcome: api.OutcomeAccepted, FaultOnly: true},
	{Name: "an offer past ten minutes, same screen (live recheck passes)", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Fault: PastHorizon, Call: RespondOption, Option: 1, Outcome: api.OutcomeAccepted, FaultOnly: true},
	{Name: "no status by this controller", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Fault: ForgetOffers, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonNoOffer},
	{Name: "another controller's offer", Agent: "claude", Version: "2.1.266", Recording: "permission-approve",
		Call: ApproveAsOther, Outcome: api.OutcomeRejected, Reason: api.ReasonNoOffer, FaultOnly: true},
	{Name: "a slash command as answer text", Agent: "claude", Version: "2.1.267", Recording: "type-something",
		Call: RespondOption, Option: 3, Text: "/exit", Outcome: api.OutcomeRejected, Reason: api.ReasonSlashCommand, FaultOnly: true},
	{Name: "text for a choice that takes none", Agent: "claude", Version: "2.1.263", Recording: "question-digit",
		Call: RespondOption, Option: 1, Text: "Blue", Outcome: api.OutcomeRejected, Reason: api.ReasonBadText, FaultOnly: true},
	{Name: "answer text over the profile's cap", Agent: "claude", Version: "2.1.267", Recording: "type-something",
		Call: RespondOption, Option: 3, Text: strings.Repeat("x", api.MaxAnswerText+1), Outcome: api.OutcomeRejected,
		Reason: api.ReasonTextTooLong, FaultOnly: true},
	{Name: "a changed cwd", Agent: "codex", Version: "0.154.0", Recording: "permission-approve",
		Fault: OtherCwd, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonCwdChanged},
	{Name: "a changed process incarnation", Agent: "codex", Version: "0.153.4", Recording: "permission-approve",
		Fault: OtherIncarnation, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonProcessChanged},
	{Name: "a changed binding generation", Agent: "codex", Version: "0.155.1", Recording: "permission-approve",
		Fault: OtherBinding, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonBindingChanged, UnitOnly: unitBinding},
	{Name: "reject by terminal_id", Agent: "claude", Version: "2.1.263", Recording: "permission-reject",
		Call: RejectTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownChoice, FaultOnly: true},
	{Name: "an option the prompt does not offer", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Call: RespondUnknownID, Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownChoice, FaultOnly: true},
	{Name: "an unknown version (relabelled 9.9.9)", Agent: "claude", Version: "2.1.267>9.9.9", Recording: "question-digit",
		Call: RespondOption, Option: 1, Outcome: api.OutcomeManual, Reason: api.ReasonManualRequired, FaultOnly: true, NoAction: "respond_interaction"},
	{Name: "a consumed prompt shown again", Agent: "codex", Version: "0.155.1", Recording: "permission-approve",
		Fault: Fenced, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonFenced},
	{Name: "a multi-select answered as single_select", Agent: "claude", Version: "2.1.267", Recording: "multi-select",
		Call: RespondOption, Option: 0, Kind: "single_select", Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownChoice, FaultOnly: true},
	{Name: "a multi-select whose boxes changed since the status", Agent: "claude", Version: "2.1.332", Recording: "multi-select",
		Fault: MoveOn, Markers: 1, Call: RespondOption, Select: []int{0, 2}, Outcome: api.OutcomeRejected, Reason: api.ReasonPromptChanged,
		Inputs: 3},
	{Name: "a multi-select whose option labels changed since the status", Agent: "claude", Version: "2.1.332", Recording: "multi-select",
		Fault: Redrawn, Redraw: []Redraw{{At: "Mushrooms", Write: "Pineapple"}}, Redrawn: []string{"Cheese", "Pineapple", "Olives"},
		Call: RespondOption, Select: []int{0, 2}, Outcome: api.OutcomeRejected, Reason: api.ReasonPromptChanged, Inputs: 3},
	// Olives and its description go, the rows below renumbered (Claude
	// draws its numbers grey, colour 246, and proves it on every row).
	{Name: "a multi-select that shows one option fewer since the status", Agent: "claude", Version: "2.1.332", Recording: "multi-select",
		Fault: Redrawn, Redraw: []Redraw{{At: "3. [ ] Olives", Drop: true}, {At: "Black olives", Drop: true},
			{At: "4. [ ] Type", Write: "\x1b[38;5;246m3. \x1b[39m"}, {At: "5. Chat", Write: "4."}},
		Redrawn: []string{"Cheese", "Mushrooms"}, Call: RespondOption, Select: []int{0, 2},
		Outcome: api.OutcomeRejected, Reason: api.ReasonPromptChanged, Inputs: 3},
	{Name: "a question that shows one option fewer since the status", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Fault: Redrawn, Redraw: []Redraw{{At: "3. Blue", Drop: true}, {At: "4. None", Write: "3."}},
		Redrawn: []string{"Red (Recommended)", "Green", "None of the above", "None of the above, with notes"}, Call: RespondOption,
		Option: 1, Outcome: api.OutcomeRejected, Reason: api.ReasonPromptChanged},
	{Name: "approve on a question", Agent: "claude", Version: "2.1.267", Recording: "question-digit",
		Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonNotActionable, FaultOnly: true},
	{Name: "respond on a permission prompt", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Call: RespondOption, Option: 0, Outcome: api.OutcomeRejected, Reason: api.ReasonNotActionable, FaultOnly: true},
	{Name: "an interaction id the status did not show", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Call: RespondOtherID, Option: 1, Outcome: api.OutcomeRejected, Reason: api.ReasonStaleInteraction, FaultOnly: true},
	{Name: "terminal-scoped respond from a controller", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Call: RespondAsMCP, Option: 1, Outcome: api.OutcomeRejected, Reason: api.ReasonTerminalScope, FaultOnly: true},
	{Name: "an unknown terminal", Agent: "codex", Version: "0.155.1", Recording: "permission-approve",
		Call: ApproveUnknown, Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownTerminal, FaultOnly: true},
	{Name: "send while the screen model re-seeds", Agent: "claude", Version: "2.1.267", Recording: "send", Marker: -1,
		Fault: Stale, Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonScreenStale,
		Inputs: 2, UnitOnly: unitStale},
	{Name: "answer a turn that ended without the agent's text", Agent: "claude", Version: "2.1.267", Recording: "send", Marker: -1,
		Call: AnswerTurn, Turn: SettledTurn, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonNotAnswerable,
		FaultOnly: true, UnitOnly: unitTurn},
	{Name: "answer a turn a newer one superseded", Agent: "claude", Version: "2.1.267", Recording: "send", Marker: -1,
		Call: AnswerTurn, Turn: SupersededTurn, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonSuperseded,
		FaultOnly: true, UnitOnly: unitTurn},
	{Name: "answer after a person prompted the agent", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Call: AnswerTurn, Turn: PromptedTurn, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonSuperseded,
		FaultOnly: true, UnitOnly: unitTurn},
	{Name: "answer into another process", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Fault: OtherIncarnation, Call: AnswerTurn, Turn: AnswerableTurn, Text: "hello there", Outcome: api.OutcomeRejected,
		Reason: api.ReasonProcessChanged, Inputs: 2, UnitOnly: unitTurn},
	{Name: "answer after the binding moved on", Agent: "claude", Version: "2.1.267", Recording: "send", Marker: -1,
		Fault: OtherBinding, Call: AnswerTurn, Turn: AnswerableTurn, Text: "hello there", Outcome: api.OutcomeRejected,
		Reason: api.ReasonBindingChanged, Inputs: 2, UnitOnly: unitTurn},
	{Name: "answer while a prompt is up", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Call: AnswerTurn, Turn: AnswerableTurn, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonNotIdle,
		FaultOnly: true, UnitOnly: unitTurn},
	{Name: "queue a typed async answer while the working row redraws", Agent: "codex", Version: "0.155.1", Recording: "async-queue-text",
		Fault: Tick, Call: RespondFreeText, Text: "Purple", Delivery: contract.DeliveryQueueNextTurn, Outcome: api.OutcomeAccepted,
		FaultOnly: true, Inputs: 2, UnitOnly: unitTick},
	{Name: "queue an async option answer", Agent: "codex", Version: "0.155.1", Recording: "async-working", Marker: 1,
		Call: RespondOption, Option: 1, Delivery: contract.DeliveryQueueNextTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownChoice, FaultOnly: true},
	{Name: "an async question changed between status and respond", Agent: "codex", Version: "0.154.0", Recording: "async-working", Marker: 1,
		Fault: MoveOn, Markers: 2, Call: RespondOption, Option: 1, Outcome: api.OutcomeRejected, Reason: api.ReasonPromptChanged},
	{Name: "send to a prompt", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonNotIdle, FaultOnly: true},
	{Name: "send into a draft", Agent: "codex", Version: "0.155.1", Recording: "draft",
		Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonComposerNotEmpty, FaultOnly: true},
	{Name: "send to an unknown version", Agent: "claude", Version: "2.1.267>9.9.9", Recording: "send", Marker: -1,
		Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownVersion, FaultOnly: true, NoAction: "send"},
	{Name: "send to an unpinned Gemini CLI", Agent: "gemini", Version: "0.61.0>0.62.0", Recording: "send", Marker: -1,
		Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownVersion, FaultOnly: true, NoAction: "send"},
	{Name: "approve on an unpinned Gemini CLI", Agent: "gemini", Version: "0.61.0>0.60.1", Recording: "permission-approve",
		Call: ApproveTerminal, Outcome: api.OutcomeManual, Reason: api.ReasonManualRequired, FaultOnly: true, NoAction: "approve"},
	{Name: "reject on Gemini CLI (its No row is Esc's cancel)", Agent: "gemini", Version: "0.61.0", Recording: "permission-reject",
		Call: RejectTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownChoice, FaultOnly: true},
	{Name: "send to an unpinned OpenCode", Agent: "opencode", Version: "1.18.33>1.19.0", Recording: "send", Marker: -1,
		Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownVersion, FaultOnly: true, NoAction: "send"},
	{Name: "approve on an unpinned OpenCode", Agent: "opencode", Version: "1.18.33>1.17.2", Recording: "permission-approve",
		Call: ApproveTerminal, Outcome: api.OutcomeManual, Reason: api.ReasonManualRequired, FaultOnly: true, NoAction: "approve"},
	{Name: "send a slash command", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Call: SendTerminal, Text: "/model", Outcome: api.OutcomeRejected, Reason: api.ReasonSlashCommand, FaultOnly: true},
	{Name: "send control characters", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Call: SendTerminal, Text: "hello\x1b[Bthere", Outcome: api.OutcomeRejected, Reason: api.ReasonBadText, FaultOnly: true},
	{Name: "send over the request cap", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Call: SendTerminal, Text: strings.Repeat("x", api.MaxRequestText+1), Outcome: api.OutcomeRejected, Reason: api.ReasonTextTooLong, FaultOnly: true},
	{Name: "send to a session nobody is bound to", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Call: SendSession, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownTarget, FaultOnly: true},
	{Name: "another mutation in progress", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Fault: Busy, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonTerminalBusy, UnitOnly: unitLock},
	{Name: "the pane went away", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Fault: Gone, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonTerminalGone, UnitOnly: unitGone},
	{Name: "approve into copy-mode", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Fault: CopyMode, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonPaneInMode},
	{Name: "respond into view-mode", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Fault: ViewMode, Call: RespondOption, Option: 1, Outcome: api.OutcomeRejected, Reason: api.ReasonPaneInMode},
	{Name: "send into choose-tree", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Fault: TreeMode, Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonPaneInMode, Inputs: 2},
	{Name: "approve with the pane's input off", Agent: "codex", Version: "0.155.1", Recording: "permission-approve",
		Fault: InputOff, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonPaneInputOff},
	{Name: "approve with the panes synchronized", Agent: "gemini", Version: "0.61.0", Recording: "permission-approve",
		Fault: Synchronized, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonPanesSynchronized},
	{Name: "the store refuses the reservation", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Fault: StoreDown, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonStore, UnitOnly: unitStore},
	{Name: "the store's disk is full", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Fault: StoreUnavailable, Call: ApproveTerminal, Outcome: api.OutcomeRejected, Reason: api.ReasonStoreUnavailable, UnitOnly: unitStore},
	{Name: "the turn's terminal runs another process", Agent: "claude", Version: "2.1.332", Recording: "permission-approve",
		Fault: Respawned, Call: ApproveTurn, Turn: OwnTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonTurnMoved, UnitOnly: unitTurn},
	{Name: "another controller's turn", Agent: "claude", Version: "2.1.332", Recording: "permission-approve",
		Call: ApproveTurn, Turn: OthersTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonNotOwner, FaultOnly: true, UnitOnly: unitTurn},
	{Name: "a settled turn", Agent: "claude", Version: "2.1.332", Recording: "permission-approve",
		Call: ApproveTurn, Turn: SettledTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonTurnSettled, FaultOnly: true, UnitOnly: unitTurn},
	{Name: "a closed turn", Agent: "claude", Version: "2.1.332", Recording: "permission-approve",
		Call: ApproveTurn, Turn: ClosedTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonTurnClosed, FaultOnly: true, UnitOnly: unitTurn},
	{Name: "an unknown turn", Agent: "claude", Version: "2.1.332", Recording: "permission-approve",
		Call: ApproveTurn, Turn: MissingTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonUnknownTurn, FaultOnly: true, UnitOnly: unitTurn},
	{Name: "a turn whose terminal is gone", Agent: "claude", Version: "2.1.332", Recording: "permission-approve",
		Call: ApproveTurn, Turn: ElsewhereTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonTerminalGone, FaultOnly: true, UnitOnly: unitTurn},
	{Name: "cancel a dialog", Agent: "codex", Version: "0.155.1", Recording: "permission-approve",
		Call: CancelTurn, Turn: OwnTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonNotCancellable, FaultOnly: true, UnitOnly: unitTurn},
	{Name: "cancel a turn of another process", Agent: "codex", Version: "0.155.1", Recording: "working",
		Call: CancelTurn, Turn: OldTurn, Outcome: api.OutcomeRejected, Reason: api.ReasonProcessChanged, FaultOnly: true, UnitOnly: unitTurn},
	{Name: "send to a shell", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Fault: NotAgent, Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonNotAnAgent,
		Inputs: 2, UnitOnly: unitShell},
	{Name: "send with the session file unreadable", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Fault: NoSessionFile, Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonAnchor,
		Inputs: 2, UnitOnly: unitFile},
	{Name: "send whose Enter changes nothing", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Fault: Frozen, Call: SendTerminal, Text: "hello there", Outcome: api.OutcomeUncertain, Reason: api.ReasonPostcondition,
		Inputs: 2, UnitOnly: unitFrozen},
	{Name: "a person's send into a Claude draft (stashed, then restored)", Agent: "claude", Version: "2.1.267", Recording: "stash-send",
		Call: SendUser, Text: "slow-task please", Outcome: api.OutcomeAccepted, FaultOnly: true, Inputs: 3},
	{Name: "a person's send into a Claude 2.1.332 draft", Agent: "claude", Version: "2.1.332", Recording: "stash-send",
		Call: SendUser, Text: "slow-task please", Outcome: api.OutcomeAccepted, FaultOnly: true, Inputs: 3},
	{Name: "a person's send into a Codex draft (cleared with ctrl+u)", Agent: "codex", Version: "0.155.1", Recording: "clear-draft",
		Call: SendUser, Text: "hello there", Outcome: api.OutcomeAccepted, FaultOnly: true, Inputs: 3},
	{Name: "a person's send to a working Codex (steered)", Agent: "codex", Version: "0.155.1", Recording: "send-working", Marker: 2,
		Call: SendUser, Text: "hello there", Outcome: api.OutcomeAccepted, FaultOnly: true, Inputs: 2},
	{Name: "a person's send to a working Codex 0.171.0", Agent: "codex", Version: "0.171.0", Recording: "send-working", Marker: 2,
		Call: SendUser, Text: "hello there", Outcome: api.OutcomeAccepted, FaultOnly: true, Inputs: 2},
	{Name: "a person's send with Codex's keys rebound", Agent: "codex", Version: "0.171.0", Recording: "clear-draft",
		Fault: Remapped, Call: SendUser, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonKeysRemapped,
		Inputs: 3, UnitOnly: unitKeymap},
	{Name: "a person's send to a permission prompt", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Call: SendUser, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonInputOwned, FaultOnly: true,
		NoAction: "send_user_explicit"},
	{Name: "a person's send to a questionnaire", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Call: SendUser, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonInputOwned, FaultOnly: true,
		NoAction: "send_user_explicit"},
	{Name: "a person's send into a draft with the cursor mid-line", Agent: "codex", Version: "0.155.1", Recording: "clear-cursor-mid",
		Marker: 1, Call: SendUser, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonDraftShape, FaultOnly: true,
		NoAction: "send_user_explicit"},
	{Name: "a terminal send with mode session_exact", Agent: "codex", Version: "0.155.1", Recording: "send", Marker: -1,
		Call: SendBadMode, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonBadMode, FaultOnly: true},
	{Name: "a send naming no target, no pane ready", Agent: "claude", Version: "2.1.267", Recording: "permission-approve",
		Call: SendNoTarget, Text: "hello there", Outcome: api.OutcomeRejected, Reason: api.ReasonAmbiguousTarget, FaultOnly: true,
		UnitOnly: unitAlone},
	{Name: "respond by a watch_id", Agent: "codex", Version: "0.155.1", Recording: "question-digit",
		Fault: NotExactWatch, Call: RespondWatch, Option: 1, Outcome: api.OutcomeRejected, Reason: api.ReasonWatch, UnitOnly: unitTurn},
}

// Exempt names the refusal reasons no case produces, each with why.
var Exempt = map[string]string{
	api.ReasonOfferExpired: "no offer is refused for its age (seed 000: an elapsed expiry forces the live recheck); " +
		"an old offer swept from a full book is no_offer",
	api.ReasonDelivery: "no code path produces it: a failed input is the uncertain outcome's own reason, after input",
	api.ReasonTmuxTimeout: "an input command that tmux never answers ends uncertain, after input: " +
		"supervisor TestTmuxCommandDeadline",
	api.ReasonUnknownWatch: "the daemon always has its Watches, and a watch_id they do not know is ReasonWatch",
	api.ReasonUnsupportedAnswer: "no recognized question has a response kind akk does not send (single_select, " +
		"multi_select, free_text, open)",
	// The native thread transitions need a native binding and the agent's
	// conversation list, which this table's runners (replicas) do not
	// have: their own table runs the recorded thread surfaces with both.
	api.ReasonTurnActive:      "native thread transitions: supervisor/dispatch TestThreadTransitions",
	api.ReasonStaleCandidates: "native thread transitions: supervisor/dispatch TestThreadTransitions",
	api.ReasonNotResumable:    "native thread transitions: supervisor/dispatch TestThreadTransitions",
	api.ReasonNotStale:        "reconcile_binding: supervisor/dispatch TestReconcileBinding",
}

// RedrawBytes is the output that makes rs on a screen whose rows (plain
// text, top to bottom) are rows: the cursor and its attributes are saved
// first and restored last, so the agent's next output draws where it
// would have. A column is At's offset in runes: the rows these cases
// edit hold no wide character before it (the runners check the result).
func RedrawBytes(rows []string, rs []Redraw) ([]byte, error) {
	rows = slices.Clone(rows)
	out := []byte("\x1b7\x1b[0m")
	for _, r := range rs {
		y, x := -1, 0
		for i, row := range rows {
			if j := strings.Index(row, r.At); j >= 0 {
				y, x = i, utf8.RuneCountInString(row[:j])
				break
			}
		}
		if y < 0 {
			return nil, fmt.Errorf("redraw: no row holds %q", r.At)
		}
		out = fmt.Appendf(out, "\x1b[%d;%dH", y+1, x+1)
		if r.Drop {
			out = append(out, "\x1b[M"...) // delete the line: the rows below move up
			rows = append(slices.Delete(rows, y, y+1), "")
			continue
		}
		out = append(out, r.Write...)
		runes, shown := []rune(rows[y]), []rune(sgr.ReplaceAllString(r.Write, ""))
		for len(runes) < x+len(shown) {
			runes = append(runes, ' ')
		}
		copy(runes[x:], shown)
		rows[y] = string(runes)
	}
	return append(out, "\x1b8"...), nil
}

// CheckRedrawn says how now is not what the case's Redraw makes of the
// question before: the same header, prompt and response kind, pending,
// with the case's Redrawn options.
func (c Case) CheckRedrawn(before, now *contract.Interaction) error {
	if before == nil || now == nil || len(before.Questions) != 1 || len(now.Questions) != 1 {
		return fmt.Errorf("redraw: one question before and after, got %+v and %+v", before, now)
	}
	qb, qn := before.Questions[0], now.Questions[0]
	var got []string
	for _, o := range qn.Options {
		got = append(got, o.Label)
	}
	switch {
	case now.State != contract.StatePending || qn.Header != qb.Header || qn.Prompt != qb.Prompt || qn.ResponseKind != qb.ResponseKind:
		return fmt.Errorf("redraw: the question is %s %q %q %s now, want pending %q %q %s",
			now.State, qn.Header, qn.Prompt, qn.ResponseKind, qb.Header, qb.Prompt, qb.ResponseKind)
	case !slices.Equal(got, c.Redrawn):
		return fmt.Errorf("redraw: options %q, want %q", got, c.Redrawn)
	}
	return nil
}

// sgr matches a select-graphic-rendition sequence (no cell of its own).
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// Missing returns the reasons of api.RefusalReasons that neither a case
// produces nor Exempt names, and the Exempt entries that a case produces
// (stale exemptions).
func Missing() (missing, stale []string) {
	covered := map[string]bool{}
	for _, c := range Cases {
		covered[c.Reason] = true
	}
	for _, r := range api.RefusalReasons {
		_, exempt := Exempt[r]
		switch {
		case !covered[r] && !exempt:
			missing = append(missing, r)
		case covered[r] && exempt:
			stale = append(stale, r)
		}
	}
	for r := range Exempt {
		if !slices.Contains(api.RefusalReasons, r) {
			stale = append(stale, r)
		}
	}
	return missing, stale
}

// LogValue of a case: what it is, not its text (the same rule as every
// value that carries an answer).
func (c Case) LogValue() slog.Value {
	return slog.GroupValue(slog.String("name", c.Name), slog.String("surface", c.Surface()),
		slog.String("fault", string(c.Fault)), slog.String("call", string(c.Call)), slog.Int("text_len", len(c.Text)))
}

// String is LogValue as text.
func (c Case) String() string { return c.LogValue().String() }
