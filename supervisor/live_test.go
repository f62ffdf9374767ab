package supervisor

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// liveAgent is a real pinned agent in an isolated HOME talking to a fake
// model on 127.0.0.1, in a pane of an isolated tmux server.
type liveAgent struct {
	home, work string
	pane       string
	srv        *tmuxtest.Server
	// command is the shell command that starts the agent (run it in
	// work).
	command string
	// log holds every request the agent's fake model got.
	log *fakemodel.Log
}

// openPane runs the agent in a new 120x40 window of its server, in its
// project directory.
func (la *liveAgent) openPane(t *testing.T) {
	la.pane = newWindow(t, la.srv, 120, 40, "sh -c "+shq(fmt.Sprintf("cd %s && exec %s", shq(la.work), la.command)))
}

// withRoots is o pointed at where Claude Code and Codex keep their files
// in la's HOME, the daemon's way to the agent's own record.
func (la *liveAgent) withRoots(o daemonOpts) daemonOpts {
	o.claudeProjects = filepath.Join(la.home, ".claude", "projects")
	o.codexSessions = filepath.Join(la.home, ".codex", "sessions")
	return o
}

// prepareLive sets up agent@version (installed by the rig into its cache;
// the live tier is skipped without it unless AKK_REQUIRE names it): its
// HOME, its fake model, its tmux server, and the command that starts it.
func prepareLive(t *testing.T, agent, version string, script fakemodel.Script) *liveAgent {
	return prepareLiveModel(t, agent, version, "", script)
}

// prepareLiveModel is prepareLive with the model Codex is configured with
// ("": gpt-5.5; gpt-6-astra offers request_user_input_async).
func prepareLiveModel(t *testing.T, agent, version, model string, script fakemodel.Script) *liveAgent {
	return prepareLiveWith(t, agent, version, model, func(*liveAgent, *fakemodel.Log) fakemodel.Script { return script })
}

