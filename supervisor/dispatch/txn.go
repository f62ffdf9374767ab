package dispatch

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// txn is the dispatch transaction of one mutation (the sequence drawn atop
// dispatch.go), from the terminal dispatch lock to the receipt. It is the
// only code that writes a reservation or sends a mutation's input to a
// pane. Every mutation is "checks, then the transaction":
//
//	tx, ref := d.begin(ctx, t, spec)    lock; cheap checks; settle or barrier; recheck
//	defer tx.end()
//	ref = tx.reserve(res, turns...)    synced: nothing has been sent before this
//	tx.keys / tx.text / tx.steps       input, each marked sent durably first
//	return tx.accept(...) | tx.fail(...)
//
// Before reserve a refusal sends nothing. After the first byte every
// failure is uncertain with do_not_retry, durably: no code path sends it
// again. A second transaction may follow under the same lock (follow:
// identify_and_send's send after its probe), checks again, then its own
// reservation.
type txn struct {
	rec    reservations
	lg     *slog.Logger
	t      Terminal
	unlock func()
	op     string
	res    store.Reservation
	out    api.ActionResult
	// sent: some input may have reached the pane (set before the bytes go).
	sent bool
	// Durations for the result's Timing.
	settleDur, reserveDur, inputDur time.Duration
	began, reserved                 time.Time
}

// reservations writes a transaction's reservation durably, stage by stage
// (the Dispatcher's journal): what txn needs of the daemon, and no more.
type reservations interface {
	reserve(r *store.Reservation, turns ...store.Turn) error
	advance(r *store.Reservation, stage, reason, evidence, fence string, turns ...store.Turn) error
}

// txnSpec is a mutation's checks, in the order begin runs them.
type txnSpec struct {
	op string
	// before runs with the dispatch lock held, before the screen settles:
	// refusals that need no fresh screen (no offer, wrong operation).
	before func() *refusal
	// quiet waits for a quiet screen (settle) before the check; otherwise a
	// single barrier (cancel: a working agent never goes quiet).
	quiet bool
	// check runs on a view of the screen the barrier made current: the
	// recheck of everything the input depends on.
	check func(v terminal.View) *refusal
}

// begin takes t's dispatch lock and runs spec's checks. On a refusal the
// lock is released and nothing was sent; otherwise the caller ends the
// transaction with end.
func (d *Dispatcher) begin(ctx context.Context, t Terminal, spec txnSpec) (*txn, *refusal) {
	tx := &txn{rec: d, lg: d.lg, t: t, op: spec.op, began: time.Now()}
	unlock, err := t.Lock(ctx)
	if err != nil {
		return nil, lockRefusal(err)
	}
	tx.unlock = unlock
	if ref := tx.checks(ctx, spec); ref != nil {
		tx.end()
		return nil, ref
	}
	return tx, nil
}

// follow is a second transaction under the dispatch lock held holds (one
// lock from the first check to the last proof: identify_and_send's probe,
// then its send). Its checks run afresh on a screen settled now; the lock
// stays held's (the follower's end releases nothing), and the follower
// writes its own reservation. A refusal sends nothing.
func (d *Dispatcher) follow(ctx context.Context, held *txn, spec txnSpec) (*txn, *refusal) {
	tx := &txn{rec: d, lg: d.lg, t: held.t, op: spec.op, began: time.Now()}
	if ref := tx.checks(ctx, spec); ref != nil {
		return nil, ref
	}
	return tx, nil
}

// checks runs spec's checks with the dispatch lock held.
func (tx *txn) checks(ctx context.Context, spec txnSpec) *refusal {
	if spec.before != nil {
		if ref := spec.before(); ref != nil {
			return ref
		}
	}
	t0 := time.Now()
	var err error
	if spec.quiet {
		err = tx.t.Settle(ctx)
	} else {
		err = tx.t.Barrier(ctx)
	}
	tx.settleDur = time.Since(t0)
	if err != nil {
		return reject(api.ReasonTerminalGone, "%v", err)
	}
	v := tx.t.View()
	if ref := gateRefusal(v.Gate); ref != nil {
		return ref
	}
	if spec.check != nil {
		return spec.check(v)
	}
	return nil
}

// gateRefusal refuses input that tmux would not hand to the agent alone:
// a pane in a mode (its keys drive the mode: copy-mode's `f` opens a
// prompt on the person's status line), with input off (dropped), or
// synchronized (copied to the window's other panes: one approve would
// type into the person's other agents and shells). The barrier read it
// after the screen it checks; nothing is reserved, and the offer stays
// for a later try. A mode entered between this answer and the first key
// is the same race as a person's key, and ends as one does.
func gateRefusal(g controlmode.InputGate) *refusal {
	switch {
	case g.InMode:
		mode := g.Mode
		if mode == "" {
			mode = "a mode"
		}
		return reject(api.ReasonPaneInMode, "the pane shows tmux's %s, which would take the keys: leave it (q or Escape) and try again", mode)
	case g.InputOff:
		return reject(api.ReasonPaneInputOff, "the pane's input is off (select-pane -d): tmux would drop the keys; `select-pane -e` turns it on")
	case g.Synchronized:
		return reject(api.ReasonPanesSynchronized, "synchronize-panes is on for this pane: the keys would reach the window's other panes too; turn it off (`set -w synchronize-panes off`) and try again")
	}
	return nil
}

