package rig

import "github.com/agent-knock-knock/akk/recordings/fakemodel"

// longOpenCodeModel is the fake provider's model id and name in the
// model-long variants.
const longOpenCodeModel = "fake-model-extended-context-research-preview-2026-11"

func init() {
	// OpenCode's npm command is a Node launcher of its native binary; its
	// record is a SQLite store, read at the end of a run (openCodeLog).
	Register(Agent{Name: "opencode", Package: "opencode-ai", Bin: "opencode",
		Serve: fakemodel.Chat,
		World: func(h *Home, _ *Scenario, _, url string) ([]string, error) {
			return openCodeEnv(h), writeOpenCodeConfig(h, url, openCodeModel)
		},
		ReadJournal: openCodeLog,
		Script:      openCodeScript,
		Environs: []Environ{W60, W80, W200, H15, Cwd120(), Colors256,
			{"model-long", WithSetup(func(h *Home, env []string) ([]string, error) {
				return env, setOpenCodeModel(h, longOpenCodeModel)
			})},
		},
	})
}
