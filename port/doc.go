// Package port is the interaction port of seed 004: how akk asks a person
// (a decision, a manual intervention, a text, a choice) and reads the
// answer, with every way of asking racing the others.
//
// It is its own package, beside the layout's list, because none of those is
// its home: the supervisor asks through it (a policy that wants a person
// before approving), the CLI asks through it (the demo, `akk popup`), and
// neither should depend on the other's terminal code. The package knows
// nothing of tmux, agents or the API; a Port answers with the person's raw
// words and the caller decides what they mean.
//
// Ports: Terminal (a line-reading prompt on a terminal), Files (a request
// file in a 0700 run directory, answered by `<id>.response`), and the
// popup's own (internal/popup). First races several of them: the first
// answer wins and the others are aborted through their context.
//
// The rules every port keeps (seed 004 "Rules for a port"):
//   - answer with the raw words ("y", "n", "", "1,3"); Decision normalises;
//   - a port that cannot ask never answers: it blocks until ctx ends, so
//     another channel can win (ErrCannotAsk is never returned as an answer);
//   - ctx is the abort signal: on cancel, close the question, leave the UI
//     usable and return ctx's error — never an answer;
//   - an error is "cannot ask", not a refusal: the race goes on without it.
//
// What it does not do: no policy lives here and nothing answers by itself.
// A Port only asks a person; an answer it returns is an answer someone
// typed, and whatever it authorises still goes through the full dispatch
// transaction (a fresh offer, the fingerprint check) in the supervisor.
package port
