package supervisor

import (
	"context"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// FaultExitAtPrompt is a fault point (built with -tags akkfault, armed by
// AKK_FAULT): the first time the daemon sees a pane with a pending
// interaction (a managed Turn at its permission prompt, in the crash
// tests), the pane's control client is told `detach-client`, so tmux
// itself ends it with %exit, as it did in the CI run that failed a Turn.
// Once per daemon: the re-attached client is left alone.
const FaultExitAtPrompt = "tmux.exit_at_prompt"

// faultObserved runs the fault point on an observation. It is called
// under the pane's lock: the client is told from a goroutine of its own.
func (s *Supervisor) faultObserved(o terminal.Observation) {
	if !fault.Enabled || o.Interaction == nil || o.Interaction.State != contract.StatePending || o.Pane == nil ||
		!fault.Hit(FaultExitAtPrompt) || !s.faultFired.CompareAndSwap(false, true) {
		return
	}
	c := o.Pane.Client()
	s.lg.Warn("fault: ending the control client", "point", FaultExitAtPrompt, "terminal", o.TerminalID)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = c.Command(ctx, "detach-client")
	}()
}
