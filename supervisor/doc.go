// Package supervisor is akk's daemon: it attaches to one tmux server, follows
// every session, window and pane as they come and go (one control-mode
// client per session, each pane's output taken from exactly one of them),
// keeps one vt screen per pane, identifies what runs in each pane from /proc,
// runs the recognizer whenever a screen changed, binds agent panes to their
// native sessions through the watchers, records terminals, bindings and a
// bounded event history in the store, and answers the API.
//
// It is the composition root: Config, New and Run (supervisor.go) build
// the sub-packages and hand each the small interfaces it declares
// (wiring.go): terminal (one pane: mirror, identity, recognition, record,
// the act primitives), binding (native sessions and durable activity),
// dispatch (offers, fences and THE transaction of every mutation:
// approve, respond_interaction, send, cancel), outbox (callback delivery).
//
// Files of the root: sessions.go (tmux sessions and their control
// clients), registry.go (which pane is followed by whom, stored records
// claimed and released), replica_header.go (what a replica plays),
// journal.go (store writes and events), reconcile.go (store vs tmux at
// start), server.go (the API handlers), attention.go (the @akk_attention
// user option for status lines). Watches and Turn monitors: tasks*.go,
// watches*.go, turns.go, turn_ledger.go; callbacks.go freezes their
// notifications, and the outbox delivers them; ask.go puts a managed
// Turn's prompt to a person through the interaction port.
//
// It never resizes, sets no tmux option but @akk_attention, and never
// polls capture-pane: screens follow %output.
package supervisor
