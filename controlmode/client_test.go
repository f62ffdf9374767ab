package controlmode

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestTmuxAttachAndCommands(t *testing.T) {
	srv, c := catClient(t)
	ctx := ctxTest(t)

	r, err := c.Command(ctx, "display-message", "-p", "#{session_name} #{pane_id}")
	if err != nil || string(r.Body) != "main %0\n" {
		t.Fatalf("display-message: %q %v", r.Body, err)
	}
	// Pipelined, one line, several blocks.
	rs, err := c.Exec(ctx, Cmd{"display-message", "-p", "one"}, Cmd{"display-message", "-p", "two ; 'three'"})
	if err != nil || len(rs) != 2 || string(rs[1].Body) != "two ; 'three'\n" {
		t.Fatalf("Exec: %v %v", rs, err)
	}
	// A failed command ends its line: typed error, blocks so far.
	rs, err = c.Exec(ctx, Cmd{"display-message", "-p", "a"}, Cmd{"list-panes", "-t", "nosuch"}, Cmd{"display-message", "-p", "never"})
	var ce *CommandError
	if !errors.As(err, &ce) || !strings.Contains(ce.Body, "can't find window") || len(rs) != 2 {
		t.Fatalf("failed line: %v %v", rs, err)
	}
	// A syntax error is one %error block for the line.
	_, err = c.Command(ctx, "nosuchcommand", "x")
	if !errors.As(err, &ce) || !strings.Contains(ce.Body, "unknown command") {
		t.Fatalf("syntax error: %v", err)
	}
	// Commands still work after errors (the FIFO stayed in step).
	r, err = c.Command(ctx, "display-message", "-p", "ok")
	if err != nil || string(r.Body) != "ok\n" {
		t.Fatalf("after errors: %q %v", r.Body, err)
	}
	// load-buffer - answers %end, then a bare line outside any block
	// ("-: Bad file descriptor"): tolerated, and the FIFO stays in step.
	if _, err := c.Command(ctx, "load-buffer", "-b", "akk-test", "-"); err != nil {
		t.Fatalf("load-buffer -: %v", err)
	}
	if r, err := c.Command(ctx, "display-message", "-p", "still"); err != nil || string(r.Body) != "still\n" {
		t.Fatalf("after the bare line: %q %v", r.Body, err)
	}
	// Commands that queue more commands would add blocks nobody expects.
	for _, name := range []string{"if-shell", "if", "run-shell", "run", "source-file", "sour", "confirm-before", "command-prompt"} {
		if _, err := c.Command(ctx, name, "x"); !errors.Is(err, ErrBadArgument) {
			t.Errorf("%s accepted: %v", name, err)
		}
	}
	// Observer manners: attaching changed no window size.
	if out := strings.TrimSpace(string(srv.MustRun("display", "-p", "-t", "main", "#{window_width}x#{window_height}"))); out != "80x24" {
		t.Errorf("window size %s after attach", out)
	}
	if c.Session() != 0 {
		t.Errorf("Session() = %v", c.Session())
	}
}

