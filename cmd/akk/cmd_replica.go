package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/term"

	"github.com/agent-knock-knock/akk/recordings"
)

// ReplicaCmd is `akk replica FILE`: the pane program that plays a
// recording. It writes the recorded output to its terminal and, at each
// recorded input, waits until exactly those bytes arrive (terminal
// replies to queries in the recorded output so far are ignored). Any
// other input ends it with exit 1 and a message naming the divergence.
type ReplicaCmd struct {
	File  string `arg:"" type:"existingfile" help:"The recording (.cast)."`
	Speed string `help:"Output pacing: 'recorded', 'fast' (no delays), or a factor such as 2." default:"fast"`
}

// Run plays the recording on stdin/stdout, which must be the pane's tty.
func (c *ReplicaCmd) Run(ctx context.Context) error {
	speed, err := parseSpeed(c.Speed)
	if err != nil {
		return err
	}
	rec, err := recordings.ReadFile(c.File)
	if err != nil {
		return err
	}
	fd := int(os.Stdin.Fd())
	if term.IsTerminal(fd) {
		old, err := term.MakeRaw(fd)
		if err != nil {
			return fmt.Errorf("replica: raw mode: %w", err)
		}
		defer term.Restore(fd, old)
	}
	if err := recordings.Replica(ctx, rec, os.Stdout, os.Stdin, recordings.ReplicaOptions{Speed: speed}); err != nil {
		return fmt.Errorf("replica %s: %w", c.File, err)
	}
	return nil
}

func parseSpeed(s string) (float64, error) {
	switch s {
	case "recorded":
		return 1, nil
	case "fast":
		return 0, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%w: --speed %q: want recorded, fast or a factor", errUsage, s)
	}
	return f, nil
}
