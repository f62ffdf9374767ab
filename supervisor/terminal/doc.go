// Package terminal is one tmux pane as akk follows it: the vt mirror of
// its output, the identity of the process that runs there (internal/procid),
// coalesced recognition (the one call into the recognizers), the recorded
// terminal and its events, the public row and status, and the act
// primitives the dispatch transaction uses (Lock, Barrier, Settle, View,
// Await, AwaitQuiet, SendBytes, TypeText).
//
// It reaches the daemon only through the interfaces it declares: Host
// (the registry of stored terminals and the journal) and Observer (the
// binding and the tasks, told what each pass saw).
//
// Files: pane.go (the goroutine and its pass), link.go (the control
// client it follows through, replaced when the daemon re-attaches a
// session whose client ended: the pane keeps its terminal), identity.go and
// identity_recheck.go (reading the foreground group, re-reads after an
// inconclusive read), recognition.go, fences.go (a consumed prompt is
// shown manual_required), record.go (record, row, status, observation),
// events.go (what a change of the record says), states.go (activity and
// durable states, the binding), ids.go (terminal and session ids),
// actions.go (available_actions; identify.go: foreground
// identification's), act.go (the act primitives), diag.go.
package terminal
