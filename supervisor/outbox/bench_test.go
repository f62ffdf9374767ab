package outbox

import (
	"fmt"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/store"
)

// BenchmarkOutboxThroughput drains 1,000 queued notifications through a
// webhook on 127.0.0.1 (each: a synced claim, a POST, a synced outcome).
func BenchmarkOutboxThroughput(b *testing.B) {
	const queued = 1000
	rcv := hooktest.Start(b, "", nil)
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		// Queued while no worker runs: Run schedules what it finds.
		rig := newRig(b, dir, Config{Routes: []RouteConfig{{Name: "hook", Kind: RouteWebhook, URL: rcv.URL}}})
		st := rig.st
		var ns []store.Notification
		for i := range queued {
			ns = append(ns, notification(b, fmt.Sprintf("watch_%d", i), "hook"))
		}
		if _, _, err := st.ApplyTasks(store.TaskChange{Notifications: ns}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		rig.start()
		for {
			open, _ := st.Notifications(func(n *store.Notification) bool { return n.State != store.NtfAccepted })
			if len(open) == 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		el := time.Since(start)
		b.StopTimer()
		rig.stop()
		b.ReportMetric(float64(queued)/el.Seconds(), "notifications/s")
		b.StartTimer()
	}
}
