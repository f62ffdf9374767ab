package controlmode

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Faults: each surfaces as a typed event or error within 3 s, and no
// goroutine is left behind (checkLeaks). Latencies are logged.

func runClient(t *testing.T, c *Client) <-chan error {
	errc := make(chan error, 1)
	go func() { errc <- c.Run(context.Background()) }()
	return errc
}

func awaitRun(t *testing.T, errc <-chan error) (error, time.Duration) {
	t.Helper()
	start := time.Now()
	select {
	case err := <-errc:
		return err, time.Since(start)
	case <-time.After(3 * time.Second):
		t.Fatalf("Run did not return within 3 s")
	}
	return nil, 0
}

func TestTmuxFaultServerKilled(t *testing.T) {
	srv, c := catClient(t)
	f, _ := c.Follow(0)
	errc := runClient(t, c)
	ev := c.Events()
	start := time.Now()
	srv.MustRun("kill-server")
	err, _ := awaitRun(t, errc)
	lat := time.Since(start)
	var xe *ExitError
	if !errors.As(err, &xe) || !errors.Is(err, ErrClosed) {
		t.Fatalf("Run: %v", err)
	}
	if u := f.Take(); !u.Gone || !errors.Is(u.Err, ErrClosed) {
		t.Errorf("feed after server death: %+v", u)
	}
	if _, err := c.Command(context.Background(), "display-message", "-p", "x"); !errors.Is(err, ErrClosed) {
		t.Errorf("command after death: %v", err)
	}
	sawExit := false
	for e := range ev {
		if _, ok := e.(*Exit); ok {
			sawExit = true
		}
	}
	t.Logf("server killed: Run returned %v after %v (%%exit seen: %v)", err, lat.Round(time.Microsecond), sawExit)
}

func TestTmuxFaultPaneKilled(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, "cat")
	srv.MustRun("split-window", "-t", "main", "cat")
	c := attach(t, srv)
	w := watchSeeded(t, c, 1, false)
	start := time.Now()
	srv.MustRun("kill-pane", "-t", "%1")
	w.await("pane gone", 3*time.Second, func(m *Mirror) bool { g, _ := m.Gone(); return g })
	lat := time.Since(start)
	_, gerr := w.m.Gone()
	if !errors.Is(gerr, ErrPaneGone) {
		t.Errorf("gone with %v", gerr)
	}
	t.Logf("pane killed: feed gone (%v) after %v", gerr, lat.Round(time.Microsecond))
}

func TestTmuxFaultSessionRenamed(t *testing.T) {
	srv, c := catClient(t)
	c.Events()
	start := time.Now()
	srv.MustRun("rename-session", "-t", "main", "renamed")
	e, _ := awaitEvent(t, c, "session-renamed", func(e Event) bool { _, ok := e.(*SessionRenamed); return ok })
	lat := time.Since(start)
	if r := e.(*SessionRenamed); r.Name != "renamed" || r.Session != c.Session() {
		t.Errorf("event %v", e)
	}
	// The client is attached by id: commands keep working.
	if _, err := c.Panes(ctx3s(t)); err != nil {
		t.Errorf("Panes after rename: %v", err)
	}
	t.Logf("session renamed: %v after %v", e, lat.Round(time.Microsecond))
}

func TestTmuxFaultWindowClosed(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, "cat")
	srv.MustRun("new-window", "-d", "-t", "main", "cat")
	c := attach(t, srv)
	c.Events()
	w := watchSeeded(t, c, 1, false)
	start := time.Now()
	srv.MustRun("kill-window", "-t", "main:1")
	e, _ := awaitEvent(t, c, "window close", func(e Event) bool { _, ok := e.(*WindowClose); return ok })
	evLat := time.Since(start)
	w.await("pane gone", 3*time.Second, func(m *Mirror) bool { g, _ := m.Gone(); return g })
	t.Logf("window closed: %v after %v, feed gone after %v", e, evLat.Round(time.Microsecond), time.Since(start).Round(time.Microsecond))
}

