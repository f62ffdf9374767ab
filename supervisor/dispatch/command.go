package dispatch

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// slashCommand is one closed native command line a profile names (never a
// caller's text), and what the screen must show besides the exact draft
// before its one Enter: that Enter runs this line and nothing else (the
// completion list highlights exactly it, or draws no list at all).
type slashCommand struct {
	line   string
	proven func(terminal.Recognition) bool
}

// enterCommand types cmd into the proven empty composer and presses Enter
// once, only when the settled screen shows exactly the line and cmd's
// proof; otherwise it stops without Enter (what was typed stays: the
// caller's failure is uncertain, never retried). It returns the screen
// sequence the Enter was sent on.
func (d *Dispatcher) enterCommand(ctx context.Context, tx *txn, cmd slashCommand) (uint64, error) {
	m := tx.t
	sum := sha256.Sum256([]byte(cmd.line))
	shows := func(r terminal.Recognition) bool {
		return r.Exact && r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerDraft && r.DraftSum == sum && cmd.proven(r)
	}
	before := m.View()
	if err := tx.text(ctx, cmd.line); err != nil {
		return before.Seq, fmt.Errorf("%s: type the command: %w", api.ReasonDelivery, err)
	}
	if rec, ok := m.Await(ctx, before.Seq, stepTimeout, shows); !ok {
		return before.Seq, fmt.Errorf("%s: the composer does not show exactly the command with nothing else Enter could run (screen %s): no Enter was sent, the typed text stays", api.ReasonPostcondition, rec.Screen)
	}
	// The completion list is drawn as the text arrives: let it settle past
	// Codex's paste-burst window (an Enter inside it is a newline), then
	// look once more before the Enter.
	m.AwaitQuiet(ctx, before.Seq, sendQuiet, echoQuietMax)
	if err := m.Barrier(ctx); err != nil {
		return before.Seq, fmt.Errorf("%s: %w", api.ReasonTerminalGone, err)
	}
	now := m.View()
	if ref := gateRefusal(now.Gate); ref != nil {
		return now.Seq, fmt.Errorf("%s: %s before the Enter: no Enter was sent, the typed text stays", ref.reason, ref.msg)
	}
	if !shows(now.Rec) {
		return now.Seq, fmt.Errorf("%s: the composer changed before the Enter (screen %s): no Enter was sent, the typed text stays", api.ReasonPostcondition, now.Rec.Screen)
	}
	if err := tx.keys(ctx, []byte("\r")); err != nil {
		return now.Seq, fmt.Errorf("%s: Enter: %w", api.ReasonDelivery, err)
	}
	return now.Seq, nil
}
