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
// (wiring.go, threads.go): terminal (one pane: mirror, identity,
// recognition, record, the act primitives), binding (native sessions and
// durable activity), dispatch (offers, fences and THE transaction of every
// mutation), tasks (Watches, managed Turn monitors and a person's
// notices), outbox (callback delivery).
//
// Files of the root: tmux.go and sessions.go (the server, its sessions and
// their control clients), server_watch.go and reattach.go (a server or a
// client that ends), registry.go (which pane is followed by whom, stored
// records claimed and released), replica_header.go (what a replica plays),
// journal.go and callbacks.go (store writes and their events),
// store_watch.go (a store that failed), reconcile.go (store vs tmux at
// start), server.go, identify.go and task_status.go (the API handlers),
// attention.go (the @akk_attention user option for status lines), ask.go
// (a managed Turn's prompt put to a person through the interaction port).
//
// It never resizes, sets no tmux option but @akk_attention, and never
// polls capture-pane: screens follow %output.
//
// # Lock order
//
// The one place the daemon's lock order is written (DESIGN invariant 2).
// A goroutine may take a lock only while it holds none below it:
//
//  1. tasks.Manager.opMu: an operation on Watches and Turns, or one
//     processing pass; it reads panes under it.
//  2. terminal.Pane.mu, the terminal lock: one pane's mirror, record and
//     acts. Nothing holds two panes' locks at once.
//  3. Supervisor.writeMu: the store writer, so that event followers wake
//     in sequence order.
//  4. Supervisor.mu: the registry (panes, sessions, the server).
//  5. Leaves, taken last and holding nothing else while held:
//     terminal.Pane.infoMu, terminal's link.mu, tasks.Manager.mu (the
//     observation queues the pane goroutines fill under their terminal
//     lock), binding.Binder.mu, outbox.Outbox.mu, dispatch's offer,
//     snapshot and model books, asker.mu, and the store's and
//     controlmode.Client's own.
package supervisor