// end releases the dispatch lock (a follower's: nothing, its lock is the
// held transaction's).
func (tx *txn) end() {
	if tx.unlock != nil {
		tx.unlock()
		tx.unlock = nil
	}
}

// reserve writes res durably (DESIGN invariant 3), with turns in the same
// batch. It fills the result's ids; a failure is a refusal: nothing sent.
func (tx *txn) reserve(res store.Reservation, turns ...store.Turn) *refusal {
	tx.res = res
	tx.out = api.ActionResult{V: api.SchemaVersion, Op: tx.op, TerminalID: res.TerminalID, TurnID: res.TurnID,
		InteractionID: res.InteractionID, ReceiptID: res.ID}
	t0 := time.Now()
	if err := tx.rec.reserve(&tx.res, turns...); err != nil {
		if errors.Is(err, store.ErrUnavailable) {
			// Input comes only after a durable reservation: this one
			// was not written (full disk, or its own commit failed),
			// so nothing was sent. The daemon is degraded now.
			return reject(api.ReasonStoreUnavailable, "%v: the daemon is degraded until its store can be written; free space on the store's disk (akk doctor)", err)
		}
		return reject(api.ReasonStore, "%v", err)
	}
	tx.reserved = time.Now()
	tx.reserveDur = tx.reserved.Sub(t0)
	return nil
}

// refused is the result of a refusal after begin (a reservation that
// could not be written): the ids so far, no receipt.
func (tx *txn) refused(ref *refusal) api.ActionResult {
	out := tx.out
	out.Outcome, out.Reason, out.ReceiptID = ref.outcome, ref.reason+": "+ref.msg, ""
	return out
}

// markSent records durably that input may land (before the bytes go, so a
// crash in between is read as uncertain, never as not sent).
func (tx *txn) markSent() error {
	if tx.sent {
		return nil
	}
	tx.sent = true
	return tx.rec.advance(&tx.res, store.StageInputSent, "", "", "")
}

// keys sends raw key bytes of the profile's plan (never a caller's).
func (tx *txn) keys(ctx context.Context, b []byte) error {
	return tx.input(func() error { return tx.t.SendBytes(context.WithoutCancel(ctx), b) })
}

// text types checked text (TypeText: keys for one line, a bracketed paste
// for several).
func (tx *txn) text(ctx context.Context, s string) error {
	return tx.input(func() error { return tx.t.TypeText(context.WithoutCancel(ctx), s) })
}

func (tx *txn) input(send func() error) error {
	t0 := time.Now()
	defer func() { tx.inputDur += time.Since(t0) }()
	if err := tx.markSent(); err != nil {
		return err
	}
	if err := send(); err != nil {
		return err
	}
	fault.Point(FaultAfterInput)
	return nil
}

// steps sends a choice's native steps with text and proves each step's
// postcondition on a newer screen. It returns the recognition the last
// one was proven on.
func (tx *txn) steps(ctx context.Context, steps []recognizers.PlanStep, text string) (terminal.Recognition, error) {
	ctx = context.WithoutCancel(ctx) // input that started is followed by its proof
	var last terminal.Recognition
	for i, step := range steps {
		before := tx.t.View()
		if step.Text {
			if err := tx.text(ctx, text); err != nil {
				return last, fmt.Errorf("step %d: text: %w", i+1, err)
			}
			quiet := time.Duration(step.QuietMillis) * time.Millisecond
			if quiet <= 0 {
				quiet = defaultTextQuiet
			}
			tx.t.AwaitQuiet(ctx, before.Seq, quiet, echoQuietMax)
			if step.VerifyText {
				if now := tx.t.View().Rec; now.DraftSum != sha256.Sum256([]byte(text)) {
					return now, fmt.Errorf("step %d: %w: the editor does not show the answer as typed (screen %s); its final key was not sent", i+1, errUnproven, now.Screen)
				}
			}
		}
		if len(step.Keys) > 0 {
			if err := tx.keys(ctx, step.Keys); err != nil {
				return last, fmt.Errorf("step %d: keys: %w", i+1, err)
			}
		}
		rec, ok := tx.t.Await(ctx, before.Seq, stepTimeout, func(r terminal.Recognition) bool {
			return expectHolds(before.Rec, r, step.Expect)
		})
		if !ok {
			return rec, fmt.Errorf("step %d of %d: %w (want %v)", i+1, len(steps), errUnproven, step.Expect.States)
		}
		last = rec
	}
	return last, nil
}

