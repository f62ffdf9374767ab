package recognizers_test

// The external tests run every agent's profiles over the recorded corpus:
// each agent's screen package registers its own (recognizers.Register).
import (
	_ "github.com/agent-knock-knock/akk/agents/claude/screen"
	_ "github.com/agent-knock-knock/akk/agents/codex/screen"
	_ "github.com/agent-knock-knock/akk/agents/gemini/screen"
	_ "github.com/agent-knock-knock/akk/agents/opencode/screen"
)
