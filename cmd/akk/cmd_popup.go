package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/popup"
	"github.com/agent-knock-knock/akk/port"
)

// PopupCmd is `akk popup`: the agents that need a person, made to run in
// `tmux display-popup -E` (see `akk tmux-conf`).
type PopupCmd struct {
	DaemonFlags
	ClientTTY string `help:"The tmux client the popup shows on (the binding passes #{client_tty}); jumps switch this client." placeholder:"TTY"`
	LogFile   string `help:"Write the popup's log here (the screen is the popup's own)." placeholder:"FILE"`
	// Ask is how the daemon's interaction port opens a popup: one
	// question, answered into the request's own response file.
	Ask string `help:"Show one question of akk's interaction port (a .request file the daemon wrote) and write the answer beside it." placeholder:"FILE" type:"path"`
	// Refresh is hidden: tests freeze the list to make a change between
	// display and answer deterministic.
	Refresh time.Duration `help:"How often the list is read again." default:"1s" hidden:""`
}

// Run shows the popup until it is closed or jumps to a pane.
func (c *PopupCmd) Run(ctx context.Context, cl *api.Client, g *Globals) error {
	lg, closeLog, err := popupLogger(c.LogFile, g.LogLevel)
	if err != nil {
		return err
	}
	defer closeLog()
	if c.Ask != "" {
		return c.ask(ctx)
	}
	tty := c.ClientTTY
	if tty == "" {
		tty = currentClientTTY(ctx)
	}
	// The controller names this client's popup, so the offers its Status
	// calls make are consumable by this popup only (DESIGN).
	controller := "popup:" + tty
	if tty == "" {
		controller = fmt.Sprintf("popup:pid-%d", os.Getpid())
	}
	cl.SetController(controller)
	scr, err := openScreen()
	if err != nil {
		return err
	}
	defer scr.Fini()
	lg.Info("popup", "controller", controller, "socket", cl.Socket())
	return popup.Run(ctx, scr, popup.APIBackend{Client: cl, ClientTTY: tty}, popup.Options{Logger: lg, Refresh: c.Refresh})
}

// ask shows the question of the request file c.Ask and writes the answer
// as the request's response file, in the same (private) directory.
func (c *PopupCmd) ask(ctx context.Context) error {
	data, err := os.ReadFile(c.Ask)
	if err != nil {
		return fmt.Errorf("popup --ask: %w", err)
	}
	var req port.Request
	if err := json.Unmarshal(data, &req); err != nil || req.RequestID == "" {
		return fmt.Errorf("popup --ask: %s is not a request: %v", c.Ask, err)
	}
	scr, err := openScreen()
	if err != nil {
		return err
	}
	defer scr.Fini()
	dir := filepath.Dir(c.Ask)
	return popup.RunAsk(ctx, scr, req, func(a string) error { return port.AnswerFile(dir, req.RequestID, a) })
}

// openScreen is the popup's terminal, initialised; the caller ends it
// (Fini).
func openScreen() (tcell.Screen, error) {
	scr, err := tcell.NewScreen()
	if err != nil {
		return nil, fmt.Errorf("popup: %w", err)
	}
	if err := scr.Init(); err != nil {
		return nil, fmt.Errorf("popup: %w", err)
	}
	return scr, nil
}

// currentClientTTY asks tmux which client runs us ("" outside tmux).
func currentClientTTY(ctx context.Context) string {
	if os.Getenv("TMUX") == "" {
		return ""
	}
	out, err := controlmode.Command(ctx, "", "display-message", "-p", "#{client_tty}").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func popupLogger(file, level string) (*slog.Logger, func(), error) {
	if file == "" {
		return slog.New(slog.DiscardHandler), func() {}, nil
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("popup: log: %w", err)
	}
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(io.Writer(f), &slog.HandlerOptions{Level: l})), func() { f.Close() }, nil
}
