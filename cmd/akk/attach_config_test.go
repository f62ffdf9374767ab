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
	// The default path may be absent; an explicit one may not.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if _, err := loadAttachConfig(""); err != nil {
		t.Errorf("absent default config: %v", err)
	}
	if _, err := loadAttachConfig(filepath.Join(t.TempDir(), "none.toml")); err == nil {
		t.Error("absent explicit config accepted")
	}
}
