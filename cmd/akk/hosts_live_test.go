package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// openclawVersion is the OpenClaw the live tier installs.
const openclawVersion = "2026.9.6"

// TestLiveOpenClawSetup runs `akk openclaw setup` against the real
// OpenClaw CLI in a HOME of its own: akk's route and owner, the hooks
// token (0600, the same in both configs), OpenClaw's hooks merged with
// what was there, akk as its MCP server, the skill loaded (OpenClaw's own
// checks pass); run again it changes nothing; --dry-run writes nothing.
func TestLiveOpenClawSetup(t *testing.T) {
	in, err := rig.LookupHost("openclaw", openclawVersion)
	tmuxtest.Require(t, "openclaw", err == nil, fmt.Sprintf("openclaw@%s not installed (go run ./recordings/cmd/rig -install openclaw@%s): %v", openclawVersion, openclawVersion, err))
	akk := buildAkk(t)
	home := t.TempDir()
	state := filepath.Join(home, ".openclaw")
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "OPENCLAW_STATE_DIR="+state,
		"OPENCLAW_CONFIG_PATH="+filepath.Join(state, "openclaw.json"), "CI=1", "OPENCLAW_OFFLINE=1", "OPENCLAW_NO_AUTO_UPDATE=1",
		in.Env())
	run := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(akk, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("akk %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	ocGet := func(key string) map[string]any {
		t.Helper()
		cmd := exec.Command(in.Bin, "config", "get", key, "--json")
		cmd.Env = env
		out, err := cmd.Output()
		m := map[string]any{}
		if err == nil {
			err = json.Unmarshal(out[bytes.IndexByte(out, '{'):], &m)
		}
		if err != nil {
			t.Fatalf("openclaw config get %s: %v\n%s", key, err, out)
		}
		return m
	}
	// A person's own hook client was there first: its prefix stays.
	pre := exec.Command(in.Bin, "config", "set", "hooks", `{"allowedSessionKeyPrefixes":["hook:","mine:"]}`, "--strict-json")
	pre.Env = env
	if out, err := pre.CombinedOutput(); err != nil {
		t.Fatalf("openclaw config set: %v\n%s", err, out)
	}
	start := time.Now()
	var steps struct{ Steps []setupStep }
	if err := json.Unmarshal(run("--json", "openclaw", "setup", "--openclaw", in.Bin), &steps); err != nil {
		t.Fatal(err)
	}
	t.Logf("setup with checks in %s", time.Since(start).Round(time.Millisecond))
	for _, s := range steps.Steps {
		if !s.Done {
			t.Errorf("step %s: %s", s.Step, s.Detail)
		}
	}
	cfgPath := filepath.Join(home, ".config", "akk", "config.toml")
	set, err := loadAttachConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	route, ok := set.Callbacks.Route("openclaw")
	if err := set.Callbacks.Validate(); err != nil || !ok || route.Kind != outbox.RouteOpenClaw || route.SessionKey != "agent:main:akk-main" ||
		strings.Join(set.Callbacks.Owners["mcp:openclaw"], ",") != "openclaw" {
		t.Fatalf("akk config: %+v %v", set.Callbacks, err)
	}
	fi, err := os.Stat(route.TokenFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file %s: %v %v", route.TokenFile, fi, err)
	}
	token, _ := os.ReadFile(route.TokenFile)
	var oc struct {
		Hooks map[string]any `json:"hooks"`
		MCP   struct {
			Servers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"servers"`
		} `json:"mcp"`
	}
	raw, _ := os.ReadFile(filepath.Join(state, "openclaw.json"))
	if err := json.Unmarshal(raw, &oc); err != nil {
		t.Fatal(err)
	}
	if oc.Hooks["token"] != strings.TrimSpace(string(token)) || oc.Hooks["enabled"] != true || oc.Hooks["allowRequestSessionKey"] != true ||
		fmt.Sprint(oc.Hooks["allowedSessionKeyPrefixes"]) != "[hook: mine: agent:main:akk-]" ||
		oc.MCP.Servers["akk"].Command != akk || strings.Join(oc.MCP.Servers["akk"].Args, " ") != "mcp --controller openclaw" {
		t.Fatalf("openclaw config: hooks %v, mcp %+v", ocGet("hooks"), oc.MCP)
	}
	// Again: nothing changes. A dry run writes nothing.
	run("openclaw", "setup", "--openclaw", in.Bin, "--no-check")
	run("openclaw", "setup", "--openclaw", in.Bin, "--dry-run", "--session-key", "agent:main:akk-other")
	raw2, _ := os.ReadFile(filepath.Join(state, "openclaw.json"))
	cfg2, _ := os.ReadFile(cfgPath)
	token2, _ := os.ReadFile(route.TokenFile)
	var oc2 struct {
		Hooks map[string]any `json:"hooks"`
	}
	_ = json.Unmarshal(raw2, &oc2)
	if !bytes.Equal(token, token2) || strings.Count(string(cfg2), "[[route]]") != 1 || fmt.Sprint(oc2.Hooks) != fmt.Sprint(oc.Hooks) {
		t.Errorf("a second run or the dry run changed things:\n%s\nhooks %v", cfg2, oc2.Hooks)
	}
}
