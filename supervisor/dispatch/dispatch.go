package dispatch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// The dispatch transaction (DESIGN "Safety invariants", seed 000's eight
// steps). Every mutation runs as:
//
//	terminal dispatch lock -> (store writer, per write) -> registry
//	revalidate owner, turn, process incarnation, binding generation, cwd, offer
//	barrier through the control connection, then recognize the screen afresh
//	require the offer's exact fingerprint (and an unconsumed fence)
//	resolve the semantic ids to the private plan
//	reserve durably (pebble.Sync)                      <- no input before this
//	send one bounded native step, prove its postcondition from the screen
//	write the receipt (no raw text), fence the prompt
//
// A failure before input is rejected_before_input (or manual_required) and
// sends nothing. Input that may have landed without a proven postcondition
// is uncertain with do_not_retry: the reservation says so durably, and no
// code path ever sends it again.

// Terminal is what the transaction does to one terminal: the act
// primitives of terminal.Pane (a test serves recorded screens instead).
type Terminal interface {
	// Lock takes the terminal dispatch lock (terminal.ErrBusy after a wait).
	Lock(ctx context.Context) (unlock func(), err error)
	// Barrier makes the screen model current and recognizes it.
	Barrier(ctx context.Context) error
	// Settle barriers until the screen has been quiet a while.
	Settle(ctx context.Context) error
	View() terminal.View
	// Next is View and a channel closed after the next recognition.
	Next() (terminal.View, <-chan struct{})
	// Await waits for a recognition of a screen newer than seq that ok
	// accepts; AwaitQuiet for the screen to change after seq and go quiet.
	Await(ctx context.Context, seq uint64, timeout time.Duration, ok func(terminal.Recognition) bool) (terminal.Recognition, bool)
	AwaitQuiet(ctx context.Context, seq uint64, quiet, max time.Duration)
	SendBytes(ctx context.Context, b []byte) error
	TypeText(ctx context.Context, text string) error
	// ForgetFence makes the next pass read the prompt's fence again.
	ForgetFence()
	SetActiveTurn(turnID string)
	// Resolve asks for the terminal's native session to be found again.
	Resolve()
	Poke()
}

// Terminals finds the followed terminals.
type Terminals interface {
	// Terminal is the recorded terminal id, or nil.
	Terminal(id string) Terminal
	// All is every followed terminal.
	All() []Terminal
}

// Turns is what dispatch needs of the managed Turn monitors and Watches
// (the tasks).
type Turns interface {
	// Monitor starts following a submitted Turn until it settles.
	Monitor(t store.Turn)
	// Accepted tells the monitor what acceptance proved.
	Accepted(t store.Turn)
	// Drop stops following a Turn whose send ended uncertain.
	Drop(turnID string)
	// WatchTerminal resolves a watch_id a controller may respond through.
	WatchTerminal(watchID, controller string) (terminalID string, err error)
	// WatchSent makes (or finds) the controller's Watch of a terminal a
	// user-explicit send went to unmanaged, and says its mode.
	WatchSent(ctx context.Context, terminalID, controller string) (watchID, mode string, err error)
}

// Store is the records dispatch reads; writes go through Journal.
type Store interface {
	Turn(id string) (store.Turn, error)
	Turns() ([]store.Turn, error)
	Reservations() ([]store.Reservation, error)
}

// Journal writes one change, synced, and wakes the event followers.
type Journal interface {
	Commit(store.Change) error
}

// Config is what a Dispatcher is built from.
type Config struct {
	Secret    []byte // derives receipt, turn and session ids
	Now       func() time.Time
	Logger    *slog.Logger
	Terminals Terminals
	Turns     Turns
	Store     Store
	Journal   Journal
	// Keymaps, if set, refuses a user-explicit send to an agent whose
	// keybindings are remapped.
	Keymaps Keymaps
	// Threads lists resumable conversations and holds a terminal's
	// binding while a native thread transition runs (nil: none offered).
	Threads Threads
	// AcceptWithin bounds the wait for a send's acceptance in the agent's
	// file before the send is answered as pending (0: 30 s).
	AcceptWithin time.Duration
}

// Dispatcher runs every mutation: checks, then the transaction.
type Dispatcher struct {
	cfg       Config
	lg        *slog.Logger
	offers    offerBook
	snapshots snapshotBook
	models    modelBook
}

// New makes a Dispatcher.
func New(cfg Config) *Dispatcher { return &Dispatcher{cfg: cfg, lg: cfg.Logger} }

