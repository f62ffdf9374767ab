// Package codexrig is Codex in the recording rig (recordings/rig): its
// npm package, its fake model's dialect (the Responses API), the world it
// starts in (an isolated HOME and CODEX_HOME, config.toml naming the fake
// provider), where it writes its journal (the rollout), its steps and
// its scenarios, registered with rig.Register when the package is
// imported. The live tests outside the rig use a few of its values
// (Model, ToolScript, the patch of notes.txt, CheckSteerQueue).
//
// It is test tooling: the program that records (recordings/cmd/rig) and
// the tests that run real agents import it; the daemon never does, and
// it imports no package of the agent's runtime knowledge (agents/codex).
package codexrig
