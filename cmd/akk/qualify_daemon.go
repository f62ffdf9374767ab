package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agent-knock-knock/akk/api"
)

// errQualifyDone ends the event follow when the run is done.
var errQualifyDone = errors.New("qualification done")

// viaDaemon asks the daemon to qualify (the binary in a terminal, or the
// agent's program) and follows the run's events: a line per scenario,
// then the surfaces. The record is the daemon's to store.
func (c *QualifyCmd) viaDaemon(ctx context.Context, cl *api.Client, g *Globals, stdout, stderr io.Writer) error {
	req := api.QualifyRequest{Base: c.Base, Full: c.Full}
	if c.isTerminal() {
		req.TerminalID = c.Target
		if err := resolveInto(ctx, cl, &req.TerminalID); err != nil {
			return err
		}
	} else {
		bin, err := c.binary()
		if err != nil {
			return err
		}
		if req.Binary, err = filepath.Abs(bin); err != nil {
			return err
		}
	}
	started, err := cl.Qualify(ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "the daemon qualifies %s %s (%s) against %s: %d scenarios, offline, niced (run %s)\n",
		started.Agent, started.Version, started.Binary, started.Base, started.Scenarios, started.Run)
	var done map[string]string
	err = cl.Events(ctx, 0, true, func(ev api.Event) error {
		if ev.Attrs["run"] != started.Run {
			return nil
		}
		switch ev.Type {
		case api.EventQualifyScenario:
			line := fmt.Sprintf("  %-22s %6s  %s", ev.Attrs["scenario"], ev.Attrs["took"], ev.Attrs["findings"])
			if e := ev.Attrs["error"]; e != "" {
				line += "  (" + e + ")"
			}
			fmt.Fprintln(stderr, line)
		case api.EventQualifyDone:
			done = ev.Attrs
			return errQualifyDone
		}
		return nil
	})
	if !errors.Is(err, errQualifyDone) {
		if err == nil {
			err = ctx.Err()
		}
		return fmt.Errorf("following qualification %s: %w (it goes on in the daemon; akk events shows its end)", started.Run, err)
	}
	if e := done["error"]; e != "" {
		return fmt.Errorf("qualification of %s %s: %s", started.Agent, started.Version, e)
	}
	if g.JSON {
		return json.NewEncoder(stdout).Encode(done)
	}
	passed, failed, notReached := fields(done["passed"]), fields(done["failed"]), fields(done["not_reached"])
	judged := len(passed) + len(failed) + len(notReached)
	fmt.Fprintf(stdout, "%s %s: qualified as %s on %d/%d surfaces (identity %.12s); akk acts on it there from now on\n",
		done["agent"], done["version"], done["base"], len(passed), judged, done["identity"])
	for _, row := range []struct {
		what string
		list []string
	}{{"passed", passed}, {"failed", failed}, {"not reached", notReached}} {
		if len(row.list) > 0 {
			fmt.Fprintf(stdout, "  %-12s %s\n", row.what+":", strings.Join(row.list, " "))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(stdout, "  (akk qualify %s --local --dry-run --out DIR shows each difference with its screen)\n", done["agent"])
	}
	return nil
}

func fields(s string) []string { return strings.Fields(s) }
