// Package binding resolves a terminal's native session (the Claude Code
// transcript or the Codex rollout its agent writes; watchers does the file
// work) off the pane goroutines, records each new binding with its
// generation, and follows the bound file for durable activity: its state
// goes to the pane (SetBinding) and each event to the tasks (Host.Evidence).
package binding
