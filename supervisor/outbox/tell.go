package outbox

import (
	"context"
	"encoding/json"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// DaemonNotice is the type and task kind of a notice about the daemon
// itself (its store failed), not about an agent.
const DaemonNotice = "daemon"

// Tell sends a notice about the daemon to every person route, now and
// once, around the store: the store may be what failed, so it is neither
// recorded nor retried (best effort; each route's outcome is logged).
// terminalID names a followed terminal, through which the tmux and
// terminal routes find the server's clients ("" reaches only the others).
func (o *Outbox) Tell(ctx context.Context, terminalID, event, reason string) {
	env := api.CallbackEnvelope{V: 1, Type: DaemonNotice, Event: event, Reason: reason, TaskKind: DaemonNotice,
		TerminalID: terminalID, Time: o.now()}
	b, _ := json.Marshal(env)
	for _, name := range o.cfg.PersonRoutes() {
		r := o.routes[name]
		if r == nil {
			continue
		}
		n := store.Notification{ID: "ntf_" + DaemonNotice, Subject: "degraded", TerminalID: terminalID, Type: DaemonNotice,
			Event: event, Route: name, Envelope: b, State: store.NtfInFlight, Created: o.now()}
		rc, _ := o.cfg.Route(name)
		sctx, cancel := context.WithTimeout(ctx, max(rc.Timeout, time.Second))
		d := r.Send(sctx, &n)
		cancel()
		o.lg.Info("daemon notice", "route", name, "event", event, "outcome", d.Outcome, "detail", d.Detail)
	}
}
