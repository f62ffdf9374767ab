package opencoderig

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// openCodeKey is the API key of the fake provider (sent as a bearer).
const openCodeKey = "sk-fake-opencode-local"

// openCodeModel is the fake provider's model id; the model-long variant
// names a longer one.
const openCodeModel = "fake-model"

// openCodeEnv is OpenCode's whole environment: its XDG directories inside
// the run's HOME, no update check, no models.dev fetch, and an npm
// registry on a closed local port (OpenCode fetches its plugin package's
// metadata in the background; nothing of it is needed offline).
func openCodeEnv(h *rig.Home) []string {
	return []string{"HOME=" + h.Home, "TMPDIR=" + h.Tmp, "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"XDG_CONFIG_HOME=" + filepath.Join(h.Home, ".config"), "XDG_DATA_HOME=" + filepath.Join(h.Home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(h.Home, ".cache"), "XDG_STATE_HOME=" + filepath.Join(h.Home, ".local", "state"),
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1",
		"npm_config_registry=http://127.0.0.1:9/"}
}

// openCodeConfig is ~/.config/opencode/opencode.json: the fake provider
// (OpenAI chat completions at url), its one model, no sharing, and bash,
// edit and webfetch asking first.
func openCodeConfig(url, model string) map[string]any {
	return map[string]any{
		"$schema": "https://opencode.ai/config.json", "autoupdate": false, "share": "disabled",
		"provider": map[string]any{"fake": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Fake",
			"options": map[string]any{"baseURL": url + "/v1", "apiKey": openCodeKey},
			"models":  map[string]any{model: map[string]any{"name": "Fake Model"}}}},
		"model":      "fake/" + model,
		"permission": map[string]any{"bash": "ask", "edit": "ask", "webfetch": "ask"},
	}
}

// writeOpenCodeConfig writes the config for model.
func writeOpenCodeConfig(h *rig.Home, url, model string) error {
	b, err := json.MarshalIndent(openCodeConfig(url, model), "", "  ")
	if err != nil {
		return err
	}
	return rig.WriteFile(filepath.Join(h.Home, ".config", "opencode", "opencode.json"), string(b)+"\n")
}

var openCodeColorQ = map[string]any{"questions": []any{map[string]any{
	"question": "Which color should the button be?", "header": "Color",
	"options": []any{
		map[string]any{"label": "Red", "description": "A warm, attention-grabbing color"},
		map[string]any{"label": "Green", "description": "Calm and positive"},
		map[string]any{"label": "Blue", "description": "Cool and trustworthy"},
	}}}}

