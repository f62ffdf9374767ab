package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/supervisor"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// attachConfig is akk attach's configuration file: the callback routes and
// the monitors' windows. Routes live here (the trusted side), never in a
// request. Example:
//
//	default_routes = ["hook"]
//	max_attempts = 8
//	backoff_base = "1s"
//	backoff_max = "5m"
//	stable_idle = "5s"
//	watch_minutes = 720
//	stall_after = "60m"
//	hard_timeout = "12h"
//	qualify = "auto"           # qualify an agent binary akk does not pin in the background ("ask", the default: tell me once; "off")
//
//	[[route]]
//	name = "hook"
//	kind = "webhook"           # command, webhook or tmux
//	url = "http://127.0.0.1:8080/akk"
//	timeout = "10s"
//
//	[[route]]
//	name = "notify"
//	kind = "command"
//	command = ["/usr/local/bin/akk-notify", "--json"]
//
//	[[route]]                  # wake an OpenClaw conversation (akk openclaw setup writes it)
//	name = "openclaw"
//	kind = "openclaw"
//	url = "http://127.0.0.1:18789"          # the Gateway
//	session_key = "agent:main:akk-main"     # the conversation the wake-ups go to
//	token_file = "~/.config/akk/openclaw-hooks.token"   # the Gateway's hooks token
//
//	[[route]]                  # a webhook whose body is a template
//	name = "chat"
//	kind = "webhook"
//	url = "http://127.0.0.1:9000/post"
//	token_file = "/etc/akk/chat.token"      # sent as Authorization: Bearer
//	body_template = '{"text": {{json .Text}}}'
//
//	[[owner]]                  # the Turns and Watches of `akk mcp --controller openclaw`
//	name = "openclaw"
//	routes = ["hook"]          # instead of default_routes; tmux routes are added to either
//
//	[ask]
//	policy = "ask_person"      # a managed Turn's permission prompt is put to a person
//	run_dir = "/run/user/1000/akk/ask"   # request files (default: beside the API socket)
//	popup = true               # ask in a popup on the client viewing the session too
//
//	[web]                      # akk web's (web_config.go)
//	allow_uids = [0]           # a tunnel of another uid may connect
//	session_max_age = "720h"   # a paired browser's cookie lasts this long
type attachConfig struct {
	DefaultRoutes []string      `toml:"default_routes"`
	MaxAttempts   int           `toml:"max_attempts"`
	BackoffBase   duration      `toml:"backoff_base"`
	BackoffMax    duration      `toml:"backoff_max"`
	StableIdle    duration      `toml:"stable_idle"`
	WatchMinutes  int           `toml:"watch_minutes"`
	StallAfter    duration      `toml:"stall_after"`
	HardTimeout   duration      `toml:"hard_timeout"`
	Routes        []routeConfig `toml:"route"`
	Owners        []ownerConfig `toml:"owner"`
	Ask           askConfig     `toml:"ask"`
	Web           webConfig     `toml:"web"`
	// Qualify is what the daemon does with an agent binary it does not
	// pin and no qualification covers: "ask" (tell the person once,
	// the default), "auto" (qualify it in the background) or "off".
	Qualify string `toml:"qualify"`
}

// askConfig is the [ask] table: asking a person through the interaction
// port (supervisor/ask.go). popup defaults to true when the table names a
// policy: a person at tmux is the point of asking.
type askConfig struct {
	Policy string `toml:"policy"`
	RunDir string `toml:"run_dir"`
	Popup  *bool  `toml:"popup"`
}

// attachSettings is what the configuration file sets.
type attachSettings struct {
	Callbacks outbox.Config
	Tasks     supervisor.TaskConfig
	Ask       askConfig
	Web       webConfig
	Qualify   string
}

// ownerConfig is an [[owner]] table: the routes of one named MCP host.
type ownerConfig struct {
	Name   string   `toml:"name"`
	Routes []string `toml:"routes"`
}