func TestTmuxQuoting(t *testing.T) {
	srv, c := catClient(t)
	ctx := ctxTest(t)
	for _, s := range []string{
		"plain", "", " ", "it's", "'", "''", "a ; b", `\;`, "$HOME ~ #{pane_id} %1 #x",
		"\"dq\"", `back\slash`, "multi\nline\n", "\n", "é世🎉", "tab\there", "-dash", "--", "%if", "{", "}",
		"\x1b[1m\r",
	} {
		_, err := c.Exec(ctx, Cmd{"set-buffer", "-b", "q", "--", s})
		if s == "" {
			continue // tmux refuses to set an empty buffer; nothing to read back
		}
		if err != nil {
			t.Errorf("set-buffer %q: %v", s, err)
			continue
		}
		out := srv.MustRun("show-buffer", "-b", "q")
		if string(out) != s {
			t.Errorf("round trip %q: got %q", s, out)
		}
	}
	for _, bad := range []string{"a\x00b", "\xff\xfe"} {
		if _, err := c.Exec(ctx, Cmd{"display-message", "-p", bad}); !errors.Is(err, ErrBadArgument) {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}

func TestTmuxAttachFailure(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 80, 24, "cat")
	ctx := ctxTest(t)
	_, err := Start(ctx, Config{Socket: srv.Socket, Session: "nosuch", Env: srv.Env})
	var ce *CommandError
	if !errors.As(err, &ce) || !strings.Contains(ce.Body, "can't find session") {
		t.Fatalf("Start on missing session: %v", err)
	}
	// A prefix of an existing name must not attach to it ("=name").
	_, err = Start(ctx, Config{Socket: srv.Socket, Session: "mai", Env: srv.Env})
	if !errors.As(err, &ce) {
		t.Fatalf("Start on a prefix: %v", err)
	}
	_, err = Start(ctx, Config{Socket: srv.Socket + "-none", Session: "main", Env: srv.Env})
	if err == nil {
		t.Fatalf("Start without a server succeeded")
	}
}

func TestTmuxCloseDetachesCleanly(t *testing.T) {
	srv, c := catClient(t)
	if n := strings.Count(string(srv.MustRun("list-clients", "-F", "#{client_flags}")), "control-mode"); n != 1 {
		t.Fatalf("%d control clients", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- c.Run(ctx) }()
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	c.Close()
	c.Close()
	if _, err := c.Command(context.Background(), "display-message", "-p", "x"); !errors.Is(err, ErrClosed) {
		t.Fatalf("command after Close: %v", err)
	}
	if out := strings.TrimSpace(string(srv.MustRun("list-clients"))); out != "" {
		t.Fatalf("clients left after Close: %q", out)
	}
	srv.MustRun("has-session", "-t", "main")
}

func TestTmuxEventsAfterTimeout(t *testing.T) {
	_, c := catClient(t)
	// A command whose ctx ends before the reply: its reply is discarded and
	// the next command still gets its own reply.
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	if _, err := c.Command(ctx, "display-message", "-p", "late"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("expired ctx: %v", err)
	}
	r, err := c.Command(ctx3s(t), "display-message", "-p", "next")
	if err != nil || string(r.Body) != "next\n" {
		t.Fatalf("after timeout: %q %v", r.Body, err)
	}
}

// TestTmuxObserverManners: a client that attaches, follows, checks,
// pauses, types and pastes leaves every option, size and buffer as it
// found them.
func TestTmuxObserverManners(t *testing.T) {
	checkLeaks(t)
	srv := startTmux(t, 100, 30, "cat")
	srv.MustRun("split-window", "-t", "main", "cat")
	snapshot := func() string {
		var b strings.Builder
		for _, args := range [][]string{
			{"show-options", "-g"}, {"show-options", "-s"}, {"show-options", "-gw"},
			{"show-options", "-t", "main"}, {"show-options", "-w", "-t", "main"},
			{"list-windows", "-a", "-F", "#{window_id} #{window_width}x#{window_height} #{window_layout}"},
			{"list-panes", "-a", "-F", "#{pane_id} #{pane_width}x#{pane_height} #{pane_in_mode}"},
			{"list-buffers"}, {"show-environment", "-g"},
		} {
			b.Write(srv.MustRun(args...))
		}
		return b.String()
	}
	before := snapshot()
	c := attach(t, srv, func(cfg *Config) { cfg.PauseAfter = 5 * time.Second })
	ctx := ctxTest(t)
	w := watchSeeded(t, c, 0, false)
	w.checkNow("manners")
	if _, err := c.Command(ctx, "refresh-client", "-A", "%0:pause"); err != nil {
		t.Fatal(err)
	}
	w.await("re-seed", 3*time.Second, func(m *Mirror) bool { return m.Seeds >= 2 })
	for _, err := range []error{c.SendText(ctx, 1, "typed"), c.Paste(ctx, 1, "pasted\nlines"), c.SendKeys(ctx, 1, "Enter")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Panes(ctx); err != nil {
		t.Fatal(err)
	}
	c.Close()
	w.close()
	if after := snapshot(); after != before {
		t.Fatalf("the client changed tmux state:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
