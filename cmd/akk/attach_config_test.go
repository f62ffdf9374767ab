package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAttachConfig(t *testing.T) {
	cases := []struct {
		name, text, wantErr string
		check               func(t *testing.T, routes int, timeout, stable time.Duration)
	}{
		{name: "routes and windows", text: `
default_routes = ["hook"]
stable_idle = "2s"
[[route]]
name = "hook"
kind = "webhook"
url = "http://127.0.0.1:9/akk"
timeout = "3s"
[[route]]
name = "cmd"
kind = "command"
command = ["/bin/true"]
`, check: func(t *testing.T, routes int, timeout, stable time.Duration) {
			if routes != 2 || timeout != 3*time.Second || stable != 2*time.Second {
				t.Errorf("routes %d timeout %v stable %v", routes, timeout, stable)
			}
		}},
		{name: "an owner's routes", text: `
[[route]]
name = "a"
kind = "webhook"
url = "http://127.0.0.1:9/a"
[[route]]
name = "screen"
kind = "tmux"
[[owner]]
name = "openclaw"
routes = ["a"]
`, check: func(t *testing.T, routes int, timeout, stable time.Duration) {}},
		{name: "an openclaw route", text: `
[[route]]
name = "openclaw"
kind = "openclaw"
url = "http://127.0.0.1:18789"
session_key = "agent:main:akk-main"
token_file = "~/hooks.token"
[[owner]]
name = "openclaw"
routes = ["openclaw"]
`, check: func(t *testing.T, routes int, timeout, stable time.Duration) {
			if routes != 1 || timeout != 0 {
				t.Errorf("routes %d timeout %v", routes, timeout)
			}
		}},
		{name: "a person's routes (the README's)", text: `
[[route]]
name = "desktop"
kind = "desktop"
[[route]]
name = "terminal"
kind = "terminal"
osc = "777"
[[route]]
name = "phone"
kind = "webhook"
person = true
url = "https://ntfy.sh/"
body_template = '{"topic":"my-akk-topic","title":{{json .Title}},"message":{{json .Message}},"click":{{json .Link}}}'
`, check: func(t *testing.T, routes int, timeout, stable time.Duration) {
			if routes != 3 {
				t.Errorf("routes %d", routes)
			}
		}},
		{name: "person on an openclaw route", text: "[[route]]\nname = \"o\"\nkind = \"openclaw\"\nurl = \"http://127.0.0.1:1\"\nsession_key = \"agent:main:akk-x\"\ntoken_file = \"/t\"\nperson = true\n",
			wantErr: "person applies"},
		{name: "an owner with a bad name", text: "[[owner]]\nname = \"Open Claw\"\nroutes = []\n", wantErr: "--controller"},
		{name: "an owner twice", text: "[[owner]]\nname = \"x\"\n[[owner]]\nname = \"x\"\n", wantErr: "twice"},
		{name: "unknown key refused", text: "[[route]]\nname = \"a\"\nkind = \"webhook\"\nulr = \"x\"\n", wantErr: "unknown key"},
		{name: "bad duration", text: "stable_idle = \"soon\"\n", wantErr: "soon"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(p, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			set, err := loadAttachConfig(p)
			cb, tasks := set.Callbacks, set.Tasks
			if err == nil {
				err = cb.Validate() // as akk attach does
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, len(cb.Routes), cb.Routes[0].Timeout, tasks.StableIdle)
		})
	}
	// An owner's routes replace the default ones, and the person routes
	// (tmux) are added; another owner gets the default.
	p := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(p, []byte(cases[1].text), 0o600)
	set, err := loadAttachConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	cb := set.Callbacks
	if err := cb.Validate(); err != nil {
		t.Fatal(err)
	}
	cb.EnsureDefaults()
	if got := cb.RoutesFor("mcp:openclaw"); strings.Join(got, ",") != "a,screen" {
		t.Errorf("openclaw's routes %v, want a and the tmux route", got)
	}
	if got := cb.RoutesFor("mcp:elsewhere"); strings.Join(got, ",") != "a,screen" {
		t.Errorf("another owner's routes %v, want the default (every route)", got)
	}
	cb.Default = []string{"screen"}
	if got := cb.RoutesFor("mcp:elsewhere"); strings.Join(got, ",") != "screen" {
		t.Errorf("another owner's routes %v, want default_routes", got)
	}
	// default_routes without the person route: it is added all the same.
	cb.Default = []string{"a"}
	if got := cb.RoutesFor("mcp:elsewhere"); strings.Join(got, ",") != "a,screen" {
		t.Errorf("another owner's routes %v, want default_routes and the tmux route", got)
	}
	// A person's routes join every owner's; the controller's do not.
	os.WriteFile(p, []byte(cases[3].text+"[[route]]\nname = \"host\"\nkind = \"webhook\"\nurl = \"http://127.0.0.1:9/h\"\n"+
		"[[owner]]\nname = \"openclaw\"\nroutes = [\"host\"]\n"), 0o600)
	if set, err = loadAttachConfig(p); err != nil {
		t.Fatal(err)
	}
	cb = set.Callbacks
	if err := cb.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := cb.RoutesFor("mcp:openclaw"); strings.Join(got, ",") != "host,desktop,terminal,phone" {
		t.Errorf("openclaw's routes %v, want its own and the person's", got)
	}
	if got := strings.Join(cb.PersonRoutes(), ","); got != "desktop,terminal,phone" {
		t.Errorf("person routes %s", got)
	}
	// The default path may be absent; an explicit one may not.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if _, err := loadAttachConfig(""); err != nil {
		t.Errorf("absent default config: %v", err)
	}
	if _, err := loadAttachConfig(filepath.Join(t.TempDir(), "none.toml")); err == nil {
		t.Error("absent explicit config accepted")
	}
}