type routeConfig struct {
	Name         string   `toml:"name"`
	Kind         string   `toml:"kind"`
	URL          string   `toml:"url"`
	Command      []string `toml:"command"`
	Timeout      duration `toml:"timeout"`
	TokenFile    string   `toml:"token_file"`
	SessionKey   string   `toml:"session_key"`
	BodyTemplate string   `toml:"body_template"`
	Person       bool     `toml:"person"`
	OSC          string   `toml:"osc"`
	Bus          string   `toml:"bus"`
}

// duration reads "1s", "5m" (TOML has no duration type).
type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	d.Duration = v
	return err
}

// defaultConfigPath is $XDG_CONFIG_HOME/akk/config.toml, else
// ~/.config/akk/config.toml.
func defaultConfigPath() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "akk", "config.toml")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "akk", "config.toml")
}

// loadAttachConfig reads path ("" : the default path, which may be
// absent). An unknown key is an error: a misspelt route must not be
// silently ignored.
func loadAttachConfig(path string) (attachSettings, error) {
	var set attachSettings
	explicit := path != ""
	if !explicit {
		path = defaultConfigPath()
	}
	if path == "" {
		return set, nil
	}
	var c attachConfig
	md, err := toml.DecodeFile(path, &c)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return set, nil
	}
	if err != nil {
		return set, fmt.Errorf("config %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return set, fmt.Errorf("config %s: unknown key %s", path, und[0])
	}
	cb := outbox.Config{Default: c.DefaultRoutes, MaxAttempts: c.MaxAttempts,
		BackoffBase: c.BackoffBase.Duration, BackoffMax: c.BackoffMax.Duration}
	for _, r := range c.Routes {
		cb.Routes = append(cb.Routes, outbox.RouteConfig{Name: r.Name, Kind: r.Kind, URL: r.URL,
			Command: r.Command, Timeout: r.Timeout.Duration, TokenFile: expandHome(r.TokenFile),
			SessionKey: r.SessionKey, BodyTemplate: r.BodyTemplate, Person: r.Person, OSC: r.OSC, Bus: r.Bus})
	}
	for _, o := range c.Owners {
		if !api.ValidOwnerName(o.Name) {
			return set, fmt.Errorf("config %s: [[owner]] name %q: the name given to akk mcp --controller (1-64 of a-z 0-9 . _ -)", path, o.Name)
		}
		key := "mcp:" + o.Name
		if _, dup := cb.Owners[key]; dup {
			return set, fmt.Errorf("config %s: [[owner]] %q twice", path, o.Name)
		}
		if cb.Owners == nil {
			cb.Owners = map[string][]string{}
		}
		cb.Owners[key] = append([]string{}, o.Routes...)
	}
	tc := supervisor.TaskConfig{StableIdle: c.StableIdle.Duration, WatchMinutes: c.WatchMinutes,
		StallAfter: c.StallAfter.Duration, HardTimeout: c.HardTimeout.Duration}
	if c.Ask.Policy != supervisor.AskOff && c.Ask.Policy != supervisor.AskPerson {
		return set, fmt.Errorf("config %s: [ask] policy %q: want %q", path, c.Ask.Policy, supervisor.AskPerson)
	}
	if err := c.Web.check(); err != nil {
		return set, fmt.Errorf("config %s: %w", path, err)
	}
	switch c.Qualify {
	case "", supervisor.QualifyAsk, supervisor.QualifyAuto, supervisor.QualifyOff:
	default:
		return set, fmt.Errorf("config %s: qualify = %q: want %q, %q or %q", path, c.Qualify, supervisor.QualifyAsk, supervisor.QualifyAuto, supervisor.QualifyOff)
	}
	return attachSettings{Callbacks: cb, Tasks: tc, Ask: c.Ask, Web: c.Web, Qualify: c.Qualify}, nil
}

// expandHome expands a leading "~/" to the user's home.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
