// Package screentest is what the tests of recognizers and of the agents'
// screen grammars (agents/<name>/screen) share: the recorded corpus
// (recordings/testdata, found from any package's directory) replayed to a
// marker's screen, changes to such a screen (a row written, restyled,
// blanked, moved), and checks of what a profile reads from the screen
// and each change of it. The corpus is the ground truth of every such
// test: screens are replayed from it, never typed by hand.
//
// It is test support: only tests import it, and it reads files and fails
// tests (testing.TB). It holds no agent's knowledge: a test names the
// agent, version and surface it replays.
package screentest
