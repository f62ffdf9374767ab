package dispatch

import (
	"context"
	"fmt"
	"slices"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// Walking the agent's /model menus: every key waits for the screen it
// must give before the next (a menu that shows anything else stops the
// walk: the caller's failure is uncertain, never retried).

// The keys of the menus.
var (
	keyUp    = []byte("\x1b[A")
	keyDown  = []byte("\x1b[B")
	keyRight = []byte("\x1b[C")
	keyLeft  = []byte("\x1b[D")
	keyEsc   = []byte{0x1b}
	keyEnter = []byte("\r")
	keyKill  = []byte{0x15} // C-u: the composer's line killed
)

// menuWant is what a step's screen must show.
type menuWant func(*recognizers.ModelMenu) bool

// menuStep presses key and waits for a model menu want accepts.
func menuStep(ctx context.Context, tx *txn, key []byte, what string, want menuWant) (*recognizers.ModelMenu, error) {
	r, err := screenStep(ctx, tx, key, what, func(r terminal.Recognition) bool { return r.ModelMenu != nil && want(r.ModelMenu) })
	return r.ModelMenu, err
}

// screenStep presses key and waits for a screen ok accepts.
func screenStep(ctx context.Context, tx *txn, key []byte, what string, ok func(terminal.Recognition) bool) (terminal.Recognition, error) {
	return screenStepAt(ctx, tx, key, what, "", ok)
}

// screenStepAt is screenStep with a fault point between the key and its
// proof (the crash tier's).
func screenStepAt(ctx context.Context, tx *txn, key []byte, what, point string, ok func(terminal.Recognition) bool) (terminal.Recognition, error) {
	before := tx.t.View()
	if err := tx.keys(ctx, key); err != nil {
		return terminal.Recognition{}, fmt.Errorf("%s: %s: %w", api.ReasonDelivery, what, err)
	}
	if point != "" {
		fault.Point(point)
	}
	r, got := tx.t.Await(ctx, before.Seq, stepTimeout, func(r terminal.Recognition) bool { return r.Exact && ok(r) })
	if !got {
		return r, fmt.Errorf("%s: %s: the screen shows %s, not what the profile records", api.ReasonPostcondition, what, r.Screen)
	}
	return r, nil
}

// sameRows: the menu lists the rows of ref (labels, in order).
func sameRows(m *recognizers.ModelMenu, ref []recognizers.ModelRow) bool {
	return slices.EqualFunc(m.Rows, ref, func(a, b recognizers.ModelRow) bool { return a.Label == b.Label && a.Number == b.Number })
}

// openModelMenu types the profile's command and waits for the list.
func (d *Dispatcher) openModelMenu(ctx context.Context, tx *txn, prof recognizers.ModelControlProfile) (*recognizers.ModelMenu, error) {
	seq, err := d.enterCommand(ctx, tx, slashCommand{line: prof.Command, proven: func(r terminal.Recognition) bool { return r.Completion == prof.Command }})
	if err != nil {
		return nil, err
	}
	r, ok := tx.t.Await(ctx, seq, stepTimeout, func(r terminal.Recognition) bool {
		return r.Exact && r.ModelMenu != nil && r.ModelMenu.Kind == recognizers.ModelList
	})
	if !ok {
		return nil, fmt.Errorf("%s: %s opened no model list the profile reads (screen %s)", api.ReasonPostcondition, prof.Command, r.Screen)
	}
	return r.ModelMenu, nil
}

// highlightRow moves the list's highlight from where m has it to row i,
// one key at a time, each proven.
func highlightRow(ctx context.Context, tx *txn, m *recognizers.ModelMenu, i int) (*recognizers.ModelMenu, error) {
	rows := m.Rows
	for m.Highlight != i {
		key, next := keyDown, m.Highlight+1
		if i < m.Highlight {
			key, next = keyUp, m.Highlight-1
		}
		var err error
		m, err = menuStep(ctx, tx, key, "move to "+rows[i].Label, func(n *recognizers.ModelMenu) bool {
			return n.Kind == recognizers.ModelList && n.Highlight == next && sameRows(n, rows)
		})
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// setEffort moves Claude's effort row from where m has it to level,
// the short way round a ring, each press proven.
func setEffort(ctx context.Context, tx *txn, prof recognizers.ModelControlProfile, m *recognizers.ModelMenu, level string) (*recognizers.ModelMenu, error) {
	n := len(prof.Efforts)
	from, to := slices.Index(prof.Efforts, m.Effort), slices.Index(prof.Efforts, level)
	if from < 0 || to < 0 {
		return nil, fmt.Errorf("%s: the effort row shows %q, not a level the profile records", api.ReasonPostcondition, m.Effort)
	}
	step := 1
	if d := to - from; prof.EffortRing && (d+n)%n > n/2 || !prof.EffortRing && d < 0 {
		step = -1
	}
	for i := from; i != to; {
		i = (i + step + n) % n
		key := keyRight
		if step < 0 {
			key = keyLeft
		}
		want, hl, rows := prof.Efforts[i], m.Highlight, m.Rows
		var err error
		m, err = menuStep(ctx, tx, key, "effort "+want, func(n *recognizers.ModelMenu) bool {
			return n.Kind == recognizers.ModelList && n.Effort == want && n.Highlight == hl && sameRows(n, rows)
		})
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// closeMenu presses Esc until the composer is back, idle and empty: once
// from the list, twice from Codex's effort popup (it goes back to the
// list first).
func closeMenu(ctx context.Context, tx *txn, m *recognizers.ModelMenu) (terminal.Recognition, error) {
	if m.Kind == recognizers.EffortList {
		rows := m.Rows
		if _, err := menuStep(ctx, tx, keyEsc, "back to the list", func(n *recognizers.ModelMenu) bool {
			return n.Kind == recognizers.ModelList && !sameRows(n, rows)
		}); err != nil {
			return terminal.Recognition{}, err
		}
	}
	return screenStep(ctx, tx, keyEsc, "close the menu", func(r terminal.Recognition) bool {
		return r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerEmpty
	})
}
