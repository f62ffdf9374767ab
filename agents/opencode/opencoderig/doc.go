// Package opencoderig is OpenCode in the recording rig (recordings/rig):
// its npm package, its fake model's dialect (OpenAI chat completions),
// the world it starts in (an isolated HOME with XDG directories and
// opencode.json naming the fake provider), how the rig reads its record
// (the session store, through the sqlite3 command) and its scenarios,
// registered with rig.Register when the package is imported.
//
// It is test tooling: the program that records (recordings/cmd/rig) and
// the tests that run real agents import it; the daemon never does, and
// it imports no package of the agent's runtime knowledge (agents/opencode).
package opencoderig
