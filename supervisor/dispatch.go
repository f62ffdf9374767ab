package supervisor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
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

// Fault points of the transaction (internal/fault, -tags akkfault).
const (
	faultBeforeReserve = "dispatch.before_reserve"
	faultAfterReserve  = "dispatch.after_reserve"
	faultAfterInput    = "dispatch.after_input"
	faultBeforeReceipt = "dispatch.before_receipt"
)

// FaultPoints lists the dispatch transaction's fault points in order.
var FaultPoints = []string{faultBeforeReserve, faultAfterReserve, faultAfterInput, faultBeforeReceipt}

// Timeouts of the transaction's waits.
const (
	lockWait         = 5 * time.Second  // another mutation holds the terminal
	barrierTimeout   = 5 * time.Second  // the control connection answers
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

// lockTerminal takes m's dispatch lock, waiting at most lockWait.
func (m *paneMonitor) lockTerminal(ctx context.Context) (func(), error) {
	t := time.NewTimer(lockWait)
	defer t.Stop()
	select {
	case m.dispatchLock <- struct{}{}:
		return func() { <-m.dispatchLock }, nil
	case <-t.C:
		return nil, reject(api.ReasonTerminalBusy, "another mutation of this terminal is in progress")
	case <-ctx.Done():
		return nil, reject(api.ReasonTerminalBusy, "gave up waiting for the terminal: %v", ctx.Err())
	}
}

// barrier makes the model hold every byte tmux had sent for the pane when
// the barrier command was answered (tmux writes a client's output in
// order, and the reader hands %output to the feed before it sees the
// command's %end), then runs a recognition pass on it.
func (m *paneMonitor) barrier(ctx context.Context) error {
	bctx, cancel := context.WithTimeout(ctx, barrierTimeout)
	defer cancel()
	if _, err := m.sess.client.Exec(bctx, controlmode.Cmd{"display-message", "-p", "-t", m.pane.String(), "#{pane_id}"}); err != nil {
		return fmt.Errorf("barrier %s: %w", m.pane, err)
	}
	if gone, _ := m.pass(true); gone {
		return fmt.Errorf("barrier %s: the pane is gone", m.pane)
	}
	return nil
}

// settleQuiet is how long a screen must be free of %output before akk
// sends its first key: an agent that just drew a dialog may not have
// attached its key handling yet (Claude Code took a digit meant to choose
// "4. No" as a move of the highlight when it came within milliseconds of
// the dialog's first frame).
const (
	settleQuiet = 150 * time.Millisecond
	settleMax   = 3 * time.Second
)

// settle waits, through barriers, until the pane has been quiet for
// settleQuiet (at most settleMax: a screen that never stops changing is
// then judged by the fingerprint check as it is).
func (m *paneMonitor) settle(ctx context.Context) error {
	deadline := time.Now().Add(settleMax)
	for {
		if err := m.barrier(ctx); err != nil {
			return err
		}
		m.mu.Lock()
		since := time.Since(m.lastChange)
		m.mu.Unlock()
		if since >= settleQuiet || time.Now().After(deadline) {
			return nil
		}
		t := time.NewTimer(settleQuiet - since)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// newID is a fresh random id with a prefix (receipts, turns): unguessable,
// never reused.
func (s *Supervisor) newID(prefix, kind string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return prefix + derive(s.secret, kind, hex.EncodeToString(b[:]))
}

// reserve writes r durably before any input (DESIGN invariant 3).
func (s *Supervisor) reserve(r *store.Reservation, turns ...store.Turn) error {
	fault.Point(faultBeforeReserve)
	now := s.cfg.Now()
	r.Stage, r.Created, r.Updated = store.StageReserved, now, now
	ev := store.Event{Type: api.EventDispatchReserved, TerminalID: r.TerminalID,
		Attrs: map[string]string{"op": r.Op, "receipt_id": r.ID}}
	if _, err := s.commit(store.Change{Reservations: []store.Reservation{*r}, Turns: turns, Events: []store.Event{ev}}); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	fault.Point(faultAfterReserve)
	return nil
}

// advance moves r to stage (with reason and evidence) durably. A final
// stage writes the receipt event; fence, when set, consumes a prompt.
func (s *Supervisor) advance(r *store.Reservation, stage, reason, evidence string, fence string, turns ...store.Turn) error {
	if store.StageDone == stage || store.StageUncertain == stage || store.StageRejected == stage {
		fault.Point(faultBeforeReceipt)
	}
	now := s.cfg.Now()
	r.Stage, r.Reason, r.Evidence, r.Updated = stage, reason, evidence, now
	ch := store.Change{Reservations: []store.Reservation{*r}, Turns: turns}
	if r.Final() {
		ch.Events = []store.Event{{Type: api.EventDispatchReceipt, TerminalID: r.TerminalID, Attrs: map[string]string{
			"op": r.Op, "receipt_id": r.ID, "stage": stage, "turn_id": r.TurnID, "interaction_id": r.InteractionID}}}
	}
	if fence != "" && stage != store.StageRejected {
		ch.Fences = []store.Fence{{Key: fence, Reservation: r.ID, TerminalID: r.TerminalID, Created: now}}
	}
	if _, err := s.commit(ch); err != nil {
		return fmt.Errorf("record %s: %w", stage, err)
	}
	return nil
}

// errUnproven: input was sent but its postcondition did not show.
var errUnproven = errors.New("postcondition unproven")

// view is what a waiter compares: the recognition and the screen
// sequence it was made on.
type view struct {
	rec recognition
	seq uint64
}

func (m *paneMonitor) snapshot() view {
	m.mu.Lock()
	defer m.mu.Unlock()
	return view{rec: m.rec, seq: m.screenSeq}
}

// typeText puts text into the pane as the agents' own users do: a single
// line as typed keys (send-keys -l: one write, which the agents read as
// one burst), several lines as one bracketed paste — refused when the
// application did not enable bracketed paste, since a typed newline would
// submit.
func (m *paneMonitor) typeText(ctx context.Context, text string) error {
	if !strings.Contains(text, "\n") {
		return m.sess.client.SendText(ctx, m.pane, text)
	}
	return m.sess.client.Paste(ctx, m.pane, text)
}

// awaitQuiet waits until the screen changed after seq and then stayed
// unchanged for quiet (measured from %output, not a fixed sleep), or max.
func (m *paneMonitor) awaitQuiet(ctx context.Context, seq uint64, quiet, max time.Duration) {
	deadline := time.Now().Add(max)
	for {
		m.mu.Lock()
		changed, since, ch := m.screenSeq != seq, time.Since(m.lastChange), m.nextPass()
		m.mu.Unlock()
		left := time.Until(deadline)
		if left <= 0 || (changed && since >= quiet) {
			return
		}
		wait := left
		if changed {
			wait = min(wait, quiet-since)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-ch:
		case <-t.C:
		}
		t.Stop()
	}
}

// awaitExpect waits until a recognition made after the step shows what
// the step expects: one of its states, the expected highlighted row, and
// a screen that moved on from before (a new prompt, another state or
// another highlight).
func (m *paneMonitor) awaitExpect(ctx context.Context, before view, want recognizers.Expect, timeout time.Duration) (recognition, bool) {
	return m.await(ctx, before, timeout, func(r recognition) bool { return expectHolds(before.rec, r, want) })
}

// await waits until a recognition of a screen newer than before satisfies
// ok, or timeout.
func (m *paneMonitor) await(ctx context.Context, before view, timeout time.Duration, ok func(recognition) bool) (recognition, bool) {
	deadline := time.Now().Add(timeout)
	for {
		m.mu.Lock()
		rec, seq, ch := m.rec, m.screenSeq, m.nextPass()
		m.mu.Unlock()
		if seq != before.seq && ok(rec) {
			return rec, true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return rec, false
		}
		t := time.NewTimer(left)
		select {
		case <-ctx.Done():
			t.Stop()
			return rec, false
		case <-ch:
		case <-t.C:
		}
		t.Stop()
	}
}

func expectHolds(before, now recognition, want recognizers.Expect) bool {
	if !slices.Contains(want.States, recognizers.ScreenState(now.Screen)) {
		return false
	}
	if want.Highlighted >= 0 && now.highlighted != want.Highlighted {
		return false
	}
	return now.Screen != before.Screen || now.fp != before.fp || now.highlighted != before.highlighted
}
