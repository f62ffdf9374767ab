package rig

import "github.com/agent-knock-knock/akk/recordings/fakemodel"

// longGeminiModel is a model id longer than any Gemini CLI ships with;
// the fake server answers to any model.
const longGeminiModel = "gemini-3.8-flash-extended-context-research-preview-2026-11"

func init() {
	Register(Agent{Name: "gemini", Package: "@google/gemini-cli", Bin: "gemini",
		Serve: fakemodel.Gemini,
		World: func(h *Home, _ *Scenario, _, url string) ([]string, error) {
			return geminiEnv(h, url), writeGeminiConfig(h)
		},
		JournalGlob: ".gemini/tmp/*/chats/session-*.jsonl",
		Script:      geminiScript,
		Environs: []Environ{W60, W80, W200, H15, Cwd120(), Colors256,
			{"model-long", WithSetup(func(h *Home, env []string) ([]string, error) {
				return append(env, "GEMINI_MODEL="+longGeminiModel), nil
			})},
		},
	})
}
