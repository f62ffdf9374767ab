package geminirig

import (
	"path/filepath"
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// longModel is a model id longer than any Gemini CLI ships with; the
// fake server answers to any model.
const longModel = "gemini-3.8-flash-extended-context-research-preview-2026-11"

func init() {
	rig.Register(rig.Agent{Name: "gemini", Package: "@google/gemini-cli", Bin: "gemini",
		Serve: fakemodel.GenerativeLanguage,
		World: func(h *rig.Home, _ *rig.Scenario, _, url string) ([]string, error) {
			return geminiEnv(h, url), writeGeminiConfig(h)
		},
		JournalGlob: ".gemini/tmp/*/chats/session-*.jsonl",
		JournalKind: "chats",
		Script:      geminiScript,
		Environs: []rig.Environ{rig.W60, rig.W80, rig.W200, rig.H15, rig.Cwd120(), rig.Colors256,
			{Suffix: "model-long", Apply: rig.WithSetup(func(h *rig.Home, env []string) ([]string, error) {
				return append(env, "GEMINI_MODEL="+longModel), nil
			})},
		},
		Scenarios: scenarios(),
		Core:      []string{"send", "permission-approve", "permission-reject"},
	})
}

// steps is the rig's driver with Gemini CLI's own steps (its idle
// composer, its prompt, its turn's end, its dialogs).
type steps struct {
	*rig.Steps
	d *rig.Driver
}

// drive is the Drive of a scenario made of Gemini CLI's steps.
func drive(f func(s steps)) func(*rig.Steps) {
	return func(s *rig.Steps) { f(steps{s, s.Driver()}) }
}

// geminiKey is the API key of the fake server (sent as x-goog-api-key).
const geminiKey = "fake-gemini-key-local"

// geminiEnv is Gemini CLI's whole environment. COLORTERM says what most
// terminals say (truecolor); without it the CLI adds a warning row (the
// colors256 variant records that).
func geminiEnv(h *rig.Home, url string) []string {
	return []string{"HOME=" + h.Home, "TMPDIR=" + h.Tmp, "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
		"PATH=/usr/local/bin:/usr/bin:/bin", "GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_API_KEY=" + geminiKey,
		"GEMINI_CLI_TRUST_WORKSPACE=true"}
}

// writeGeminiConfig writes ~/.gemini/settings.json: the API key as the
// auth method (else the CLI exits 41), no update check, no usage
// statistics or telemetry (docs/research/gemini-opencode-offline.md).
func writeGeminiConfig(h *rig.Home) error {
	return rig.WriteFile(filepath.Join(h.Home, ".gemini", "settings.json"),
		`{"security":{"auth":{"selectedType":"gemini-api-key"}},`+
			`"general":{"disableAutoUpdate":true,"disableUpdateNag":true},`+
			`"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`+"\n")
}

var geminiColorQ = map[string]any{"questions": []any{map[string]any{
	"question": "Which color should the button be?", "header": "Color", "type": "choice",
	"options": []any{
		map[string]any{"label": "Red", "description": "A warm, attention-grabbing color"},
		map[string]any{"label": "Green", "description": "Calm and positive"},
		map[string]any{"label": "Blue", "description": "Cool and trustworthy"},
	}}}}

func geminiScript(string) fakemodel.Script {
	return fakemodel.Script{Keywords: []fakemodel.Keyword{
		{Word: "run-touch", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "run_shell_command",
			Input: map[string]any{"command": "touch fake-created.txt", "description": "Create an empty file"}}}},
		{Word: "run-ls", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "run_shell_command",
			Input: map[string]any{"command": "ls -la", "description": "List the files in the workspace"}}}},
		{Word: "write-notes", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "write_file",
			Input: map[string]any{"file_path": "notes.txt", "content": "written by the fake model\n"}}}},
		{Word: "ask-color", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "ask_user", Input: geminiColorQ}}},
		{Word: "slow-work", Reply: fakemodel.Reply{Text: "This answer took a long time.", FirstDelay: 45 * time.Second}},
		// A 400 is not retried: the error shows at once.
		{Word: "fail-bad", Reply: fakemodel.Reply{Text: "Through after the API error."},
			Fail: &fakemodel.Failure{Kind: fakemodel.FailServerError, Status: 400}},
		{Word: "hello", Reply: fakemodel.Reply{Text: "Hello from the fake model on 127.0.0.1."}},
	}, AfterTool: func(result string, isError bool) fakemodel.Reply {
		return fakemodel.Reply{Text: "Done: the tool has run."}
	}}
}
