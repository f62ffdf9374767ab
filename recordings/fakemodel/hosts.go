package fakemodel

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// What the MCP hosts other than Claude Code (OpenClaw, Pi) put into a
// Messages request, read here so that the same Script or Rules drive them.

// mainTool: a tool that only an agent's main loop offers: Claude Code's
// Bash or AskUserQuestion, an MCP server's tool as Claude Code names it
// (mcp__server__tool: a host run with --tools ""), OpenClaw's exec and
// MCP tools (server__tool), Pi's bash.
func mainTool(name string) bool {
	switch name {
	case "Bash", "AskUserQuestion", "exec", "bash":
		return true
	}
	return strings.Contains(name, "__")
}

// openclawContext is the user message OpenClaw adds after the newest
// input of every request (active exec sessions, subagents): the host's
// context, not the user's words.
var openclawContext = regexp.MustCompile(`(?s)^\s*<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>.*<<<END_OPENCLAW_INTERNAL_CONTEXT>>>\s*$`)

// hostContext: a user message that is only a host's own context block,
// which a rule or keyword reads past to the input before it.
func hostContext(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var bs []block
		if json.Unmarshal(raw, &bs) != nil || len(bs) == 0 {
			return false
		}
		var texts []string
		for _, b := range bs {
			if b.Type != "text" {
				return false
			}
			texts = append(texts, b.Text)
		}
		s = strings.Join(texts, "\n")
	}
	return openclawContext.MatchString(s)
}

// openclawStamp is the time OpenClaw puts before a user's message:
// "[Thu 2026-12-03 19:20 UTC] ".
var openclawStamp = regexp.MustCompile(`^\[[A-Z][a-z]{2} \d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})? [A-Za-z0-9+:-]+\] `)

// structuredPrefix starts an MCP tool result as OpenClaw hands it to its
// model: "structuredContent:\n", the structured content pretty-printed,
// then the tool's text content.
const structuredPrefix = "structuredContent:\n"

// structuredResult is an OpenClaw MCP result's structured content as
// compact JSON (what Claude Code and Pi hand their model as the text), or
// s as it is.
func structuredResult(s string) string {
	rest, ok := strings.CutPrefix(s, structuredPrefix)
	if !ok {
		return s
	}
	var v json.RawMessage
	if err := json.NewDecoder(strings.NewReader(rest)).Decode(&v); err != nil {
		return s
	}
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return s
	}
	return b.String()
}
