package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/api"
)

// EventsCmd is `akk events`: the recorded history, and with --follow the
// new events as they are recorded.
type EventsCmd struct {
	DaemonFlags
	Follow bool   `short:"f" help:"Keep printing new events until interrupted."`
	After  uint64 `help:"Only events after this sequence number." default:"0"`
}

// Run prints one event a line (NDJSON with --json).
func (c *EventsCmd) Run(ctx context.Context, cl *api.Client, g *Globals, stdout io.Writer, kctx *kong.Context) error {
	enc := json.NewEncoder(stdout)
	err := cl.Events(ctx, c.After, c.Follow, func(e api.Event) error {
		if g.JSON {
			return enc.Encode(e)
		}
		_, err := fmt.Fprintln(stdout, formatEvent(e))
		return err
	})
	return err
}

func formatEvent(e api.Event) string {
	keys := make([]string, 0, len(e.Attrs))
	for k := range e.Attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%6d %s %-16s %s", e.Seq, e.Time.Local().Format(time.TimeOnly+".000"), e.Type, e.TerminalID)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, e.Attrs[k])
	}
	return b.String()
}
