package watchers

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// BenchmarkParse parses the recorded journals of each agent (real files
// from the rig) and reports lines/s beside MB/s.
func BenchmarkParse(b *testing.B) {
	for _, agent := range []evidence.Agent{transcript.Agent, rollout.Agent} {
		b.Run(string(agent), func(b *testing.B) {
			var files [][]byte
			total, lines := 0, 0
			for _, f := range evidencetest.Journals(b) {
				data, err := os.ReadFile(f.Journal)
				if err != nil || len(data) == 0 || agentOfFile(f) != agent {
					continue
				}
				files = append(files, data)
				total += len(data)
				lines += bytes.Count(data, []byte("\n"))
			}
			if len(files) == 0 {
				b.Skipf("no %s journal recorded yet", agent)
			}
			p := NewParser(agent)
			var evs []evidence.Event
			b.SetBytes(int64(total))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for _, data := range files {
					p.Reset()
					for len(data) > 0 {
						i := bytes.IndexByte(data, '\n')
						evs = p.Parse(evidence.Where{}, data[:i], evs[:0])
						data = data[i+1:]
					}
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

// BenchmarkAppendLatency measures the time from an append (the write
// returning) to its evidence event leaving the Watcher, over at least 1000
// appends, and reports p50, p99 and the maximum in milliseconds.
func BenchmarkAppendLatency(b *testing.B) {
	dir := b.TempDir()
	w, err := New(Options{Agent: rollout.Agent})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "rollout-latency.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	n := max(b.N, 1000)
	lat := make([]time.Duration, 0, n)
	b.ResetTimer()
	for i := range n {
		line := []byte(turnLine(i))
		start := time.Now()
		if _, err := f.Write(line); err != nil {
			b.Fatal(err)
		}
		for ev := range w.Evidence() {
			if ts, ok := ev.(evidence.TurnStarted); ok {
				if ts.TurnID != "t"+itoa(int64(i)) {
					b.Fatalf("event %s for append %d", ts.TurnID, i)
				}
				break
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	b.ReportMetric(float64(len(lat)), "samples")
}
