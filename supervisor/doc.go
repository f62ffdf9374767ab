// Package supervisor is akk's daemon: it attaches to one tmux server, follows
// every session, window and pane as they come and go (one control-mode
// client per session, each pane's output taken from exactly one of them),
// keeps one vt screen per pane, identifies what runs in each pane from /proc,
// runs the recognizer whenever a screen changed, binds agent panes to their
// native sessions through the watchers, records terminals, bindings and a
// bounded event history in the store, and answers the API.
//
// Files by concern: supervisor.go (Config, New, Run), sessions.go (tmux
// sessions and their control clients), registry.go (which pane is followed
// by whom), monitors.go (one goroutine per pane: screen, identity,
// recognition; what runs there comes from internal/procid),
// identity_recheck.go (re-reads after an inconclusive read),
// replica_header.go (what a replica plays), recognition.go (the one call
// into the recognizers), states.go (activity_state), bindings.go (native
// sessions and durable activity; watchers.WatchRoots says when to look
// again), journal.go (store writes and events), reconcile.go (store vs
// tmux at start), server.go (the API handlers), attention.go (the
// @akk_attention user option for status lines).
//
// Dispatch (the only path by which input reaches a pane): offers.go (what a
// controller's Status saw), txn.go (THE transaction: lock, checks, settle
// or barrier, recheck, durable reservation, input marked sent first,
// proven postconditions, receipt or uncertain; the only code that writes a
// reservation or types into a pane), dispatch.go (its waits and durable
// writes), fences.go (consumed prompts), respond.go
// (approve, respond_interaction), send.go (managed Turns, acceptance from
// the transcript/rollout), cancel.go, dispatch_recover.go (a restart
// settles open reservations as uncertain), actions.go (available_actions),
// turn_ledger.go (managed Turns for the Turn monitor). Watches, Turn
// monitors: tasks*.go, watches*.go, turns.go; callbacks.go freezes their
// notifications, and the outbox sub-package delivers them.
//
// It never resizes, sets no tmux option but @akk_attention, and never
// polls capture-pane: screens follow %output.
package supervisor
