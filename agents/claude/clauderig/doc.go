// Package clauderig is Claude Code in the recording rig (recordings/rig):
// its npm package, its fake model's dialect (the Anthropic Messages API),
// the world it starts in (an isolated HOME, ~/.claude.json and
// settings.json with no onboarding, trust or update screen and the manual
// permission mode), where it writes its journal (the transcript), its
// steps and its scenarios, registered with rig.Register when the package
// is imported.
//
// It is test tooling: the program that records (recordings/cmd/rig) and
// the tests that run real agents import it; the daemon never does, and
// it imports no package of the agent's runtime knowledge (agents/claude).
package clauderig
