// Package rigs links every agent's part in the recording rig (its
// scenarios, world and fake-model dialect, agents/<name>/<name>rig), the
// way agents/registry links their native knowledge: a program that runs
// the rig (the rig's command, akk qualify) imports this package, and
// adding an agent is one more line here.
package rigs

import (
	_ "github.com/agent-knock-knock/akk/agents/claude/clauderig"
	_ "github.com/agent-knock-knock/akk/agents/codex/codexrig"
	_ "github.com/agent-knock-knock/akk/agents/gemini/geminirig"
	_ "github.com/agent-knock-knock/akk/agents/opencode/opencoderig"
)