// timing is the result's breakdown; checks is the caller's share of the
// time before the reservation that was not spent settling.
func (tx *txn) timing() *api.Timing {
	var proof, checks time.Duration
	if !tx.reserved.IsZero() {
		proof = time.Since(tx.reserved) - tx.inputDur
		checks = tx.reserved.Sub(tx.began) - tx.settleDur - tx.reserveDur
	}
	return &api.Timing{SettleMS: ms(tx.settleDur), ChecksMS: ms(checks), ReserveMS: ms(tx.reserveDur),
		InputMS: ms(tx.inputDur), ProofMS: ms(proof)}
}

// accept writes the receipt (and consumes fence, when set) with turns. A
// receipt that cannot be written leaves the reservation input_sent, read
// as uncertain after a restart: the result says uncertain now rather than
// claim a clean success.
func (tx *txn) accept(evidence string, screen contract.ScreenState, fence string, turns ...store.Turn) api.ActionResult {
	if err := tx.rec.advance(&tx.res, store.StageDone, "", evidence, fence, turns...); err != nil {
		tx.out.Outcome, tx.out.Reason, tx.out.DoNotRetry = api.OutcomeUncertain, fmt.Sprintf("receipt not recorded: %v", err), true
		return tx.out
	}
	tx.out.Outcome, tx.out.DoNotRetry, tx.out.Evidence, tx.out.ScreenState = api.OutcomeAccepted, true, evidence, screen
	return tx.out
}

// submitted writes the receipt of input that went in whole (Enter
// proven by the screen) while the agent's own acceptance is not yet
// shown: the result is pending, never retried.
func (tx *txn) submitted(evidence string, screen contract.ScreenState, turns ...store.Turn) api.ActionResult {
	if err := tx.rec.advance(&tx.res, store.StageDone, "", evidence, "", turns...); err != nil {
		tx.out.Outcome, tx.out.Reason, tx.out.DoNotRetry = api.OutcomeUncertain, fmt.Sprintf("receipt not recorded: %v", err), true
		return tx.out
	}
	tx.out.Outcome, tx.out.DoNotRetry, tx.out.Evidence, tx.out.ScreenState = api.OutcomePending, true, evidence, screen
	return tx.out
}

// fail settles the reservation after a failure: rejected when nothing was
// sent, otherwise uncertain with do_not_retry. fence is consumed unless
// rejected (input that may have landed answered the prompt).
func (tx *txn) fail(reason string, screen contract.ScreenState, fence string, turns ...store.Turn) api.ActionResult {
	stage, outcome := store.StageUncertain, api.OutcomeUncertain
	if !tx.sent {
		stage, outcome = store.StageRejected, api.OutcomeRejected
	}
	if err := tx.rec.advance(&tx.res, stage, reason, "", fence, turns...); err != nil {
		tx.lg.Error("dispatch: record outcome", "op", tx.op, "receipt", tx.res.ID, "err", err)
	}
	tx.out.Outcome, tx.out.Reason, tx.out.DoNotRetry, tx.out.ScreenState = outcome, reason, tx.sent, screen
	tx.lg.Warn("dispatch", "op", tx.op, "terminal", tx.res.TerminalID, "receipt", tx.res.ID, "outcome", outcome, "reason", reason)
	return tx.out
}

// expectHolds says whether now shows what a step expects: one of its
// states, the expected highlighted row, and a screen that moved on from
// before (a new prompt, another state or another highlight).
func expectHolds(before, now terminal.Recognition, want recognizers.Expect) bool {
	if !slices.Contains(want.States, contract.ScreenState(now.Screen)) {
		return false
	}
	if want.Highlighted >= 0 && now.Highlighted != want.Highlighted {
		return false
	}
	if want.Checked != nil && !slices.Equal(now.Checked, want.Checked) {
		return false
	}
	if want.SameQuestion && !sameQuestion(before.Interaction, now.Interaction) {
		return false
	}
	return now.Screen != before.Screen || now.Fingerprint != before.Fingerprint || now.Highlighted != before.Highlighted
}

// sameQuestion: both show one question that reads the same, ids aside
// (they follow the fingerprint, which a ticked box changes).
func sameQuestion(a, b *contract.Interaction) bool {
	if a == nil || b == nil || a.Kind != b.Kind || len(a.Questions) != 1 || len(b.Questions) != 1 {
		return false
	}
	qa, qb := a.Questions[0], b.Questions[0]
	if qa.Header != qb.Header || qa.Prompt != qb.Prompt || qa.ResponseKind != qb.ResponseKind || len(qa.Options) != len(qb.Options) {
		return false
	}
	for i, o := range qa.Options {
		p := qb.Options[i]
		if o.Label != p.Label || o.Description != p.Description || o.FreeText != p.FreeText {
			return false
		}
	}
	return true
}
