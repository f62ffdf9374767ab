package rig

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
)

// tmuxServer is the run's own tmux server: its socket lives in the run's
// directory, it reads no configuration file, and only the rig talks to it.
type tmuxServer struct {
	Socket string
	env    []string
}

// session is the name of the rig's one session.
const session = "rig"

// startTmux starts the server with one session whose pane, of exactly
// width x height, runs argv; bg, when set, is the window's background
// (its style before the agent starts, from the server's config).
func startTmux(ctx context.Context, dir string, width, height int, argv []string, bg string) (*tmuxServer, error) {
	t := &tmuxServer{Socket: filepath.Join(dir, "tmux.sock")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX") {
			t.env = append(t.env, kv)
		}
	}
	t.env = append(t.env, "TMUX_TMPDIR="+dir)
	conf := "/dev/null"
	if bg != "" {
		conf = filepath.Join(dir, "tmux.conf")
		if err := os.WriteFile(conf, []byte(fmt.Sprintf("set -g window-style 'bg=%s'\n", bg)), 0o644); err != nil {
			return nil, fmt.Errorf("rig: %w", err)
		}
	}
	args := append([]string{"-f", conf, "new-session", "-d", "-s", session,
		"-x", fmt.Sprint(width), "-y", fmt.Sprint(height)}, argv...)
	if _, err := t.run(ctx, args...); err != nil {
		return nil, err
	}
	for _, opt := range [][]string{{"status", "off"}, {"window-size", "manual"}, {"remain-on-exit", "on"}} {
		if _, err := t.run(ctx, "set-option", "-g", opt[0], opt[1]); err != nil {
			t.kill()
			return nil, err
		}
	}
	return t, nil
}

func (t *tmuxServer) run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := controlmode.Command(ctx, t.Socket, args...)
	cmd.Env = t.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("rig: tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// kill kills the server through its socket and waits until nothing
// listens there. tmux 3.3a leaves its socket file behind when it exits,
// so the file's presence says nothing: a refused connection does (the
// server closed its listening socket on its way out). The stale file is
// removed.
func (t *tmuxServer) kill() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = t.run(ctx, "kill-server")
	for ctx.Err() == nil {
		c, err := net.Dial("unix", t.Socket)
		if err != nil {
			os.Remove(t.Socket)
			return
		}
		c.Close()
		time.Sleep(20 * time.Millisecond)
	}
}