// prepareLiveWith is prepareLiveModel with the script made once the run's
// directories exist (a rule names the project's files by absolute path)
// and given the model's request log (a rule may read what the agent sent).
func prepareLiveWith(t *testing.T, agent, version, model string, mk func(*liveAgent, *fakemodel.Log) fakemodel.Script) *liveAgent {
	tmuxtest.RequireTmux(t)
	in, err := rig.Lookup(agent, version)
	tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("%s@%s not installed (go run ./recordings/cmd/rig -install %s@%s): %v", agent, version, agent, version, err))
	root := t.TempDir()
	la := &liveAgent{home: filepath.Join(root, "home")}
	work := filepath.Join(la.home, "project")
	os.MkdirAll(work, 0o755)
	os.MkdirAll(filepath.Join(root, "tmp"), 0o755)
	la.work, _ = filepath.EvalSymlinks(work)
	var srvModel *fakemodel.Server
	modelLog := fakemodel.NewLog(nil)
	la.log = modelLog
	script := mk(la, modelLog)
	env := []string{"HOME=" + la.home, "TMPDIR=" + filepath.Join(root, "tmp"), "TERM=xterm-256color", "LANG=C.UTF-8",
		"PATH=/usr/local/bin:/usr/bin:/bin"}
	var args []string
	switch agent {
	case "claude":
		if srvModel, err = fakemodel.Anthropic(script, modelLog, testLogger(t)); err != nil {
			t.Fatal(err)
		}
		key := "sk-ant-api03-" + strings.Repeat("fake", 13) + "-AAAA"
		env = append(env, "ANTHROPIC_BASE_URL="+srvModel.URL(), "ANTHROPIC_API_KEY="+key, "DISABLE_TELEMETRY=1",
			"DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
		writeJSON(t, filepath.Join(la.home, ".claude.json"), map[string]any{
			"numStartups": 5, "installMethod": "npm", "autoUpdates": false, "hasCompletedOnboarding": true,
			"lastOnboardingVersion": version, "lastReleaseNotesSeen": version, "theme": "dark", "hasSeenAutoDefaultNudge": true,
			"customApiKeyResponses": map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
			"projects": map[string]any{la.work: map[string]any{"allowedTools": []string{}, "hasTrustDialogAccepted": true,
				"hasCompletedProjectOnboarding": true, "projectOnboardingSeenCount": 1}}})
		writeJSON(t, filepath.Join(la.home, ".claude", "settings.json"), map[string]any{"permissions": map[string]any{"defaultMode": "default"}})
	case "codex":
		if srvModel, err = fakemodel.Responses(script, modelLog, testLogger(t)); err != nil {
			t.Fatal(err)
		}
		env = append(env, "CODEX_HOME="+filepath.Join(la.home, ".codex"), "FAKE_OPENAI_API_KEY=sk-fake-local")
		cfg := fmt.Sprintf(`model = %q
model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "read-only"
check_for_update_on_startup = false
suppress_unstable_features_warning = true

[model_providers.fake]
name = "Fake"
base_url = %q
wire_api = "responses"
env_key = "FAKE_OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[tui]
show_tooltips = false

[projects.%q]
trust_level = "trusted"

[features]
default_mode_request_user_input = true
`, cmp.Or(model, "gpt-5.5"), srvModel.URL()+"/v1", la.work)
		os.MkdirAll(filepath.Join(la.home, ".codex"), 0o755)
		if err := os.WriteFile(filepath.Join(la.home, ".codex", "config.toml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, _ := exec.Command(in.Bin, "--help").CombinedOutput(); strings.Contains(string(out), "--no-daemon") {
			args = []string{"--no-daemon"}
		}
	case "gemini":
		if srvModel, err = fakemodel.GenerativeLanguage(script, modelLog, testLogger(t)); err != nil {
			t.Fatal(err)
		}
		// docs/research/gemini-opencode-offline.md: the key as the auth
		// method, no update check, no statistics; a trusted workspace.
		env = append(env, "COLORTERM=truecolor", "GOOGLE_GEMINI_BASE_URL="+srvModel.URL(), "GEMINI_API_KEY=fake-gemini-key-local",
			"GEMINI_CLI_TRUST_WORKSPACE=true")
		writeJSON(t, filepath.Join(la.home, ".gemini", "settings.json"), map[string]any{
			"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
			"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
			"privacy":  map[string]any{"usageStatisticsEnabled": false}, "telemetry": map[string]any{"enabled": false}})
	case "opencode":
		if srvModel, err = fakemodel.Chat(script, modelLog, testLogger(t)); err != nil {
			t.Fatal(err)
		}
		// docs/research/gemini-opencode-offline.md: its XDG directories in
		// HOME, no update check or models.dev fetch, npm's registry on a
		// closed port; the fake as a custom provider; bash and edit ask.
		env = append(env, "COLORTERM=truecolor", "XDG_CONFIG_HOME="+filepath.Join(la.home, ".config"),
			"XDG_DATA_HOME="+filepath.Join(la.home, ".local", "share"), "XDG_CACHE_HOME="+filepath.Join(la.home, ".cache"),
			"XDG_STATE_HOME="+filepath.Join(la.home, ".local", "state"), "OPENCODE_DISABLE_AUTOUPDATE=1",
			"OPENCODE_DISABLE_MODELS_FETCH=1", "npm_config_registry=http://127.0.0.1:9/")
		writeJSON(t, filepath.Join(la.home, ".config", "opencode", "opencode.json"), map[string]any{
			"autoupdate": false, "share": "disabled", "model": "fake/fake-model",
			"provider": map[string]any{"fake": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Fake",
				"options": map[string]any{"baseURL": srvModel.URL() + "/v1", "apiKey": "sk-fake-opencode-local"},
				"models":  map[string]any{"fake-model": map[string]any{"name": "Fake Model"}}}},
			"permission": map[string]any{"bash": "ask", "edit": "ask", "webfetch": "ask"}})
	}
	t.Cleanup(func() { srvModel.Close() })
	endProcessesOf(t, la.home)
	la.srv = tmuxtest.StartFixed(t, 120, 40, "sh")
	la.dumpOnFailure(t, modelLog)
	argv := append(append(append([]string{"env", "-i"}, env...), in.Bin), args...)
	la.command = strings.Join(mapq(argv), " ")
	return la
}

// liveHomes are the agents' HOMEs of each running test.
var liveHomes = struct {
	sync.Mutex
	m map[testing.TB][]string
}{m: map[testing.TB][]string{}}

// endProcessesOf makes the test end every process of home once all its
// tmux servers are killed: the check is registered once per test, before
// its first server, so that it runs after every server's kill (cleanups
// run last-registered first; a test may run all its agents on its first
// agent's server). An agent's process still there fails the test, named.
func endProcessesOf(t testing.TB, home string) {
	liveHomes.Lock()
	defer liveHomes.Unlock()
	first := len(liveHomes.m[t]) == 0
	liveHomes.m[t] = append(liveHomes.m[t], home)
	if !first {
		return
	}
	t.Cleanup(func() {
		liveHomes.Lock()
		homes := liveHomes.m[t]
		delete(liveHomes.m, t)
		liveHomes.Unlock()
		for _, h := range homes {
			if err := rig.EndProcessesOf(context.Background(), h); err != nil {
				t.Error(err)
			}
		}
	})
}

// startLive runs agent@version in a new pane of its own tmux server.
func startLive(t *testing.T, agent, version string, script fakemodel.Script) *liveAgent {
	la := prepareLive(t, agent, version, script)
	la.openPane(t)
	return la
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func mapq(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = shq(s)
	}
	return out
}

