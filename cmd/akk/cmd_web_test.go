package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/web"
)

// TestWebSessionsCmd: `akk web sessions` lists the browsers paired with
// the akk web on --listen's port by their user agents, --revoke unpairs
// one, and an unknown id or no akk web at all is a clear failure. `akk web`
// with flags and no subcommand still serves (here: it gets as far as
// asking for the daemon).
func TestWebSessionsCmd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "akk")
	sock := filepath.Join(dir, api.SocketName)
	sessions := web.NewSessions(nil, 0)
	phone, _, _ := sessions.Redeem(sessions.NewCode(), "Mozilla/5.0 (iPhone) Safari/604.1")
	ln, err := api.Listen(web.ControlPath(dir, "7799"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- web.ServeControl(ctx, api.OwnerOnly(ln, os.Getuid(), nil), sessions) }()
	t.Cleanup(func() { cancel(); <-done })
	akk := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		return code, out.String(), errb.String()
	}
	base := []string{"web", "sessions", "--socket", sock, "--listen", "127.0.0.1:7799"}
	if code, out, errs := akk(base...); code != exitOK || !strings.Contains(out, phone.ID) || !strings.Contains(out, "iPhone") {
		t.Fatalf("list: %d %q %q", code, out, errs)
	}
	if code, out, _ := akk(append(base, "--revoke", phone.ID)...); code != exitOK || !strings.Contains(out, "revoked "+phone.ID) {
		t.Fatalf("revoke: %d %q", code, out)
	}
	if code, _, errs := akk(append(base, "--revoke", phone.ID)...); code != exitFailure || !strings.Contains(errs, "no paired browser has the id") {
		t.Errorf("revoke twice: %d %q", code, errs)
	}
	if code, out, _ := akk(append([]string{"--json"}, base...)...); code != exitOK || !strings.Contains(out, `"sessions":null`) && !strings.Contains(out, `"sessions":[]`) {
		t.Errorf("json after revoke: %d %q", code, out)
	}
	if code, _, errs := akk("web", "sessions", "--socket", sock, "--listen", "127.0.0.1:7800"); code != exitFailure || !strings.Contains(errs, "is akk web running") {
		t.Errorf("no akk web on that port: %d %q", code, errs)
	}
	// The serve command is the default: its flags parse without "serve".
	start := time.Now()
	if code, _, errs := akk("web", "--socket", filepath.Join(t.TempDir(), "none", "akk.sock"), "--listen", "127.0.0.1:0", "--config", filepath.Join(t.TempDir(), "absent.toml")); code != exitFailure ||
		!strings.Contains(errs, "absent.toml") {
		t.Errorf("akk web with flags: %d %q (%v)", code, errs, time.Since(start))
	}
}

// TestWebConfig: the [web] table of config.toml, the daemon's file: akk
// attach accepts it, akk web reads its tunnels' uids and session max age,
// and values that cannot be meant are refused.
func TestWebConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	for _, tc := range []struct{ text, wantErr string }{
		{"[web]\nallow_uids = [0, 1001]\nsession_max_age = \"168h\"\n", ""},
		{"[web]\nallow_uids = [-1]\n", "is not a uid"},
		{"[web]\nsession_max_age = \"10s\"\n", "at least 1m"},
		{"[web]\nallow_uid = [0]\n", "unknown key web.allow_uid"},
	} {
		if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		set, err := loadAttachConfig(path)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: %v, want %q", tc.text, err, tc.wantErr)
			}
			continue
		}
		if err != nil || len(set.Web.AllowUIDs) != 2 || set.Web.AllowUIDs[1] != 1001 || set.Web.SessionMaxAge.Duration != 168*time.Hour {
			t.Errorf("%q: %+v %v", tc.text, set.Web, err)
		}
	}
}
