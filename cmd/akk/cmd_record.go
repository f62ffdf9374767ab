package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/recordings"
)

// RecordCmd is `akk record --pane %N -o FILE`: records any pane's output
// stream (a person's bug report) until the pane ends, --duration passes
// or akk is interrupted. Keys a person types are not visible to control
// mode, so the recording has no i events. NAME.final.txt is written
// beside it.
type RecordCmd struct {
	Pane     string        `required:"" help:"The pane to record (%N)."`
	Output   string        `short:"o" required:"" help:"The recording to write (.cast)."`
	Socket   string        `help:"The tmux server's socket (default: the one in $TMUX)."`
	Duration time.Duration `help:"Stop after this long (default: until interrupted or the pane ends)."`
}

// Run records.
func (c *RecordCmd) Run(ctx context.Context, lg *slog.Logger) error {
	pane, err := controlmode.ParsePaneID(c.Pane)
	if err != nil {
		return fmt.Errorf("%w: --pane: %v", errUsage, err)
	}
	socket := c.Socket
	if socket == "" {
		socket, _, _ = strings.Cut(os.Getenv("TMUX"), ",")
	}
	if socket == "" {
		return fmt.Errorf("%w: no --socket and no $TMUX", errUsage)
	}
	out, err := controlmode.Command(ctx, socket, "display-message", "-p", "-t", pane.String(),
		"#{session_id} #{pane_width} #{pane_height}").Output()
	if err != nil {
		return fmt.Errorf("record: pane %v on %s: %w", pane, socket, err)
	}
	var sess string
	var w, h int
	if _, err := fmt.Sscan(string(out), &sess, &w, &h); err != nil {
		return fmt.Errorf("record: pane %v: %q: %w", pane, out, err)
	}
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: socket, Session: sess, Logger: lg, Backlog: 64 << 20})
	if err != nil {
		return err
	}
	defer client.Close()
	feed, err := client.Follow(pane)
	if err != nil {
		return err
	}
	rec := recordings.NewRecorder(feed, recordings.Header{Width: w, Height: h, Timestamp: time.Now().Unix(),
		Akk: &recordings.Akk{Scenario: "akk record " + pane.String(), Recorder: "akk-record/1"}})
	rctx := ctx
	if c.Duration > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, c.Duration)
		defer cancel()
	}
	if err := rec.Run(rctx); err != nil {
		return err
	}
	return c.finish(rec)
}

// finish takes the last screen and writes the files.
func (c *RecordCmd) finish(rec *recordings.Recorder) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go rec.Run(ctx) // keep taking updates until the barrier resolves
	end, err := rec.Barrier(ctx)
	if err != nil {
		return err
	}
	data, err := recordings.Encode(rec.Finish(end))
	if err != nil {
		return err
	}
	if err := os.WriteFile(c.Output, data, 0o644); err != nil {
		return err
	}
	final := strings.TrimSuffix(c.Output, filepath.Ext(c.Output)) + ".final.txt"
	return os.WriteFile(final, recordings.ScreenFromSeed(end.Screen).Marshal(), 0o644)
}