func writeJSON(t *testing.T, path string, v any) {
	b, _ := json.Marshal(v)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// awaitRow waits until the pane's row satisfies ok (which says what is
// missing, or "").
func awaitRow(t *testing.T, cl *api.Client, pane string, d time.Duration, ok func(api.Terminal) string) api.Terminal {
	t.Helper()
	var row api.Terminal
	tmuxtest.Await(t, d, func() string {
		l, err := cl.List(context.Background())
		if err != nil {
			return err.Error()
		}
		row, _ = rowOf(l, pane)
		if why := ok(row); why != "" {
			return fmt.Sprintf("%s: %+v", why, row)
		}
		return ""
	})
	return row
}

// livePermission runs one permission round trip: idle with the native
// session verifiably absent, a prompt that makes the model ask for a
// tool, the approval prompt (screen, interaction, native session resolved,
// durable activity from the transcript/rollout), the approval key typed by
// the test as a person would, and idle again on both axes.
func livePermission(t *testing.T, agent, version, prompt, approveKey string, script fakemodel.Script) {
	la := startLive(t, agent, version, script)
	d := startDaemon(t, la.srv, la.withRoots(daemonOpts{}))
	row := awaitRow(t, d.cl, la.pane, 60*time.Second, func(r api.Terminal) string {
		switch {
		case r.Agent != agent || r.Version != version || r.Replica || r.Profile != "exact":
			return "identity"
		case r.ScreenState != contract.ScreenIdle || r.Composer != contract.ComposerEmpty:
			return "screen"
		case r.ActivityState != contract.ActivityIdle:
			return "activity"
		case r.NativeIdentityState == contract.IdentityVerifiedAbsent && r.DurableActivityState == contract.DurableIdle:
		case agent == "codex" && r.NativeIdentityState == contract.IdentityUnavailable && r.DurableActivityState == contract.DurableUnavailable:
			// watchers: a Codex without $CODEX_HOME/sessions yet (before
			// its first prompt) is unavailable, not verified_absent.
		default:
			return "native axes"
		}
		return ""
	})
	if row.Cwd != la.work {
		t.Errorf("cwd %q, want %q", row.Cwd, la.work)
	}
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", prompt)
	time.Sleep(300 * time.Millisecond) // a paste-burst window: Enter apart from the text
	la.srv.MustRun("send-keys", "-t", la.pane, "Enter")
	row = awaitRow(t, d.cl, la.pane, 60*time.Second, func(r api.Terminal) string {
		switch {
		case r.ScreenState != contract.ScreenAwaitingApproval || r.Interaction == nil || r.Interaction.Kind != contract.KindPermission:
			return "screen"
		case r.NativeIdentityState != contract.IdentityResolved:
			return "native session"
		case r.DurableActivityState != contract.DurableWorking && r.DurableActivityState != contract.DurableAwaitingInput:
			return "durable"
		case r.ActivityState != contract.ActivityAwaitingApproval:
			return "activity"
		}
		return ""
	})
	if row.Interaction.State != contract.StatePending || !slices.Contains(row.Interaction.Decisions, "approve_once") {
		t.Errorf("permission interaction %+v", row.Interaction)
	}
	if a, ok := row.AvailableActions["approve"]; !ok || a.Arguments["terminal_id"] != row.TerminalID ||
		!slices.Equal(a.Decisions, []contract.Decision{"approve_once"}) {
		t.Errorf("a prompt a person started advertises %v, want approve_once by terminal_id", row.AvailableActions)
	}
	st, err := d.cl.Status(context.Background(), api.StatusRequest{TerminalID: row.TerminalID})
	if err != nil || st.Evidence.Binding == nil || st.Evidence.Binding.SessionID == "" || st.Prompt == nil {
		t.Fatalf("status %+v %v", st, err)
	}
	la.srv.MustRun("send-keys", "-t", la.pane, "-l", approveKey)
	awaitRow(t, d.cl, la.pane, 60*time.Second, func(r api.Terminal) string {
		if r.ScreenState != contract.ScreenIdle || r.DurableActivityState != contract.DurableIdle || r.ActivityState != contract.ActivityIdle {
			return "idle again"
		}
		return ""
	})
	var bindings []api.Event
	d.cl.Events(context.Background(), 0, false, func(e api.Event) error {
		if e.Type == api.EventBindingChanged && e.TerminalID == row.TerminalID {
			bindings = append(bindings, e)
		}
		return nil
	})
	last := bindings[len(bindings)-1]
	if last.Attrs["native_identity_state"] != "resolved" || last.Attrs["native_session_id"] != st.Evidence.Binding.SessionID {
		t.Errorf("binding events %+v", bindings)
	}
}

func TestLiveClaudeSupervised(t *testing.T) {
	livePermission(t, "claude", "2.1.267", "run-touch", "1", fakemodel.Script{Keywords: []fakemodel.Keyword{
		{Word: "run-touch", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "Bash",
			Input: map[string]any{"command": "touch fake-created.txt", "description": "Create an empty file"}}}}}})
}

func TestLiveCodexSupervised(t *testing.T) {
	livePermission(t, "codex", "0.155.1", "run-ls", "y", fakemodel.Script{Keywords: []fakemodel.Keyword{
		{Word: "run-ls", Reply: fakemodel.Reply{Tool: &fakemodel.ToolCall{Name: "exec_command",
			Input: map[string]any{"cmd": "ls -la", "sandbox_permissions": "require_escalated",
				"justification": "Fake model wants to list the files in the workspace."}}}}}})
}
