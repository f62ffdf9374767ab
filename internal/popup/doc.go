// Package popup is `akk popup`: a tcell program made to run inside
// `tmux display-popup -E`, listing the agents that need a person, most
// urgent first, showing the selected one's prompt region with its real
// styles, and answering it through the API.
//
// It lives under internal/ because it is one command's user interface,
// not a layer of the daemon: cmd/akk stays thin (it parses flags and
// calls Run), and the logic here is testable without a terminal. The
// split is model / update / view: Model is plain data, Update turns one
// event (a key, a loaded list, an answer's outcome) into a new Model and
// the effects to run, View draws a Model on any tcell.Screen (a
// SimulationScreen in the tests), and Run is the only part that does I/O,
// running effects one at a time so that a Status and the answer that
// follows it never interleave with another request.
//
// Safety rules it keeps (DESIGN invariants 7-9): an answer always goes
// with a fresh Status made for this popup's controller just before it, and
// only when that Status shows the same interaction with the same styled
// prompt the person saw; otherwise it sends nothing and shows the new
// state. Manual-required prompts are shown with their reasons and a jump
// to the pane, never answered. By terminal_id it approves once only: a
// reject, "always allow" or anything the daemon does not advertise is
// done in the pane itself.
//
// What it does not do: no keys reach a pane from here (the daemon
// dispatches), and it never decides anything by itself.
package popup
