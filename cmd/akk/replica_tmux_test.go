package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/akkbin"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
)

const corpusDir = "../../recordings/testdata"

func TestMain(m *testing.M) { akkbin.Main(m) }

// buildAkk is the akk binary, built once per test binary.
func buildAkk(t testing.TB) string { return akkbin.Build(t) }

// replicaRun runs `akk replica file` in an isolated tmux pane of the
// recording's size, sends inputs (the recorded ones, or a replacement) at
// the recorded points of the stream, and returns the pane's exit status
// and final screen text.
func replicaRun(t *testing.T, akk, file string, rec *recordings.Recording, inputs []recordings.RecordedInput) (int, string) {
	t.Helper()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "go")
	tmuxtest.Mkfifo(t, fifo)
	abs, _ := filepath.Abs(file)
	// The shell writes the replica's exit status to a file: tmux 3.3a
	// learns a dead pane's status only when it reaps the child, at times
	// seconds late, and waiting for it was most of this test's time.
	statusFile := filepath.Join(dir, "status")
	cmd := fmt.Sprintf("read _ < %s; %s replica %s; echo $? > %s.tmp && mv %s.tmp %s", fifo, akk, abs, statusFile, statusFile, statusFile)
	srv := tmuxtest.Start(t, rec.Header.Width, rec.Header.Height, "sh -c '"+cmd+"'")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	panes, err := client.Panes(ctx)
	if err != nil || len(panes) != 1 {
		t.Fatalf("panes %v %v", panes, err)
	}
	pane := panes[0].Pane
	feed, err := client.Follow(pane)
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	take := func(until int) {
		for got < until {
			select {
			case <-feed.Ready():
			case <-ctx.Done():
				t.Fatalf("replica wrote %d bytes, want %d before the next input", got, until)
			}
			u := feed.Take()
			if u.Seed != nil {
				got = 0
			}
			got += len(u.Data)
		}
	}
	for seeded := false; !seeded; { // the first seed: the pane waits on the fifo
		select {
		case <-feed.Ready():
		case <-ctx.Done():
			t.Fatal("no seed")
		}
		seeded = feed.Take().Seed != nil
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		take(in.After)
		if err := client.SendBytes(ctx, pane, in.Data); err != nil {
			t.Fatal(err)
		}
	}
	status := -1
	err = tmuxtest.Poll(ctx, 60*time.Second, func() string {
		b, err := os.ReadFile(statusFile)
		if err != nil {
			return "the replica's exit status"
		}
		if _, err := fmt.Sscanf(string(b), "%d", &status); err != nil {
			return fmt.Sprintf("exit status %q: %v", b, err)
		}
		return ""
	})
	capture, _ := srv.Run("capture-pane", "-p", "-t", pane.String())
	if err != nil {
		t.Fatalf("replica did not finish: %v\n%s", err, capture)
	}
	return status, string(capture)
}

// TestTmuxReplicaRoundTrip: for each corpus recording with input, the
// replica plays it in a pane, receives the recorded input through
// controlmode at the recorded points, and finishes without divergence.
func TestTmuxReplicaRoundTrip(t *testing.T) {
	tmuxtest.RequireTmux(t)
	c, err := recordings.LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	akk := buildAkk(t)
	for _, f := range c.Files(corpusDir) {
		rec, _, err := f.Load()
		if err != nil {
			t.Fatal(err)
		}
		inputs := recordings.Inputs(rec)
		if len(inputs) == 0 {
			continue
		}
		t.Run(f.Agent+"/"+f.Version+"/"+f.Surface, func(t *testing.T) {
			status, screen := replicaRun(t, akk, f.Cast, rec, inputs)
			if status != 0 && (status != -1 || strings.Contains(screen, "diverged")) {
				t.Errorf("replica exited %d:\n%s", status, screen)
			}
		})
	}
}

// TestTmuxReplicaDivergence: Escape or Up sent in place of a recorded key
// makes the replica fail, naming what came and what was recorded.
func TestTmuxReplicaDivergence(t *testing.T) {
	tmuxtest.RequireTmux(t)
	file := filepath.Join(corpusDir, "claude", "2.1.267", "question-digit.cast")
	rec, err := recordings.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	akk := buildAkk(t)
	inputs := recordings.Inputs(rec)
	last := len(inputs) - 1 // the digit that answers the question
	for _, tc := range []struct{ name, key, want string }{
		{"escape", "\x1b", `got "\x1b", recorded "2"`},
		{"up", "\x1b[A", `got "\x1b[A", recorded "2"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]recordings.RecordedInput(nil), inputs...)
			in[last].Data = []byte(tc.key)
			status, screen := replicaRun(t, akk, file, rec, in)
			flat := strings.Join(strings.Fields(screen), "")
			if status == 0 || !strings.Contains(flat, "diverged") || !strings.Contains(flat, strings.ReplaceAll(tc.want, " ", "")) {
				t.Errorf("status %d, screen:\n%s\nwant a divergence naming %s", status, screen, tc.want)
			}
		})
	}
}
