package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/vt"
)

// ptyClient is a person at a real tmux client: `tmux attach` through a
// pty, whose output feeds a vt screen (what the person sees, popups
// included: tmux 3.3a draws popups on the client, not in a pane).
type ptyClient struct {
	t      *testing.T
	srv    *tmuxtest.Server
	w, h   int
	f      *os.File
	mu     sync.Mutex
	screen *vt.Screen
}

// attachPty attaches a client of w x h to session and waits until tmux
// lists it.
func attachPty(t *testing.T, srv *tmuxtest.Server, session string, w, h int) *ptyClient {
	t.Helper()
	cmd := exec.Command("tmux", "-S", srv.Socket, "attach", "-t", session)
	cmd.Env = append(srv.Env, "TERM=xterm-256color")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: uint16(h), Cols: uint16(w)})
	if err != nil {
		t.Fatalf("attach a client through a pty: %v", err)
	}
	c := &ptyClient{t: t, srv: srv, w: w, h: h, f: f, screen: vt.New(w, h, vt.Options{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				c.mu.Lock()
				c.screen.Write(buf[:n])
				c.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		srv.Run("detach-client", "-a") // the client exits; the pty reader ends
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
		<-done
	})
	c.await("the client attached", 10*time.Second, func() bool {
		out, _ := srv.Run("list-clients", "-F", "#{client_tty}")
		return len(bytes.TrimSpace(out)) > 0
	})
	return c
}

// text is what the person sees.
func (c *ptyClient) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.screen.PlainText(c.screen.Bounds())
}

// cell finds text on the person's screen and returns its first cell.
func (c *ptyClient) cell(text string) (vt.Cell, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for y := 0; y < c.h; y++ {
		row := c.screen.PlainText(vt.Rect{X: 0, Y: y, W: c.w, H: 1})
		if i := strings.Index(row, text); i >= 0 {
			return c.screen.Cell(len([]rune(row[:i])), y), true
		}
	}
	return vt.Cell{}, false
}

// keys types on the person's keyboard (the client's tty).
func (c *ptyClient) keys(s string) {
	c.t.Helper()
	if _, err := c.f.Write([]byte(s)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *ptyClient) await(what string, d time.Duration, ok func() bool) {
	c.t.Helper()
	if err := tmuxtest.Poll(context.Background(), d, tmuxtest.Until(what, ok)); err != nil {
		c.t.Fatalf("%v\nclient screen:\n%s", err, c.text())
	}
}

func (c *ptyClient) awaitText(text string) {
	c.t.Helper()
	c.await("the client to show "+strconvQuote(text), 15*time.Second, func() bool {
		return strings.Contains(c.text(), text)
	})
}

func (c *ptyClient) awaitGone(text string) {
	c.t.Helper()
	c.await("the client to stop showing "+strconvQuote(text), 15*time.Second, func() bool {
		return !strings.Contains(c.text(), text)
	})
}