func TestTmuxFaultPaneRespawned(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, "printf 'before respawn'; exec cat")
	c := attach(t, srv)
	c.Events()
	w := watchSeeded(t, c, 0, false)
	w.checkNow("before")
	start := time.Now()
	// respawn-pane -k clears the screen and sends no %output for it.
	srv.MustRun("respawn-pane", "-k", "-t", "%0", "exec cat")
	e, _ := awaitEvent(t, c, "pane-respawned", func(e Event) bool { _, ok := e.(*PaneRespawned); return ok })
	evLat := time.Since(start)
	w.await("re-seed", 3*time.Second, func(m *Mirror) bool { return m.Seeds >= 2 && seeded(m) })
	seedLat := time.Since(start)
	w.checkNow("after respawn")
	w.mu.Lock()
	text := w.m.Screen().PlainText(w.m.Screen().Bounds())
	w.mu.Unlock()
	if strings.Contains(text, "before respawn") {
		t.Errorf("screen still shows the old program")
	}
	t.Logf("pane respawned: %v after %v, re-seeded after %v", e, evLat.Round(time.Millisecond), seedLat.Round(time.Millisecond))
}

func TestTmuxFaultDetachedByOtherClient(t *testing.T) {
	srv, c := catClient(t)
	f, _ := c.Follow(0)
	errc := runClient(t, c)
	name := strings.TrimSpace(string(srv.MustRun("list-clients", "-F", "#{client_name}")))
	start := time.Now()
	srv.MustRun("detach-client", "-t", name)
	err, _ := awaitRun(t, errc)
	lat := time.Since(start)
	var xe *ExitError
	if !errors.As(err, &xe) || xe.NoExit { // tmux 3.3a gives a control client no reason here
		t.Fatalf("Run: %v", err)
	}
	if u := f.Take(); !u.Gone {
		t.Errorf("feed not gone: %+v", u)
	}
	srv.MustRun("has-session", "-t", "main")
	t.Logf("detached by another client: %v after %v", err, lat.Round(time.Microsecond))
}

func TestTmuxFaultSyntaxError(t *testing.T) {
	_, c := catClient(t)
	start := time.Now()
	_, err := c.Command(ctx3s(t), "no-such-command", "-x")
	lat := time.Since(start)
	var ce *CommandError
	if !errors.As(err, &ce) || !strings.Contains(ce.Body, "unknown command") {
		t.Fatalf("got %v", err)
	}
	syntaxErr := ce
	_, err = c.Command(ctx3s(t), "capture-pane", "-p", "-t", "%99")
	if !errors.As(err, &ce) || !strings.Contains(ce.Body, "can't find pane") {
		t.Fatalf("missing pane: %v", err)
	}
	// display-message falls back to the current pane for a missing target:
	// PaneInfo must not answer about another pane.
	if _, err := c.PaneInfo(ctx3s(t), 99); !errors.Is(err, ErrPaneGone) {
		t.Fatalf("PaneInfo of a missing pane: %v", err)
	}
	if _, err := c.Seed(ctx3s(t), 99); !errors.Is(err, ErrPaneGone) {
		t.Fatalf("Seed of a missing pane: %v", err)
	}
	t.Logf("syntax error: %v after %v", syntaxErr, lat.Round(time.Microsecond))
}

func TestTmuxFaultTmuxClientKilled(t *testing.T) {
	// The tmux client process dies without %exit (no stdin EOF, no
	// detach): Run reports ExitError{NoExit}.
	_, c := catClient(t)
	errc := runClient(t, c)
	start := time.Now()
	c.proc.Process.Kill()
	err, _ := awaitRun(t, errc)
	var xe *ExitError
	if !errors.As(err, &xe) || !xe.NoExit {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("tmux client killed: %v after %v", err, time.Since(start).Round(time.Microsecond))
}

func TestTmuxFaultCloseHungClient(t *testing.T) {
	// The tmux client process stops answering: Close kills it after
	// closeTimeout and still leaves nothing behind.
	_, c := catClient(t)
	if err := c.proc.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	c.Close()
	if d := time.Since(start); d < closeTimeout || d > closeTimeout+2*time.Second {
		t.Errorf("Close took %v", d)
	}
	if !errors.Is(c.Err(), ErrClosed) {
		t.Errorf("Err after kill: %v", c.Err())
	}
}
