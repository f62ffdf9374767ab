package codexrig

import (
	"strings"
	"unicode/utf8"
)

// The screens of Codex's /status and /model, row by row as drawn on each
// version (inspect.go).

// codexInspect is what the inspect scenarios know of one Codex version:
// the screens, row by row as drawn (spaces at a row's end trimmed).
type codexInspect struct {
	// models is the /model popup as it opens (the configured model
	// current and highlighted), modelsUp after Up (the model above it
	// highlighted): the title row to the key hints.
	models, modelsUp []string
	// efforts is the chosen model's effort popup as it opens (its
	// default highlighted), effortsDown after Down.
	efforts, effortsDown []string
	// changed is the history row Enter on the effort leaves; line the
	// status line after it; model and effort what config.toml and the
	// next request carry. The status line reads "<line> · ~/project"
	// (0.171.0 after a turn "<line> fast · ~/project · <thread title>").
	changed, line, model, effort string
	// status is /status's block on a fresh session, session its id;
	// statusTurn after one answered turn of the conversation titled
	// by its first prompt.
	status     func(session string) []string
	statusTurn func(session, title string) []string
}

var codexInspects = map[string]codexInspect{
	"0.155.1": {
		models: []string{
			"  Select Model and Effort",
			"  Access legacy models by running codex -m <model_name> or in your config.toml",
			"",
			"  1. gpt-6-astra (default)  Our most capable model for complex, demanding work.",
			"  2. gpt-5.6-sol            Latest frontier agentic coding model.",
			"  3. gpt-5.6-terra          Balanced agentic coding model for everyday work.",
			"  4. gpt-5.6-luna           Fast and affordable agentic coding model.",
			"› 5. gpt-5.5 (current)      Frontier model for complex coding, research, and real-world work.",
			"",
			"  Press enter to confirm or esc to go back",
		},
		modelsUp: []string{
			"  Select Model and Effort",
			"  Access legacy models by running codex -m <model_name> or in your config.toml",
			"",
			"  1. gpt-6-astra (default)  Our most capable model for complex, demanding work.",
			"  2. gpt-5.6-sol            Latest frontier agentic coding model.",
			"  3. gpt-5.6-terra          Balanced agentic coding model for everyday work.",
			"› 4. gpt-5.6-luna           Fast and affordable agentic coding model.",
			"  5. gpt-5.5 (current)      Frontier model for complex coding, research, and real-world work.",
			"",
			"  Press enter to confirm or esc to go back",
		},
		efforts: []string{
			"  Select Reasoning Level for gpt-5.6-luna",
			"",
			"  1. Low               Fast responses with lighter reasoning",
			"› 2. Medium (default)  Balances speed and reasoning depth for everyday tasks",
			"  3. High              Greater reasoning depth for complex problems",
			"  4. Extra high        Extra high reasoning depth for complex problems",
			"  5. More reasoning…   Max consumes usage limits faster",
			"",
			"  Press enter to confirm or esc to go back",
		},
		effortsDown: []string{
			"  Select Reasoning Level for gpt-5.6-luna",
			"",
			"  1. Low               Fast responses with lighter reasoning",
			"  2. Medium (default)  Balances speed and reasoning depth for everyday tasks",
			"› 3. High              Greater reasoning depth for complex problems",
			"  4. Extra high        Extra high reasoning depth for complex problems",
			"  5. More reasoning…   Max consumes usage limits faster",
			"",
			"  Press enter to confirm or esc to go back",
		},
		changed: "• Model changed to gpt-5.6-luna high",
		line:    "gpt-5.6-luna high",
		model:   "gpt-5.6-luna", effort: "high",
		status: func(id string) []string { return codexStatus155(id, "~/project") },
		// No thread name row.
		statusTurn: func(id, _ string) []string {
			return append([]string{"/status", ""}, codexBox(
				">_ OpenAI Codex (v0.155.1)",
				"",
				"Model:                gpt-5.5 (reasoning medium, summaries auto)",
				"Model provider:       fake",
				"Directory:            ~/project",
				"Permissions:          Read Only (Ask for approval)",
				"Agents.md:            <none>",
				"Collaboration mode:   Default",
				"Session:              "+id,
				"",
				"Token usage:          120 total  (100 input + 20 output)",
				"Context window:       100% left (120 used / 258K)",
				"Limits:               data not available yet",
			)...)
		},
	},
	"0.171.0": {
		models: []string{
			"  Select Model and Effort",
			"",
			"",
			"  1. GPT-6.2-Sol          Fast, go-to model for coding and everyday work.",
			"  2. GPT-6.2-Astra        Our most capable model for complex coding and professional work.",
			"  3. GPT-6.1 Terra        Efficient model that excels at visual understanding and computer use.",
			"  4. GPT-6.1-Sol          Previous generation model for coding and everyday work.",
			"  5. GPT-6-Astra          Previous generation model for complex coding and professional work.",
			"› 6. GPT-6-Sol (current)  Legacy model for coding and everyday work.",
			"  7. GPT-6-Luna           Fast and affordable model for easier tasks.",
			"  8. GPT-5.6-Sol          Legacy model for coding and everyday work.",
			"↓",
			"  enter select · esc back",
		},
		modelsUp: []string{
			"  Select Model and Effort",
			"",
			"",
			"  1. GPT-6.2-Sol          Fast, go-to model for coding and everyday work.",
			"  2. GPT-6.2-Astra        Our most capable model for complex coding and professional work.",
			"  3. GPT-6.1 Terra        Efficient model that excels at visual understanding and computer use.",
			"  4. GPT-6.1-Sol          Previous generation model for coding and everyday work.",
			"› 5. GPT-6-Astra          Previous generation model for complex coding and professional work.",
			"  6. GPT-6-Sol (current)  Legacy model for coding and everyday work.",
			"  7. GPT-6-Luna           Fast and affordable model for easier tasks.",
			"  8. GPT-5.6-Sol          Legacy model for coding and everyday work.",
			"↓",
			"  enter select · esc back",
		},
		efforts: []string{
			"  Select Reasoning Level for GPT-6-Astra",
			"",
			"",
			"› 1. Low (default)    Fast responses with lighter reasoning",
			"  2. Medium           Balances speed and reasoning depth for everyday tasks",
			"  3. High             Greater reasoning depth for complex problems",
			"  4. Extra high       Extra high reasoning depth for complex problems",
			"  5. More reasoning…  Max and Ultra consume usage limits faster",
			"",
			"  enter default · s session · esc back",
		},
		effortsDown: []string{
			"  Select Reasoning Level for GPT-6-Astra",
			"",
			"",
			"  1. Low (default)    Fast responses with lighter reasoning",
			"› 2. Medium           Balances speed and reasoning depth for everyday tasks",
			"  3. High             Greater reasoning depth for complex problems",
			"  4. Extra high       Extra high reasoning depth for complex problems",
			"  5. More reasoning…  Max and Ultra consume usage limits faster",
			"",
			"  enter default · s session · esc back",
		},
		changed: "• Model changed to gpt-6-astra medium",
		line:    "GPT-6-Astra medium",
		model:   "gpt-6-astra", effort: "medium",
		status: func(id string) []string { return codexStatus171(id, "~/project") },
		statusTurn: func(id, title string) []string {
			return []string{
				"/status",
				"",
				"  >_ OpenAI Codex (v0.171.0)",
				"",
				"  Model:               GPT-6-Sol (reasoning medium, summaries auto)",
				"  Model provider:      fake",
				"  Directory:           ~/project",
				"  Permissions:         Read Only (Ask for approval)",
				"  Agents.md:           <none>",
				"  Thread name:         " + title,
				"  Collaboration mode:  Default",
				"  Session:             " + id,
				"",
				"  Token usage:         120 total  (100 input + 20 output)",
				"  Context window:      100% left (120 used / 258K)",
				"  Limits:              data not available yet",
			}
		},
	},
}

