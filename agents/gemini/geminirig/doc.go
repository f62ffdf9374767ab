// Package geminirig is Gemini CLI in the recording rig (recordings/rig):
// its npm package, its fake model's dialect (the Gemini API), the world
// it starts in (an isolated HOME, settings.json with the API key as its
// auth method and no update check), where it writes its journal (the
// chats file) and its scenarios, registered with rig.Register when the
// package is imported.
//
// It is test tooling: the program that records (recordings/cmd/rig) and
// the tests that run real agents import it; the daemon never does, and
// it imports no package of the agent's runtime knowledge (agents/gemini).
package geminirig