// Fault points of the transaction (internal/fault, -tags akkfault): where
// the crash tier kills the daemon.
const (
	FaultBeforeReserve = "dispatch.before_reserve"
	FaultAfterReserve  = "dispatch.after_reserve"
	FaultAfterInput    = "dispatch.after_input"
	FaultBeforeReceipt = "dispatch.before_receipt"
)

// FaultPoints lists the dispatch transaction's fault points in order.
var FaultPoints = []string{FaultBeforeReserve, FaultAfterReserve, FaultAfterInput, FaultBeforeReceipt}

// Timeouts of the transaction's waits.
const (
	stepTimeout      = 10 * time.Second // a step's postcondition shows
	echoQuietMax     = 3 * time.Second  // typed text has been echoed and settled
	defaultTextQuiet = 60 * time.Millisecond
)

// refusal is a mutation refused before any input.
type refusal struct {
	outcome string // api.OutcomeRejected or api.OutcomeManual
	reason  string
	msg     string
}

func (r *refusal) Error() string { return r.reason + ": " + r.msg }

func reject(reason, format string, args ...any) *refusal {
	return &refusal{outcome: api.OutcomeRejected, reason: reason, msg: fmt.Sprintf(format, args...)}
}

func manual(reason, format string, args ...any) *refusal {
	return &refusal{outcome: api.OutcomeManual, reason: reason, msg: fmt.Sprintf(format, args...)}
}

// result turns a refusal into the operation's reply.
func (r *refusal) result(op, terminal string) api.ActionResult {
	return api.ActionResult{V: api.SchemaVersion, Op: op, Outcome: r.outcome, Reason: r.reason + ": " + r.msg,
		TerminalID: terminal}
}

// lockRefusal is the refusal of a dispatch lock not taken.
func lockRefusal(err error) *refusal {
	if errors.Is(err, terminal.ErrBusy) {
		return reject(api.ReasonTerminalBusy, "another mutation of this terminal is in progress")
	}
	return reject(api.ReasonTerminalBusy, "gave up waiting for the terminal: %v", err)
}

// newID is a fresh random id with a prefix (receipts, turns): unguessable,
// never reused.
func (d *Dispatcher) newID(prefix, kind string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return prefix + terminal.Derive(d.cfg.Secret, kind, hex.EncodeToString(b[:]))
}

// reserve writes r durably before any input (DESIGN invariant 3).
func (d *Dispatcher) reserve(r *store.Reservation, turns ...store.Turn) error {
	fault.Point(FaultBeforeReserve)
	now := d.cfg.Now()
	r.Stage, r.Created, r.Updated = store.StageReserved, now, now
	ch := store.Change{Reservations: []store.Reservation{*r}, Turns: turns}
	if !r.Private {
		ch.Events = []store.Event{{Type: api.EventDispatchReserved, TerminalID: r.TerminalID,
			Attrs: map[string]string{"op": r.Op, "receipt_id": r.ID}}}
	}
	if err := d.cfg.Journal.Commit(ch); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	fault.Point(FaultAfterReserve)
	return nil
}

// advance moves r to stage (with reason and evidence) durably. A final
// stage writes the receipt event; fence, when set, consumes a prompt.
func (d *Dispatcher) advance(r *store.Reservation, stage, reason, evidence string, fence string, turns ...store.Turn) error {
	if store.StageDone == stage || store.StageUncertain == stage || store.StageRejected == stage {
		fault.Point(FaultBeforeReceipt)
	}
	now := d.cfg.Now()
	r.Stage, r.Reason, r.Evidence, r.Updated = stage, reason, evidence, now
	ch := store.Change{Reservations: []store.Reservation{*r}, Turns: turns}
	if r.Final() && !r.Private {
		ch.Events = []store.Event{{Type: api.EventDispatchReceipt, TerminalID: r.TerminalID, Attrs: map[string]string{
			"op": r.Op, "receipt_id": r.ID, "stage": stage, "turn_id": r.TurnID, "interaction_id": r.InteractionID}}}
	}
	if fence != "" && stage != store.StageRejected {
		ch.Fences = []store.Fence{{Key: fence, Reservation: r.ID, TerminalID: r.TerminalID, Created: now}}
	}
	if err := d.cfg.Journal.Commit(ch); err != nil {
		return fmt.Errorf("record %s: %w", stage, err)
	}
	return nil
}

// errUnproven: input was sent but its postcondition did not show.
var errUnproven = errors.New("postcondition unproven")

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
