package tasks

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
)

// BenchmarkEvidenceToCallback measures the time from a durable evidence
// line (a Codex task_complete appended to a rollout, followed by a real
// fsnotify watcher) to the webhook request on 127.0.0.1 that reports the
// exact Watch's completion: parser, task manager, synced enqueue, claim,
// send. Reports p50 and p99 in ms.
func BenchmarkEvidenceToCallback(b *testing.B) {
	dir := b.TempDir()
	rolloutDir := filepath.Join(dir, "sessions", "2026", "01", "02")
	os.MkdirAll(rolloutDir, 0o755)
	path := filepath.Join(rolloutDir, "rollout-bench.jsonl")
	if err := os.WriteFile(path, []byte(`{"type":"session_meta","payload":{"id":"s1","cwd":"/tmp"}}`+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	arrived := map[string]time.Time{}
	rcv := hooktest.Start(b, "", func(_ int, r hooktest.Request) (int, time.Duration) {
		mu.Lock()
		if i := bytes.Index(r.Body, []byte(`"watch_id":"`)); i >= 0 {
			id := string(r.Body[i+12 : i+12+32])
			arrived[id] = r.At
		}
		mu.Unlock()
		return 200, 0
	})
	lg := testLogger(b)
	st, err := store.Open(filepath.Join(dir, "store"), &store.Options{Logger: lg})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sv, ob := newTestManager(b, st, outbox.Config{Routes: []outbox.RouteConfig{{Name: "hook", Kind: outbox.RouteWebhook, URL: rcv.URL}}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	go func() { done <- sv.Run(ctx) }()
	go func() { done <- ob.Run(ctx) }()
	defer func() { cancel(); <-done; <-done }()
	opts := watchers.Options{Agent: rollout.Agent, Depth: rollout.Format.Depth}
	opts.Depth = 3
	w, err := watchers.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(filepath.Join(dir, "sessions")); err != nil {
		b.Fatal(err)
	}
	go func() {
		for ev := range w.Evidence() {
			sv.Evidence("term_bench", 1, ev)
		}
	}()
	fi, _ := os.Stat(path)
	sys := fi.Sys().(*syscall.Stat_t)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		turn := fmt.Sprintf("turn-%d", i)
		started := fmt.Sprintf(`{"type":"event_msg","payload":{"type":"task_started","turn_id":%q}}`+"\n", turn)
		f.WriteString(started)
		off, _ := f.Seek(0, 1)
		id := "watch_" + terminal.Derive(sv.secret, "bench", turn)
		rec := store.Watch{ID: id, TerminalID: "term_bench", Mode: api.WatchExactTask, Confidence: api.ConfidenceExact,
			State: WatchActive, Incarnation: "x", Routes: []string{"hook"}, Created: time.Now(), Deadline: time.Now().Add(time.Hour),
			Anchor: &store.TaskAnchor{Agent: "codex", Path: path, FileDev: uint64(sys.Dev), FileIno: sys.Ino, Generation: 1, Start: off, TurnID: turn}}
		sv.opMu.Lock()
		sv.kit.fs.watches[id] = &watchState{rec: rec}
		sv.opMu.Unlock()
		at := time.Now()
		f.WriteString(fmt.Sprintf(`{"type":"event_msg","payload":{"type":"task_complete","turn_id":%q}}`+"\n", turn))
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			got, ok := arrived[id]
			mu.Unlock()
			if ok {
				lat = append(lat, got.Sub(at))
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("no callback for %s", id)
			}
			time.Sleep(200 * time.Microsecond)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.5), "p50_ms")
	b.ReportMetric(q(0.99), "p99_ms")
}
