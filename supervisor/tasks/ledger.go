package tasks

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// storeLedger is the managed Turn monitor's durable side: the dispatch
// path's store.Turn records. Send writes a Turn until it is accepted; the
// monitor settles it from evidence.
type storeLedger struct {
	st   *store.Store
	host ledgerHost
}

// ledgerHost is what the ledger needs of the daemon: the journal, and the
// terminal to tell of a settled Turn (Host).
type ledgerHost interface {
	Commit(store.Change) error
	TurnSettled(terminalID, turnID string)
}

// SpecOf is the monitor's view of a stored Turn.
func SpecOf(t store.Turn) TurnSpec {
	sp := TurnSpec{TurnID: t.ID, SessionID: t.SessionID, TerminalID: t.TerminalID, Controller: t.Controller,
		Agent: t.Agent, Incarnation: t.Incarnation, BindingGen: t.BindingGen, NativeTurnID: t.NativeTurn,
		Path: t.NativePath, File: evidence.FileID{Dev: t.FileDev, Ino: t.FileIno}, Start: t.Anchor, Created: t.Created, Reason: t.Reason,
		EndedWithText: t.EndedWithText, Round: t.Round, Resumed: t.Resumed}
	if h, err := hex.DecodeString(t.RequestHash); err == nil && len(h) == 32 {
		copy(sp.PromptSHA256[:], h)
	}
	return sp
}

// monitorState maps a stored Turn's state to the monitor's words.
func monitorState(t store.Turn) string {
	if t.Management == "closed" {
		return TurnClosed
	}
	switch t.State {
	case store.TurnDone:
		return TurnCompleted
	case store.TurnUncertain:
		if t.Reason == ReasonUnproven {
			return TurnUnproven
		}
		return TurnFailed
	case store.TurnFailed:
		return TurnFailed
	case store.TurnCancelled:
		return TurnCancelled
	case store.TurnClosed:
		return TurnClosed
	}
	return TurnRunning
}

func (l storeLedger) OpenTurns() ([]TurnSpec, error) {
	ts, err := l.st.Turns()
	if err != nil {
		return nil, err
	}
	var out []TurnSpec
	for _, t := range ts {
		// A submitted Turn whose receipt was written is pending (its
		// acceptance not yet shown); one a crash left mid-way was settled
		// uncertain before this runs (dispatch.SettleOpen).
		pending := t.State == store.TurnSubmitted && t.NativePath != ""
		if t.Management != "closed" && (t.State == store.TurnAccepted || t.State == store.TurnWorking || pending) {
			out = append(out, SpecOf(t))
		}
	}
	return out, nil
}

func (l storeLedger) TurnState(id string) (TurnSpec, string, error) {
	t, err := l.st.Turn(id)
	if err != nil {
		return TurnSpec{}, "", err
	}
	return SpecOf(t), monitorState(t), nil
}

func (l storeLedger) SettleTurn(id string, end TurnEnd) error {
	t, err := l.st.Turn(id)
	if err != nil {
		return err
	}
	switch end.State {
	case TurnCompleted:
		t.State = store.TurnDone
	case TurnCancelled:
		t.State = store.TurnCancelled
	case TurnClosed:
		t.Management = "closed"
	case TurnUnproven:
		t.State = store.TurnUncertain
	default: // failed, timed_out
		t.State = store.TurnFailed
	}
	t.Reason, t.Updated = end.Reason, end.At
	if end.State != TurnClosed {
		t.Settled, t.EndedWithText, t.SettledEnd = end.At, end.EndedWithText, end.End
	}
	ev := store.Event{Type: api.EventTurnState, TerminalID: t.TerminalID, Attrs: map[string]string{
		"turn_id": t.ID, "session_id": t.SessionID, "state": t.State, "reason": end.Reason}}
	if err := l.host.Commit(store.Change{Turns: []store.Turn{t}, Events: []store.Event{ev}}); err != nil {
		return fmt.Errorf("settle turn %s: %w", id, err)
	}
	l.host.TurnSettled(t.TerminalID, id)
	return nil
}

func (l storeLedger) Promote(id, nativeTurn string, at time.Time) error {
	t, err := l.st.Turn(id)
	if err != nil {
		return err
	}
	if t.State != store.TurnSubmitted {
		return nil // accepted at the send already
	}
	t.State, t.NativeTurn, t.Accepted, t.Updated = store.TurnAccepted, nativeTurn, at, at
	ev := store.Event{Type: api.EventTurnState, TerminalID: t.TerminalID, Attrs: map[string]string{
		"turn_id": t.ID, "session_id": t.SessionID, "state": t.State}}
	if err := l.host.Commit(store.Change{Turns: []store.Turn{t}, Events: []store.Event{ev}}); err != nil {
		return fmt.Errorf("promote turn %s: %w", id, err)
	}
	return nil
}
