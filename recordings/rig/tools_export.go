package rig

import "github.com/agent-knock-knock/akk/recordings/fakemodel"

// What the live tests outside the rig use of its tool scenarios: Codex's
// script with the tool words (apply_patch of notes.txt with PatchWord),
// and the file it edits before and after.
const (
	PatchWord   = codexPatchWord
	PatchFile   = codexNotes
	PatchBefore = codexNotesText
	PatchAfter  = codexNotesAfter
)

// ToolScript is the fake model's script of agent's tool scenarios: for
// Codex its usual script and the tool words; for Claude its usual script
// (Claude's tool dialogs are played by rules that name the run's paths).
func ToolScript(agent, version string) fakemodel.Script {
	if agent == "codex" {
		return codexToolsScript(version)
	}
	return claudeScript(version)
}

// CodexModel is the model the rig configures Codex version with (0.171
// nudges an older model's user to its newest at startup).
func CodexModel(version string) string { return codexModel(&Scenario{}, version) }
