package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/demo"
)

// DemoCmd is `akk demo`: the main job with nothing to set up. It starts a
// private tmux server with strict replica agents from the recorded corpus,
// attaches the supervisor to it, shows their states, and then acts as a
// person would (internal/demo's acts): a status, an approve, a
// questionnaire answered step by step, a refusal on purpose, a send.
type DemoCmd struct {
	Corpus string  `help:"The recordings directory." default:"recordings/testdata" placeholder:"DIR"`
	Speed  float64 `help:"Replay speed factor of the recordings." default:"1"`
	Fast   bool    `help:"Do not pause between steps on a terminal."`
	Watch  bool    `help:"After the acts, keep showing the live table until interrupted."`
}

// Run runs the demo: exit 0 only when every step had its expected outcome
// and every replica ended clean.
func (c *DemoCmd) Run(ctx context.Context, g *Globals, lg *slog.Logger, stdout io.Writer, kctx *kong.Context) error {
	if c.Speed <= 0 {
		return fmt.Errorf("%w: --speed %v: want a factor > 0", errUsage, c.Speed)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	tty := isTTY(stdout) && isTTY(os.Stdin)
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	dm, err := demo.Start(ctx, demo.Options{Corpus: c.Corpus, Speed: c.Speed, Exe: exe, Logger: lg})
	if err != nil {
		return err
	}
	defer dm.Close()
	fmt.Fprintf(stdout, "akk demo: %d strict replica agents and a shell on a private tmux server.\n"+
		"Watch them: tmux -S %s attach -r -t demo   (windows: C-b n; detach: C-b d)\n", dm.Replicas, dm.TmuxSocket)
	pause := func() {}
	if tty && !c.Fast {
		in := bufio.NewReader(os.Stdin)
		pause = func() {
			fmt.Fprint(stdout, "\n[Enter: next step] ")
			_, _ = in.ReadString('\n')
		}
	}
	if err := dm.Ready(ctx); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if l, err := dm.Client.List(ctx); err == nil {
		_ = printTable(stdout, l.Terminals)
	}
	steps, err := dm.Acts(ctx, stdout, pause, tty)
	if err != nil {
		return err
	}
	if err := dm.Finish(); err != nil {
		return err
	}
	ended := awaitEnded(ctx, dm)
	fmt.Fprintln(stdout)
	if l, err := dm.Client.List(ctx); err == nil {
		_ = printTable(stdout, l.Terminals)
	}
	bad := 0
	for _, s := range steps {
		if !s.OK {
			bad++
		}
	}
	for i, e := range ended {
		if e != "clean" {
			bad++
			fmt.Fprintf(stdout, "replica %s/%s did not end clean: %s\n", demo.Scenes[i].Agent, demo.Scenes[i].Surface, orRunning(e))
		}
	}
	if c.Watch {
		if err := showLive(ctx, dm.Client, stdout, g.JSON, tty, ""); err != nil && ctx.Err() == nil {
			return err
		}
	}
	if bad > 0 || !demo.Passed(steps) {
		return fmt.Errorf("demo: %d of %d steps or replicas did not go as expected", bad, len(steps)+len(ended))
	}
	fmt.Fprintf(stdout, "\n%d steps as expected; every replica received exactly its recorded input and ended clean.\n", len(steps))
	return nil
}

// awaitEnded waits (30 s at most) for every replica to end: each plays
// the rest of its recording after akk's input at its recorded pace, then
// exits.
func awaitEnded(ctx context.Context, dm *demo.Demo) []string {
	deadline := time.Now().Add(30 * time.Second)
	for {
		ended, err := dm.Ended()
		if err == nil && !slices.Contains(ended, "") || time.Now().After(deadline) || ctx.Err() != nil {
			return ended
		}
		time.Sleep(100 * time.Millisecond)
	}
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

func orRunning(e string) string {
	if e == "" {
		return "still running"
	}
	return e
}
