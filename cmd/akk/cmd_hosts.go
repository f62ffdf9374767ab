package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Setting akk up in the controller hosts the seeds name: OpenClaw (its
// MCP server entry, the hooks that let akk wake the conversation, the
// skill that tells its agent the rules) and Pi (its MCP entry).

// OpenClawCmd groups the OpenClaw commands.
type OpenClawCmd struct {
	Setup OpenClawSetupCmd `cmd:"" help:"Register akk in OpenClaw: its MCP server, the hook akk's wake-ups go through, and the akk skill."`
}

// PiCmd groups the Pi commands.
type PiCmd struct {
	Setup PiSetupCmd `cmd:"" help:"Register akk as an MCP server of Pi (~/.pi/agent/mcp.json), its tools exposed directly."`
}

// OpenClawSetupCmd is `akk openclaw setup`.
type OpenClawSetupCmd struct {
	DaemonFlags
	OpenClaw   string `name:"openclaw" default:"openclaw" help:"The openclaw command." placeholder:"PATH"`
	Gateway    string `help:"The Gateway's URL (default: http://127.0.0.1:<gateway.port from its config, else 18789>)." placeholder:"URL"`
	SessionKey string `default:"agent:main:akk-main" help:"The OpenClaw conversation akk's wake-ups go to (a persistent session key; its prefix up to the last '-' is allowed in hooks)."`
	Controller string `default:"openclaw" help:"The controller name akk mcp runs under (akk's [[owner]] of its routes)."`
	Config     string `help:"akk's config file (default: $XDG_CONFIG_HOME/akk/config.toml)." type:"path"`
	TokenFile  string `help:"Where akk keeps the hooks token (default: openclaw-hooks.token beside akk's config)." type:"path"`
	SkillsDir  string `help:"Where the akk skill goes (default: <OpenClaw state dir>/skills)." type:"path"`
	DryRun     bool   `help:"Say what would change; change nothing."`
	TestWake   bool   `help:"Post one test wake-up to the session at the end (it starts a model turn, which your provider may bill)."`
	NoCheck    bool   `help:"Skip openclaw mcp doctor and skills info (they take ~15 s)."`
}

// setupStep is one thing a setup did (or would do, with --dry-run).
type setupStep struct {
	Step   string `json:"step"`
	Detail string `json:"detail"`
	Done   bool   `json:"done"`
}

// setupLog prints each step as it goes, and keeps them for --json.
type setupLog struct {
	out   io.Writer
	json  bool
	steps []setupStep
}

func (l *setupLog) add(step, detail string, done bool) {
	l.steps = append(l.steps, setupStep{step, detail, done})
	if !l.json {
		mark := "·"
		if done {
			mark = "✓"
		}
		fmt.Fprintf(l.out, "%s %s: %s\n", mark, step, detail)
	}
}

func (l *setupLog) finish() error {
	if !l.json {
		return nil
	}
	return json.NewEncoder(l.out).Encode(map[string]any{"v": 1, "steps": l.steps})
}

// Run sets OpenClaw up.
func (c *OpenClawSetupCmd) Run(ctx context.Context, g *Globals, stdout io.Writer) error {
	log := &setupLog{out: stdout, json: g.JSON}
	oc := openclawCLI{bin: c.OpenClaw}
	if _, err := exec.LookPath(c.OpenClaw); err != nil {
		return fmt.Errorf("akk openclaw setup: %s not found: install OpenClaw (npm install -g openclaw) or pass --openclaw PATH", c.OpenClaw)
	}
	akk, err := os.Executable()
	if err != nil {
		return fmt.Errorf("akk openclaw setup: where is akk itself: %w", err)
	}
	prefix, ok := sessionPrefix(c.SessionKey)
	if !ok {
		return fmt.Errorf("%w: --session-key %q: want a key such as agent:main:akk-main (its prefix up to the last '-' is what hooks allow)", errUsage, c.SessionKey)
	}
	cfgPath := cmp(c.Config, defaultConfigPath())
	tokenPath := cmp(c.TokenFile, filepath.Join(filepath.Dir(cfgPath), "openclaw-hooks.token"))
	hooks, err := oc.getJSON(ctx, "hooks")
	if err != nil {
		return err
	}
	token, replaced := hookToken(hooks, tokenPath)
	if replaced {
		log.add("hooks token", "the Gateway has a hooks token openclaw does not show: akk sets a new one (other hook clients of this Gateway need it too)", false)
	}
	gateway := c.Gateway
	if gateway == "" {
		port := 18789
		if gw, err := oc.getJSON(ctx, "gateway"); err == nil {
			if p, ok := gw["port"].(float64); ok && p > 0 {
				port = int(p)
			}
		}
		gateway = fmt.Sprintf("http://127.0.0.1:%d", port)
	}
	// akk's side: the token file, the route, the owner.
	if err := c.writeToken(log, tokenPath, token); err != nil {
		return err
	}
	if err := c.writeRoute(log, cfgPath, gateway, tokenPath); err != nil {
		return err
	}
	// OpenClaw's side: hooks (merged), akk's MCP server, the skill.
	hooks["enabled"], hooks["token"], hooks["allowRequestSessionKey"] = true, token, true
	if hooks["path"] == nil {
		hooks["path"] = "/hooks"
	}
	prefixes, _ := hooks["allowedSessionKeyPrefixes"].([]any)
	for _, p := range []string{"hook:", prefix} {
		if !slices.Contains(prefixes, any(p)) {
			prefixes = append(prefixes, p)
		}
	}
	hooks["allowedSessionKeyPrefixes"] = prefixes
	if err := c.apply(ctx, log, "OpenClaw hooks", fmt.Sprintf("enabled, token (akk's %s), session prefixes %v", tokenPath, prefixes),
		func() error { return oc.setJSON(ctx, "hooks", hooks) }); err != nil {
		return err
	}
	args := []string{"mcp", "--controller", c.Controller}
	if c.Socket != "" {
		args = append(args, "--socket", c.Socket)
	}
	if err := c.apply(ctx, log, "OpenClaw MCP server", fmt.Sprintf("akk = %s %s", akk, strings.Join(args, " ")),
		func() error { return oc.mcpSet(ctx, akk, args) }); err != nil {
		return err
	}
	skills := c.SkillsDir
	if skills == "" {
		skills = filepath.Join(openclawStateDir(), "skills")
	}
	skill := filepath.Join(skills, "akk", "SKILL.md")
	if err := c.apply(ctx, log, "akk skill", skill, func() error { return writeFileMkdir(skill, []byte(akkSkill), 0o644) }); err != nil {
		return err
	}
	if !c.DryRun && !c.NoCheck {
		c.check(ctx, log, oc)
	}
	if c.TestWake && !c.DryRun {
		c.testWake(ctx, log, gateway, token)
	}
	return log.finish()
}

// apply runs do unless this is a dry run, and logs the step.
func (c *OpenClawSetupCmd) apply(_ context.Context, log *setupLog, step, detail string, do func() error) error {
	if c.DryRun {
		log.add(step, "would set "+detail, false)
		return nil
	}
	if err := do(); err != nil {
		return fmt.Errorf("akk openclaw setup: %s: %w", step, err)
	}
	log.add(step, detail, true)
	return nil
}

// writeToken keeps the hooks token in akk's file, 0600.
func (c *OpenClawSetupCmd) writeToken(log *setupLog, path, token string) error {
	if old, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(old)) == token {
		log.add("hooks token", path+" (unchanged)", true)
		return nil
	}
	return c.apply(context.Background(), log, "hooks token", path+" (0600)", func() error {
		return writeFileMkdir(path, []byte(token+"\n"), 0o600)
	})
}

