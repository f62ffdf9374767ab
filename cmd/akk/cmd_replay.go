package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// ReplayCmd is `akk replay FILE`: the timeline of a recording, --check to
// verify it, --dump to print its final screen.
type ReplayCmd struct {
	File  string `arg:"" type:"existingfile" help:"A recording (.cast) or a raw tmux -C transcript."`
	Check bool   `help:"Verify the recording: the final screen equals NAME.final.txt (cell by cell) and every marker's text is on its screen." xor:"mode"`
	Dump  bool   `help:"Print the final screen in the format of tmux capture-pane -p -e." xor:"mode"`
	Pane  string `help:"For a raw control-mode transcript: the pane (%N) to replay."`
	Size  string `help:"For a raw control-mode transcript: the pane's size WxH at the start (default: from %layout-change)."`
}

// Validate checks the flags that go together.
func (c *ReplayCmd) Validate() error {
	if c.Size != "" && c.Pane == "" {
		return fmt.Errorf("--size needs --pane")
	}
	return nil
}

// Run replays the file.
func (c *ReplayCmd) Run(g *Globals, stdout io.Writer) error {
	rec, err := c.load()
	if err != nil {
		return err
	}
	switch {
	case c.Dump:
		scr, err := recordings.Replay(rec, vt.Options{}, nil)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, scr.ANSI(scr.Bounds()))
		return nil
	case c.Check:
		return c.check(rec, g, stdout)
	}
	return timeline(rec, g.JSON, stdout)
}

func (c *ReplayCmd) load() (*recordings.Recording, error) {
	data, err := os.ReadFile(c.File)
	if err != nil {
		return nil, err
	}
	if c.Pane == "" {
		if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			return nil, fmt.Errorf("%w: %s is not a recording; for a tmux -C transcript pass --pane", errUsage, c.File)
		}
		return recordings.Decode(data)
	}
	pane, err := controlmode.ParsePaneID(c.Pane)
	if err != nil {
		return nil, fmt.Errorf("%w: --pane: %v", errUsage, err)
	}
	var w, h int
	if c.Size != "" {
		if w, h, err = recordings.ParseSize(c.Size); err != nil {
			return nil, fmt.Errorf("%w: --size: %v", errUsage, err)
		}
	}
	return recordings.FromControlMode(data, pane, w, h)
}

// check verifies the recording against NAME.final.txt beside it.
func (c *ReplayCmd) check(rec *recordings.Recording, g *Globals, stdout io.Writer) error {
	finalPath := strings.TrimSuffix(c.File, ".cast") + ".final.txt"
	fdata, err := os.ReadFile(finalPath)
	if err != nil {
		return fmt.Errorf("check needs the final screen: %w", err)
	}
	final, err := recordings.ParseScreen(fdata)
	if err != nil {
		return err
	}
	problems, err := recordings.Verify(rec, final)
	if err != nil {
		return err
	}
	recognized, err := checkRecognition(rec) // markers against the recognizers
	if err != nil {
		return err
	}
	problems = append(problems, recognized...)
	ms, _, _ := recordings.Markers(rec)
	if g.JSON {
		json.NewEncoder(stdout).Encode(map[string]any{"v": 1, "ok": len(problems) == 0, "markers": len(ms), "problems": nonNil(problems)})
	} else {
		for _, p := range problems {
			fmt.Fprintln(stdout, p)
		}
		if len(problems) == 0 {
			fmt.Fprintf(stdout, "ok: final screen equal, %d markers on their screens\n", len(ms))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: %d problems", c.File, len(problems))
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// timeline prints the recording's markers and inputs in time order (the
// states, as the recording states them; recognizers are not consulted).
func timeline(rec *recordings.Recording, asJSON bool, stdout io.Writer) error {
	enc := json.NewEncoder(stdout)
	_, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
		e := s.Event
		switch {
		case s.Marker != nil && asJSON:
			return enc.Encode(map[string]any{"t": e.Time, "event": s.Index, "screen_state": s.Marker.State, "expect": s.Marker.Expect})
		case s.Marker != nil:
			fmt.Fprintf(stdout, "%9.3f  %s\n", e.Time, s.Marker)
		case e.Code == recordings.Input && asJSON:
			return enc.Encode(map[string]any{"t": e.Time, "event": s.Index, "input": string(e.Data)})
		case e.Code == recordings.Input:
			fmt.Fprintf(stdout, "%9.3f  input %q\n", e.Time, e.Data)
		case e.Code == recordings.Resize && asJSON:
			return enc.Encode(map[string]any{"t": e.Time, "event": s.Index, "resize": string(e.Data)})
		case e.Code == recordings.Resize:
			fmt.Fprintf(stdout, "%9.3f  resize %s\n", e.Time, e.Data)
		}
		return nil
	})
	return err
}