// codexBox draws rows as 0.155.1's /status does: in a rounded box two
// columns in, as wide as its widest row and one column more.
func codexBox(rows ...string) []string {
	w := 0
	for _, r := range rows {
		w = max(w, utf8.RuneCountInString(r))
	}
	out := []string{"╭" + strings.Repeat("─", w+3) + "╮"}
	for _, r := range rows {
		out = append(out, "│  "+r+strings.Repeat(" ", w-utf8.RuneCountInString(r))+" │")
	}
	return append(out, "╰"+strings.Repeat("─", w+3)+"╯")
}

// codexStatus155 is 0.155.1's /status block on a fresh session (session
// id) in the Directory dir.
func codexStatus155(id, dir string) []string {
	return append([]string{"/status", ""}, codexBox(
		">_ OpenAI Codex (v0.155.1)",
		"",
		"Model:                gpt-5.5 (reasoning medium, summaries auto)",
		"Model provider:       fake",
		codexDirLabel+dir,
		"Permissions:          Read Only (Ask for approval)",
		"Agents.md:            <none>",
		"Collaboration mode:   Default",
		"Session:              "+id,
		"",
		"Token usage:          0 total  (0 input + 0 output)",
		"Limits:               data not available yet",
	)...)
}

// codexStatus171 is 0.171.0's /status block on a fresh session (session
// id) in the Directory dir.
func codexStatus171(id, dir string) []string {
	return []string{
		"/status",
		"",
		"  >_ OpenAI Codex (v0.171.0)",
		"",
		"  Model:               GPT-6-Sol (reasoning medium, summaries auto)",
		"  Model provider:      fake",
		"  Directory:           " + dir,
		"  Permissions:         Read Only (Ask for approval)",
		"  Agents.md:           <none>",
		"  Collaboration mode:  Default",
		"  Session:             " + id,
		"",
		"  Token usage:         0 total  (0 input + 0 output)",
		"  Limits:              data not available yet",
	}
}