// setOpenCodeModel makes model the fake provider's one model (its id and
// its name) in the config written before.
func setOpenCodeModel(h *rig.Home, model string) error {
	path := filepath.Join(h.Home, ".config", "opencode", "opencode.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var cfg struct {
		Provider map[string]struct {
			Options map[string]any `json:"options"`
		} `json:"provider"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("rig: %s: %w", path, err)
	}
	url, _ := cfg.Provider["fake"].Options["baseURL"].(string)
	c := openCodeConfig(strings.TrimSuffix(url, "/v1"), model)
	c["provider"].(map[string]any)["fake"].(map[string]any)["models"] = map[string]any{model: map[string]any{"name": model}}
	out, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return rig.WriteFile(path, string(out)+"\n")
}

func openCodeScript(string) fakemodel.Script {
	return fakemodel.Script{Keywords: []fakemodel.Keyword{
		{Word: "run-touch", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "bash",
			Input: map[string]any{"command": "touch fake-created.txt"}}}},
		{Word: "write-notes", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "write",
			Input: map[string]any{"filePath": "notes.txt", "content": "written by the fake model\n"}}}},
		{Word: "ask-color", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "question", Input: openCodeColorQ}}},
		// OpenCode retries a 429 and a 5xx by itself (a "[retrying in Ns
		// attempt #N]" row while the turn runs); an error it does not
		// retry is a 4xx other than 429: a 403 with OpenAI's quota body.
		{Word: "rate-limit", Reply: fakemodel.Reply{Text: "Answered after a retry."},
			Fail: &fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 30}},
		{Word: "quota-error", Reply: fakemodel.Reply{Text: "Answered after the API error."},
			Fail: &fakemodel.Failure{Kind: fakemodel.FailUsageLimit, Status: 403}},
		{Word: "slow-work", Reply: fakemodel.Reply{Text: "This answer took a long time.", FirstDelay: 45 * time.Second}},
		{Word: "hello", Reply: fakemodel.Reply{Text: "Hello from the fake model on 127.0.0.1."}},
	}, AfterTool: func(result string, isError bool) fakemodel.Reply {
		return fakemodel.Reply{Text: "Done: the tool has run."}
	}}
}

// OpenCode's stable anchors (1.18.33): the composer's agent row and its
// box's bottom edge, the working row's interrupt
// hint, the permission dialog's header, buttons and hints.
const (
	openCodeAgentRow  = "Build · "
	openCodeBusy      = "esc interrupt"
	openCodeBusyAgain = "esc again to interrupt"
	openCodePermTitle = "△ Permission required"
	openCodeButtons   = "Allow once   Allow always   Reject"
	openCodeAlways    = "△ Always allow"
	openCodeInterrupt = "· interrupted"
	openCodeQuiet     = 300 * time.Millisecond
)

// idle waits for the composer at rest: its agent row and its
// box's bottom edge, no working row and no dialog.
func (s steps) idle() {
	s.Screen(openCodeAgentRow, "╹▀▀▀")
	s.Gone(openCodeBusy, openCodeBusyAgain, openCodePermTitle)
	s.Quiet(openCodeQuiet)
}

// prompt types a prompt, waits until the composer shows it and
// submits it. OpenCode reads a paste only from a bracketed paste: typed
// bytes and an Enter right after them submit (measured: one burst of
// "hello there\r" was sent as the prompt).
func (s steps) prompt(prompt string) {
	s.Type(prompt)
	s.Screen("┃  " + prompt)
	s.Key("Enter")
}

// parts waits until a part of the session database (OpenCode's
// record of the conversation: ~/.local/share/opencode/opencode.db, a
// WAL-mode SQLite) satisfies ok. It reads with the sqlite3 command,
// read-only; the rig has no SQLite driver of its own.
func (s steps) parts(desc string, ok func(map[string]any) bool) {
	s.Do(func() error { return waitParts(s.d, desc, ok) })
}

func waitParts(d *rig.Driver, desc string, ok func(map[string]any) bool) error {
	return d.Until("parts: "+desc, 200*time.Millisecond, func(ctx context.Context) bool {
		for _, line := range bytes.Split(openCodeJournal(ctx, d.Home.Home), []byte("\n")) {
			var m map[string]any
			if json.Unmarshal(line, &m) == nil && ok(m) {
				return true
			}
		}
		return false
	})
}

// openCodeLog is the run's journal: the event log of every session of
// the store (OpenCode's own durable record: one row per change, seq in
// order per session), one JSON object a line ({"session", "seq", "type",
// "data"}, data the row's own JSON), as watchers' OpenCode parser reads
// them. Nil when there is no store yet or sqlite3 cannot read it.
func openCodeLog(ctx context.Context, home string) []byte {
	return openCodeQuery(ctx, home, `select json_object('session', aggregate_id, 'seq', seq, 'type', type, 'data', json(data)) from event order by aggregate_id, seq;`)
}

// openCodeQuery runs q on the store under home with the sqlite3 command,
// read-only (the rig lies below the watchers and their reader): its
// output, nil when there is no store yet or sqlite3 cannot read it.
func openCodeQuery(ctx context.Context, home, q string) []byte {
	db := openCodeDB(home)
	if _, err := os.Stat(db); err != nil {
		return nil
	}
	out, err := exec.CommandContext(ctx, "sqlite3", "-readonly", "file:"+db+"?mode=ro", q).Output()
	if err != nil {
		return nil
	}
	return out
}

// openCodeDB is the session database under home.
func openCodeDB(home string) string {
	return filepath.Join(home, ".local", "share", "opencode", "opencode.db")
}

// openCodeJournal is every part of the session database, oldest first,
// one JSON object a line ({"session", "message", "id", "data"}, data the
// part's own JSON): what the scenarios wait on. Nil when there is no
// database yet or sqlite3 cannot read it.
func openCodeJournal(ctx context.Context, home string) []byte {
	return openCodeQuery(ctx, home, `select json_object('session', session_id, 'message', message_id, 'id', id, 'data', json(data)) from part order by time_created, id;`)
}

// openCodePart matches a part by its data's type and content.
func openCodePart(typ string, subs ...string) func(map[string]any) bool {
	return func(m map[string]any) bool {
		data, _ := m["data"].(map[string]any)
		if data == nil || data["type"] != typ {
			return false
		}
		return rig.JSONHas(data, subs...)
	}
}
