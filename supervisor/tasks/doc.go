// Package tasks follows terminals for whoever asked: a Terminal Watch for
// its controller, a managed Turn for its owner (the send path hands it
// over once the prompt is in), and the person's notices of a terminal
// neither follows. Each is a follower (follower.go). One goroutine
// (Manager.Run, manager.go) hands every follower of a terminal the
// observations of it (the pane monitors' passes) and the events of its
// bound file (the binder's evidence), then runs the followers' timers.
// What a follower tells of the prompts and blocks on its screen is one
// piece of code for all three (alerts.go); every notification goes
// through one commit-and-schedule path (notifier.go): written, synced,
// with the records it belongs to, then handed to the Scheduler.
//
// A Watch is watches.go and its operations watch_ops.go; a managed Turn
// turns.go, turn_ops.go, handoff.go (a person took it over) and ledger.go
// (its durable record, the dispatch path's store.Turn); rest.go is a
// reply that ends its turn once the screen rests; person.go the person's
// notices; rows.go what an operation reads and shows of a Watch or a
// Turn; ops.go retry_callback and task_status.
//
// It does not deliver notifications (supervisor/outbox does, from the
// store), type into a pane or answer a prompt (supervisor/dispatch does;
// a Watch never approves), recognize screens (a pane's observation says
// what it shows) or follow files (supervisor/binding does; a follower
// reads its bound file again only to catch up on what no event brought).
// A notification is a wake-up, never authority.
package tasks
