// Package ptyclient is a person at a real tmux client, for tests: `tmux
// attach` through a pty, whose output feeds a vt screen (what the person
// sees, popups and tmux's own messages included: tmux 3.3a draws those on
// the client, not in a pane), with the keyboard as the client's tty.
//
// It is test support (it fails tests). It is not in internal/tmuxtest
// because vt's own tests use tmuxtest, and this package uses vt.
package ptyclient

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agent-knock-knock/akk/internal/shot"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/vt"
)

// Client is one attached client. Its methods may be called while tmux
// draws on it.
type Client struct {
	t    testing.TB
	w, h int
	f    *os.File

	mu     sync.Mutex
	screen *vt.Screen
	raw    []byte // every byte the client's terminal got
}

// Attach attaches a client of w x h to session of srv and waits until
// tmux lists it. The client is killed in t.Cleanup.
func Attach(t testing.TB, srv *tmuxtest.Server, session string, w, h int) *Client {
	t.Helper()
	cmd := srv.Command("attach", "-t", session)
	cmd.Env = append(slices.Clip(cmd.Env), "TERM=xterm-256color")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: uint16(h), Cols: uint16(w)})
	if err != nil {
		t.Fatalf("attach a client through a pty: %v", err)
	}
	c := &Client{t: t, w: w, h: h, f: f, screen: vt.New(w, h, vt.Options{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				c.mu.Lock()
				c.screen.Write(buf[:n])
				c.raw = append(c.raw, buf[:n]...)
				c.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
		<-done
	})
	c.Await("a client attached to "+session, 10*time.Second, func() bool {
		out, _ := srv.Run("list-clients", "-t", session, "-F", "#{client_tty}")
		return len(bytes.TrimSpace(out)) > 0
	})
	return c
}

// Text is what the person sees.
func (c *Client) Text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.screen.PlainText(c.screen.Bounds())
}

// Bytes is everything the client's terminal got so far.
func (c *Client) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.raw...)
}

// Shot is the person's screen, cell by cell (internal/shot renders it).
func (c *Client) Shot() [][]vt.Cell {
	c.mu.Lock()
	defer c.mu.Unlock()
	return shot.FromScreen(c.screen)
}

// Cell finds text on the person's screen and returns its first cell.
func (c *Client) Cell(text string) (vt.Cell, bool) {
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

// Keys types s on the person's keyboard (the client's tty).
func (c *Client) Keys(s string) {
	c.t.Helper()
	if _, err := c.f.Write([]byte(s)); err != nil {
		c.t.Fatal(err)
	}
}

// Await waits up to d for ok, failing the test with the client's screen.
func (c *Client) Await(what string, d time.Duration, ok func() bool) {
	c.t.Helper()
	if err := tmuxtest.Poll(context.Background(), d, tmuxtest.Until(what, ok)); err != nil {
		c.t.Fatalf("%v\nclient screen:\n%s", err, c.Text())
	}
}

// AwaitText waits for text on the person's screen.
func (c *Client) AwaitText(text string) {
	c.t.Helper()
	c.Await("the client to show "+strconv.Quote(text), 15*time.Second, func() bool {
		return strings.Contains(c.Text(), text)
	})
}

// AwaitGone waits for text to leave the person's screen.
func (c *Client) AwaitGone(text string) {
	c.t.Helper()
	c.Await("the client to stop showing "+strconv.Quote(text), 15*time.Second, func() bool {
		return !strings.Contains(c.Text(), text)
	})
}
