package dispatch

import (
	"fmt"

	"github.com/agent-knock-knock/akk/store"
)

// SettleOpen ends every reservation a previous daemon left open. Input may
// have landed between the reservation and the crash, and nothing can tell
// now: each becomes uncertain (never retried), its turn too, and a fence
// it carried is consumed so the prompt it answered is not answered again.
// Called once at start, before the API serves.
func (d *Dispatcher) SettleOpen() error {
	rs, err := d.cfg.Store.Reservations()
	if err != nil {
		return fmt.Errorf("dispatch: open reservations: %w", err)
	}
	for _, r := range rs {
		if r.Final() {
			continue
		}
		reason := "the daemon stopped at stage " + r.Stage + " before the outcome was recorded; input may have landed"
		var turns []store.Turn
		if r.TurnID != "" {
			if t, err := d.cfg.Store.Turn(r.TurnID); err == nil && !turnSettled(t.State) {
				t.State, t.Reason, t.Updated = store.TurnUncertain, reason, d.cfg.Now()
				turns = append(turns, t)
			}
		}
		rr := r
		if err := d.advance(&rr, store.StageUncertain, reason, "", r.Fence, turns...); err != nil {
			return fmt.Errorf("dispatch: settle %s: %w", r.ID, err)
		}
		d.lg.Warn("dispatch: open reservation settled as uncertain", "receipt", r.ID, "op", r.Op, "stage", r.Stage)
	}
	return nil
}

func turnSettled(state string) bool {
	switch state {
	case store.TurnDone, store.TurnFailed, store.TurnCancelled, store.TurnClosed, store.TurnUncertain:
		return true
	}
	return false
}
