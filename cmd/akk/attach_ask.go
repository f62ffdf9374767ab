package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/popup"
	"github.com/agent-knock-knock/akk/port"
	"github.com/agent-knock-knock/akk/supervisor"
)

// askConfig builds the interaction port of the [ask] table: the response
// files of the run directory (0700, ours), raced by a popup on the client
// viewing the agent's session. The run directory defaults to the API
// socket's directory, which is private to the daemon's user already.
func (c *AttachCmd) askConfig(a askConfig, lg *slog.Logger) (supervisor.AskConfig, error) {
	if a.Policy == supervisor.AskOff {
		return supervisor.AskConfig{}, nil
	}
	dir := a.RunDir
	if dir == "" {
		// Beside the socket: its directory checked first (api.PrivateDir),
		// so that nothing is made in a squatted or linked one.
		if err := api.PrivateDir(filepath.Dir(c.socket())); err != nil {
			return supervisor.AskConfig{}, err
		}
		dir = filepath.Join(filepath.Dir(c.socket()), "ask")
	}
	files, err := port.OpenFiles(dir, lg.With("component", "ask-files"))
	if err != nil {
		return supervisor.AskConfig{}, fmt.Errorf("[ask] run_dir: %w", err)
	}
	if a.Popup != nil && !*a.Popup {
		return supervisor.AskConfig{Policy: a.Policy, Port: func(string) port.Port { return files }}, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return supervisor.AskConfig{}, fmt.Errorf("[ask] popup: %w", err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			env = append(env, kv)
		}
	}
	// One popup port per session: it asks one question at a time, so
	// two prompts of one session never open two popups on one client.
	var mu sync.Mutex
	popups := map[string]port.Port{}
	return supervisor.AskConfig{Policy: a.Policy, Port: func(session string) port.Port {
		mu.Lock()
		defer mu.Unlock()
		if p, ok := popups[session]; ok {
			return p
		}
		pp := popup.NewPort(filepath.Join(dir, "popup"), exe, c.tmuxSocket(), env, nil, lg.With("component", "ask-popup"))
		pp.Client = popup.ViewingClient(pp.Tmux, session)
		p := port.First(pp, files)
		popups[session] = p
		return p
	}}, nil
}
