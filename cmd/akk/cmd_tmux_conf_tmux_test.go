package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxPopupBindingQuiet runs the popup binding's run-shell command, as
// `akk tmux-conf` writes it, where display-popup fails (no client: the
// client's tty is empty, as when the client that pressed the key went
// away): the pane stays out of view mode. The same command without its
// guard puts the pane in view mode ("'…' returned 1"): the check can fail.
func TestTmuxPopupBindingQuiet(t *testing.T) {
	srv := tmuxtest.Start(t, 80, 24, "sh")
	pane := strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", "main", "#{pane_id}")))
	var bind string
	for _, l := range strings.Split(tmuxConf("/nonexistent/akk", "/nonexistent/akk.sock", "a", false), "\n") {
		if strings.HasPrefix(l, "bind-key a run-shell -b ") {
			bind = l
		}
	}
	if !strings.HasSuffix(bind, popupQuiet+`"`) {
		t.Fatalf("the binding does not end with %q:\n%s", popupQuiet, bind)
	}
	// The binding's own quoted command, run in the foreground on the pane
	// (run-shell -b from a key shows its output in the current pane).
	inMode := func(line string) string {
		conf := filepath.Join(t.TempDir(), "run.conf")
		line = strings.Replace(line, "bind-key a run-shell -b ", "run-shell -t "+pane+" ", 1)
		if err := os.WriteFile(conf, []byte(line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _ = srv.Run("source-file", conf) // the bare command fails: so does the client
		return strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", pane, "#{pane_in_mode}")))
	}
	if got := inMode(strings.Replace(bind, popupQuiet, "", 1)); got != "1" {
		t.Fatalf("without the guard, the failed display-popup left pane_in_mode %s, want 1: the test proves nothing", got)
	}
	srv.MustRun("send-keys", "-t", pane, "-X", "cancel")
	if got := strings.TrimSpace(string(srv.MustRun("display-message", "-p", "-t", pane, "#{pane_in_mode}"))); got != "0" {
		t.Fatalf("view mode not left: pane_in_mode %s", got)
	}
	if got := inMode(bind); got != "0" {
		t.Errorf("the binding left the pane in view mode (pane_in_mode %s):\n%s", got, srv.MustRun("capture-pane", "-p", "-t", pane))
	}
}
