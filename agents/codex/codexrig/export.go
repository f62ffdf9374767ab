package codexrig

import (
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// What the live tests outside the rig use of Codex's tool scenarios: the
// patch of notes.txt (asked with PatchWord), and the file it edits
// before and after.
const (
	PatchWord   = codexPatchWord
	PatchFile   = codexNotes
	PatchBefore = codexNotesText
	PatchAfter  = codexNotesAfter
)

// ToolScript is the fake model's script of Codex's tool scenarios at
// version: its corpus script and the tool words.
func ToolScript(version string) fakemodel.Script { return codexToolsScript(version) }

// Model is the model the rig configures Codex version with (0.171 nudges
// an older model's user to its newest at startup).
func Model(version string) string { return codexModel(&rig.Scenario{}, version) }
