// Package fault is the crash-test hook (DESIGN "Test tiers"): built with
// `-tags akkfault`, Point(name) kills the process with SIGKILL when the
// environment variable AKK_FAULT equals name, at exactly that point of a
// transaction; a normal build compiles Point to nothing. Tests then restart
// the daemon on the same store and check what the stage left durable.
//
// Names are "<component>.<stage>", for example "dispatch.after_reserve" or
// "outbox.after_claim". Points lists every name (the tests walk it).
//
// Hit(name) is the other kind of point: the process lives, and the caller
// makes the fault itself when AKK_FAULT names it (supervisor's
// "tmux.exit_at_prompt" ends a control client with %exit mid-Turn).
package fault
