package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/internal/popup"
	"github.com/agent-knock-knock/akk/internal/ptyclient"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/port"
)

// TestTmuxPopupPortRace is seed 004's race with the popup as one of the
// ports: a real tmux client (through a pty) is asked a decision in a
// popup while the same question waits in the response-file channel.
//   - the file answers first: the popup closes and never answers;
//   - the person answers in the popup first: the request file is
//     withdrawn;
//   - the question is aborted: the popup closes, both channels clean up.
//
// Every case ends with the person typing a command into the pane: the
// client is usable again (no popup holds the keyboard).
func TestTmuxPopupPortRace(t *testing.T) {
	akk := buildAkk(t)
	prompt := port.Prompt{Title: "claude wants to run a command", Question: "Approve it once?",
		Lines:  []string{"Bash command", "  touch hello.txt"},
		Styled: "\x1b[1;38;5;174mBash command\x1b[0m\n  touch hello.txt\n"}
	for _, tc := range []struct {
		name     string
		act      func(t *testing.T, c *ptyclient.Client, files *port.Files, abort func())
		wantPort int // -1: aborted
		wantText string
	}{
		{"file answers first", func(t *testing.T, c *ptyclient.Client, files *port.Files, abort func()) {
			reqs, err := files.Pending()
			if err != nil || len(reqs) != 1 {
				t.Fatalf("pending requests %v %v", reqs, err)
			}
			if err := port.AnswerFile(files.Dir(), reqs[0].RequestID, "y"); err != nil {
				t.Fatal(err)
			}
		}, 1, "y"},
		{"popup answers first", func(t *testing.T, c *ptyclient.Client, files *port.Files, abort func()) {
			c.Keys("y")
		}, 0, "y"},
		{"the person says no in the popup", func(t *testing.T, c *ptyclient.Client, files *port.Files, abort func()) {
			c.Keys("1") // a digit is not an answer to a decision (it was "Yes")
			// A person's pause between the keys: the digit is handled (and
			// ignored) on its own, not in one read with the "n".
			time.Sleep(300 * time.Millisecond)
			c.Keys("n")
		}, 0, "n"},
		{"aborted", func(t *testing.T, c *ptyclient.Client, files *port.Files, abort func()) {
			abort()
		}, -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tmuxtest.Start(t, 100, 30, "sh")
			c := attachPerson(t, srv, "main", 100, 30)
			dir := t.TempDir()
			files, err := port.OpenFiles(filepath.Join(dir, "files"), testLog(t))
			if err != nil {
				t.Fatal(err)
			}
			popDir := filepath.Join(dir, "popup")
			pp := popup.NewPort(popDir, akk, srv.Socket, srv.Env, nil, testLog(t))
			pp.Client = popup.ViewingClient(pp.Tmux, "main")
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			type result struct {
				a   port.Answer
				err error
			}
			done := make(chan result, 1)
			go func() {
				a, err := port.Race(ctx, []port.Port{pp, files}, func(ctx context.Context, p port.Port) (string, error) {
					return p.AskDecision(ctx, prompt)
				})
				done <- result{a, err}
			}()
			c.AwaitText("akk asks: claude wants to run a command")
			c.AwaitText("n  No")
			// The prompt keeps its own style in the popup.
			if cell, ok := c.Cell("Bash command"); !ok || func() bool { fg, _, _ := cell.Style.Style.Decompose(); return fg != tcell.PaletteColor(174) }() {
				t.Errorf("Bash command drawn as %+v (found %v), want colour 174", cell.Style, ok)
			}
			c.Await("the file request", 5*time.Second, func() bool { r, _ := files.Pending(); return len(r) == 1 })
			start := time.Now()
			tc.act(t, c, files, cancel)
			var r result
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("the race did not end\n%s", c.Text())
			}
			t.Logf("figure: race ended %v after the winning act", time.Since(start).Round(time.Millisecond))
			if tc.wantPort < 0 {
				if !errors.Is(r.err, context.Canceled) {
					t.Fatalf("aborted race: %+v %v", r.a, r.err)
				}
			} else if r.err != nil || r.a.Port != tc.wantPort || port.Decision(r.a.Text) != tc.wantText {
				t.Fatalf("race: %+v %v, want port %d %q", r.a, r.err, tc.wantPort, tc.wantText)
			}
			// Race returned after every port did: the popup is closed and
			// both channels withdrew their files by now.
			c.AwaitGone("akk asks")
			for _, d := range []string{files.Dir(), popDir} {
				ents, _ := os.ReadDir(d)
				for _, e := range ents {
					if strings.HasSuffix(e.Name(), ".request") || strings.HasSuffix(e.Name(), ".response") {
						t.Errorf("left in %s: %s", d, e.Name())
					}
				}
			}
			if fi, err := os.Stat(popDir); err == nil && fi.Mode().Perm() != 0o700 {
				t.Errorf("popup dir mode %v", fi.Mode().Perm())
			}
			// The client is usable: keys reach the shell in the pane.
			c.Keys("echo usable-$((40+2))\r")
			c.AwaitText("usable-42")
		})
	}
}

// testLog logs to the test's output while it runs.
func testLog(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tLogWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tLogWriter struct{ t *testing.T }

func (w tLogWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