// writeRoute adds the openclaw route and its owner to akk's config, once:
// an existing route of that name is left as it is (said so).
func (c *OpenClawSetupCmd) writeRoute(log *setupLog, path, gateway, tokenPath string) error {
	var cur attachConfig
	if _, err := toml.DecodeFile(path, &cur); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("akk openclaw setup: read %s: %w", path, err)
	}
	for _, r := range cur.Routes {
		if r.Name == "openclaw" {
			log.add("akk route", fmt.Sprintf("%s already has a route named openclaw (%s %s): left as it is", path, r.Kind, r.URL), true)
			return nil
		}
	}
	block := fmt.Sprintf("\n# Wake-ups of OpenClaw's conversation %s (akk openclaw setup, %s).\n"+
		"[[route]]\nname = \"openclaw\"\nkind = \"openclaw\"\nurl = %q\nsession_key = %q\ntoken_file = %q\n",
		c.SessionKey, time.Now().Format(time.DateOnly), gateway, c.SessionKey, tokenPath)
	owned := slices.ContainsFunc(cur.Owners, func(o ownerConfig) bool { return o.Name == c.Controller })
	if !owned {
		block += fmt.Sprintf("\n[[owner]]\nname = %q\nroutes = [\"openclaw\"]\n", c.Controller)
	}
	detail := fmt.Sprintf("%s: route openclaw -> %s%s into %s", path, gateway, "/hooks/agent", c.SessionKey)
	if owned {
		detail += fmt.Sprintf(" (owner %s exists: add \"openclaw\" to its routes yourself)", c.Controller)
	}
	return c.apply(context.Background(), log, "akk route", detail, func() error {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		if _, err := f.WriteString(block); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}

// check runs OpenClaw's own checks of what setup wrote.
func (c *OpenClawSetupCmd) check(ctx context.Context, log *setupLog, oc openclawCLI) {
	if out, err := oc.run(ctx, "mcp", "doctor", "akk", "--probe"); err != nil {
		log.add("check: openclaw mcp doctor akk --probe", "FAILED: "+clipOut(out, err), false)
	} else {
		log.add("check: openclaw mcp doctor akk --probe", clipOut(out, nil), true)
	}
	if out, err := oc.run(ctx, "skills", "info", "akk", "--json"); err != nil {
		log.add("check: openclaw skills info akk", "FAILED: "+clipOut(out, err), false)
	} else {
		log.add("check: openclaw skills info akk", "loaded", true)
	}
}

// testWake posts one wake-up by hand (only with --test-wake).
func (c *OpenClawSetupCmd) testWake(ctx context.Context, log *setupLog, gateway, token string) {
	status, err := postHook(ctx, gateway, token, c.SessionKey, "akk setup test: akk can wake this conversation. Nothing to do.")
	if err != nil || status/100 != 2 {
		log.add("test wake-up", fmt.Sprintf("FAILED: status %d %v (is the Gateway running at %s?)", status, err, gateway), false)
		return
	}
	log.add("test wake-up", fmt.Sprintf("accepted (%d) into %s", status, c.SessionKey), true)
}

// sessionPrefix is the part of key hooks must allow: up to and with its
// last '-' ("agent:main:akk-main" -> "agent:main:akk-").
func sessionPrefix(key string) (string, bool) {
	i := strings.LastIndex(key, "-")
	if i <= 0 || i == len(key)-1 || strings.ContainsAny(key, " \t\n\"") {
		return "", false
	}
	return key[:i+1], true
}

// hookToken is the hooks token: the one akk kept (it wrote it to the
// Gateway before), else the Gateway's own when openclaw shows it, else a
// new one. replaced says a Gateway token akk cannot read (openclaw
// redacts it) is being replaced: its other hook clients need the new one.
func hookToken(hooks map[string]any, path string) (token string, replaced bool) {
	if b, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(b)) != "" {
		return strings.TrimSpace(string(b)), false
	}
	t, _ := hooks["token"].(string)
	if t != "" && !strings.HasPrefix(t, "__OPENCLAW_") {
		return t, false
	}
	var b [24]byte
	_, _ = rand.Read(b[:])
	return "akk-hooks-" + hex.EncodeToString(b[:]), t != ""
}

// openclawStateDir is OPENCLAW_STATE_DIR, else ~/.openclaw.
func openclawStateDir() string {
	if d := os.Getenv("OPENCLAW_STATE_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".openclaw")
}

func writeFileMkdir(path string, b []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, mode)
}

// clipOut is a command's output for one line of the log.
func clipOut(out []byte, err error) string {
	s := strings.Join(strings.Fields(string(out)), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	if err != nil {
		return fmt.Sprintf("%v: %s", err, s)
	}
	return s
}
