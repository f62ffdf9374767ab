package registry

// The agents' parts in the recording rig: importing them registers their
// npm packages, worlds, fake-model dialects and scenarios, which the live
// tests look up by agent (rig.Lookup, rig.Script).
import (
	_ "github.com/agent-knock-knock/akk/agents/claude/clauderig"
	_ "github.com/agent-knock-knock/akk/agents/codex/codexrig"
	_ "github.com/agent-knock-knock/akk/agents/gemini/geminirig"
	_ "github.com/agent-knock-knock/akk/agents/opencode/opencoderig"
)
