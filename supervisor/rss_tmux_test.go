package supervisor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// BenchmarkTmuxRSS50Panes measures the resident memory of an `akk attach`
// process supervising one shell, then 50 more panes of replica agents
// (Claude Code and Codex, 120x40, recognized idle). Run with -benchtime 1x.
func BenchmarkTmuxRSS50Panes(b *testing.B) {
	akk := tmuxAkk(b)
	for i := 0; i < b.N; i++ {
		srv := tmuxtest.StartFixed(b, 120, 40, "sh")
		p := startProc(b, akk, srv, b.TempDir(), filepath.Join(b.TempDir(), "api", api.SocketName))
		time.Sleep(time.Second) // a measurement: RSS once the start-up allocations are done
		rss0 := vmRSS(b, p.cmd.Process.Pid)
		var surfaces [][3]string
		for j := 0; j < 50; j++ {
			surfaces = append(surfaces, [...][3]string{{"claude", "2.1.267", "idle"}, {"codex", "0.155.1", "idle"}}[j%2])
		}
		cases := replicaPanes(b, srv, akk, surfaces)
		for _, c := range cases {
			if err := os.WriteFile(c.fifo, []byte("go\n"), 0o600); err != nil {
				b.Fatal(err)
			}
		}
		tmuxtest.Await(b, 60*time.Second, func() string {
			l, err := p.cl.List(context.Background())
			if err != nil {
				return err.Error()
			}
			idle := 0
			for _, r := range l.Terminals {
				if r.Replica && r.ScreenState == contract.ScreenIdle {
					idle++
				}
			}
			if idle != 50 {
				return fmt.Sprintf("%d of 50 replicas idle", idle)
			}
			return ""
		})
		time.Sleep(2 * time.Second) // a measurement: RSS after the idle replicas' last frames
		rss50 := vmRSS(b, p.cmd.Process.Pid)
		b.ReportMetric(rss0, "MiB-rss-1-pane")
		b.ReportMetric(rss50, "MiB-rss-51-panes")
		b.ReportMetric((rss50-rss0)/50, "MiB/pane")
		b.ReportMetric(50+0.5*51, "MiB-target")
	}
}

// vmRSS reads a process's resident set in MiB.
func vmRSS(t testing.TB, pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(v)[0])
			return float64(kb) / 1024
		}
	}
	t.Fatal("no VmRSS")
	return 0
}
