package supervisor

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxPaneChurn: 50 panes are created and destroyed, ten at a time,
// while replica agents stay; afterwards the list holds exactly the
// remaining panes, every churned terminal was added and removed once, the
// goroutines and the heap are back to their level before the churn, and a
// stopped daemon leaves no goroutine behind.
func TestTmuxPaneChurn(t *testing.T) {
	akk, srv := replicaServer(t)
	srv.MustRun("set-option", "-g", "remain-on-exit", "off")
	cases := replicaPanes(t, srv, akk, [][3]string{{"claude", "2.1.267", "idle"}, {"codex", "0.155.1", "idle"}})
	for _, c := range cases {
		c.keepAlive = true
	}
	leaks := goleak.IgnoreCurrent()
	d := startDaemon(t, srv, daemonOpts{})
	ctx := context.Background()
	listed := func(n int) func() string {
		return func() string {
			l, err := d.cl.List(ctx)
			if err != nil {
				return err.Error()
			}
			if len(l.Terminals) != n {
				return fmt.Sprintf("%d rows, want %d", len(l.Terminals), n)
			}
			return ""
		}
	}
	tmuxtest.Await(t, 15*time.Second, listed(3))
	for _, c := range cases { // the idle replicas play and wait for the sentinel
		if err := os.WriteFile(c.fifo, []byte("go\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		awaitState(t, d.cl, c.pane, contract.ScreenIdle)
	}
	settle := func() (int, uint64) {
		// A measurement, not a wait for a state: goroutines that end with
		// their panes are given a moment before they are counted.
		time.Sleep(200 * time.Millisecond)
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return runtime.NumGoroutine(), ms.HeapInuse
	}
	g0, h0 := settle()
	for round := 0; round < 5; round++ {
		var panes []string
		for i := 0; i < 10; i++ {
			panes = append(panes, newWindow(t, srv, 120, 40, fmt.Sprintf("sh -c 'printf \"churn %d.%d\\n\"; exec sleep 60'", round, i)))
		}
		tmuxtest.Await(t, 15*time.Second, listed(13))
		for _, p := range panes {
			srv.MustRun("kill-pane", "-t", p)
		}
		tmuxtest.Await(t, 15*time.Second, listed(3))
	}
	g1, h1 := settle()
	for i := 0; i < 20 && (g1 > g0 || h1 > h0+4<<20); i++ {
		g1, h1 = settle()
	}
	t.Logf("goroutines %d -> %d, heap in use %.1f -> %.1f MiB", g0, g1, float64(h0)/(1<<20), float64(h1)/(1<<20))
	if g1 > g0 {
		t.Errorf("goroutines %d after the churn, %d before", g1, g0)
	}
	if h1 > h0+4<<20 {
		t.Errorf("heap in use %d after the churn, %d before", h1, h0)
	}
	var all []api.Event
	if err := d.cl.Events(ctx, 0, false, func(e api.Event) error { all = append(all, e); return nil }); err != nil {
		t.Fatal(err)
	}
	added, removed := map[string]int{}, map[string]int{}
	for _, e := range all {
		switch e.Type {
		case api.EventTerminalAdded:
			added[e.TerminalID]++
		case api.EventTerminalRemoved:
			removed[e.TerminalID]++
		}
	}
	if len(added) != 53 || len(removed) != 50 {
		t.Errorf("%d terminals added, %d removed; want 53 and 50", len(added), len(removed))
	}
	for id, n := range removed {
		if n != 1 || added[id] != 1 {
			t.Errorf("terminal %s added %d times, removed %d times", id, added[id], n)
		}
	}
	l, _ := d.cl.List(ctx)
	for _, r := range l.Terminals {
		if r.Agent != api.AgentNone && !r.Replica || strings.Contains(r.Command, "sleep") {
			t.Errorf("unexpected row after the churn: %+v", r)
		}
	}
	d.stop()
	goleak.VerifyNone(t, leaks)
}
