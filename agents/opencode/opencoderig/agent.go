package opencoderig

import (
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// longModel is the fake provider's model id and name in the model-long
// variants.
const longModel = "fake-model-extended-context-research-preview-2026-11"

// OpenCode's npm command is a Node launcher of its native binary; its
// record is a SQLite store, read at the end of a run (openCodeLog).
func init() {
	rig.Register(rig.Agent{Name: "opencode", Package: "opencode-ai", Bin: "opencode",
		Serve: fakemodel.Chat,
		World: func(h *rig.Home, _ *rig.Scenario, _, url string) ([]string, error) {
			return openCodeEnv(h), writeOpenCodeConfig(h, url, openCodeModel)
		},
		ReadJournal: openCodeLog,
		JournalKind: "log",
		Script:      openCodeScript,
		Environs: []rig.Environ{rig.W60, rig.W80, rig.W200, rig.H15, rig.Cwd120(), rig.Colors256,
			{Suffix: "model-long", Apply: rig.WithSetup(func(h *rig.Home, env []string) ([]string, error) {
				return env, setOpenCodeModel(h, longModel)
			})},
		},
		Scenarios: scenarios(),
		Core:      []string{"send", "permission-approve", "permission-reject", "question-digit"},
	})
}

// steps is the rig's driver with OpenCode's own steps (its idle
// composer, its prompt, its parts).
type steps struct {
	*rig.Steps
	d *rig.Driver
}

// drive is the Drive of a scenario made of OpenCode's steps.
func drive(f func(s steps)) func(*rig.Steps) {
	return func(s *rig.Steps) { f(steps{s, s.Driver()}) }
}
