package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/demo"
)

// DemoCmd is `akk demo`: the main job with nothing to set up. It starts a
// private tmux server with replica agents from the recorded corpus (each
// driven through its recording's inputs but the last, so it stays at its
// most interesting screen), attaches the supervisor to it, and shows a live
// table of their states.
type DemoCmd struct {
	Corpus   string        `help:"The recordings directory." default:"recordings/testdata" placeholder:"DIR"`
	Duration time.Duration `help:"Stop after this long (0: until interrupted; 30s when stdout is not a terminal)."`
	Speed    float64       `help:"Replay speed factor of the recordings." default:"1"`
}

// Run runs the demo until interrupted or --duration.
func (c *DemoCmd) Run(ctx context.Context, g *Globals, lg *slog.Logger, stdout io.Writer, kctx *kong.Context) error {
	if c.Speed <= 0 {
		return fmt.Errorf("%w: --speed %v: want a factor > 0", errUsage, c.Speed)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	tty := isTTY(stdout)
	if c.Duration == 0 && !tty {
		c.Duration = 30 * time.Second
	}
	if c.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Duration)
		defer cancel()
	}
	dm, err := demo.Start(ctx, demo.Options{Corpus: c.Corpus, Speed: c.Speed, Exe: exe, Logger: lg})
	if err != nil {
		return err
	}
	defer dm.Close()
	cl := dm.Client
	header := fmt.Sprintf("akk demo: %d replica agents and a shell on a private tmux server.\n"+
		"Watch them: tmux -S %s attach -r -t demo   (windows: C-b n; detach: C-b d)\n", dm.Replicas, dm.TmuxSocket)
	if !g.JSON {
		fmt.Fprint(stdout, header)
	}
	err = showLive(ctx, cl, stdout, g.JSON, tty, header)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil
	}
	return err
}

// showLive prints the list whenever it changes: redrawn in place on a
// terminal, appended otherwise, NDJSON list objects with --json.
func showLive(ctx context.Context, cl *api.Client, w io.Writer, asJSON, tty bool, header string) error {
	var last string
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		l, err := cl.List(ctx)
		if err == nil {
			var b strings.Builder
			if asJSON {
				j, _ := json.Marshal(l)
				b.Write(j)
				b.WriteByte('\n')
			} else {
				_ = printTable(&b, l.Terminals)
			}
			if s := b.String(); s != last {
				last = s
				switch {
				case tty && !asJSON:
					fmt.Fprint(w, "\x1b[H\x1b[2J", header, "\n", s)
				case asJSON:
					fmt.Fprint(w, s)
				default:
					fmt.Fprintf(w, "\n%s\n%s", time.Now().Format(time.TimeOnly), s)
				}
			}
		} else if ctx.Err() == nil {
			fmt.Fprintln(w, "akk demo:", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}
