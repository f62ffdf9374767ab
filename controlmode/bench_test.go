package controlmode

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/syncbuf"
)

var record = flag.Bool("record", false, "TestTmuxRecordStreams: record testdata/streams from a real tmux")

// TestTmuxRecordStreams records the raw control-mode streams the decoding
// benchmarks replay: tmux's own stdout while panes print agent-style
// output (agent4) or every byte value and random bytes (bytes).
func TestTmuxRecordStreams(t *testing.T) {
	if !*record {
		t.Skip("records only with -record")
	}
	recordStream(t, "agent4", 4, func(i int) string { return helperCmd("agent", fmt.Sprint(300+i), fmt.Sprint(512<<10)) },
		func(i int) int { return len(agentStream(uint64(300+i), 512<<10)) })
	recordStream(t, "bytes", 1, func(i int) string { return helperCmd("bytes", "77") },
		func(int) int { return len(byteStream(77)) })
}

func recordStream(t *testing.T, name string, panes int, cmd func(int) string, size func(int) int) {
	srv := startTmux(t, 80, 24, cmd(0))
	for i := 1; i < panes; i++ {
		srv.MustRun("new-window", "-d", "-t", "main", cmd(i))
	}
	var tr syncbuf.Buffer
	c := attach(t, srv, func(cfg *Config) { cfg.Transcript = &tr })
	var ws []*watcher
	for i := 0; i < panes; i++ {
		f, _ := c.Follow(PaneID(i))
		ws = append(ws, watch(t, f, false))
		ws[i].await("seed", 3*time.Second, seeded)
	}
	for i := range ws {
		trigger(t, c, PaneID(i))
	}
	for i, w := range ws {
		w.await("output", 60*time.Second, func(m *Mirror) bool { return m.Bytes >= int64(size(i)) })
		w.checkNow("recorded")
	}
	c.Close()
	out, err := os.Create(filepath.Join("testdata/streams", name+".ctl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	raw := tr.Bytes()
	zw.Write(raw)
	zw.Close()
	out.Close()
	t.Logf("%s: %d bytes of tmux -C output", name, len(raw))
}

func loadStream(b *testing.B, name string) []byte {
	f, err := os.Open(filepath.Join("testdata/streams", name+".ctl.gz"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkDecode replays recorded tmux -C streams through the decoder,
// line by line as the client's reader does, and reports MB/s of stream.
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"agent4", "bytes"} {
		b.Run(name, func(b *testing.B) {
			data := loadStream(b, name)
			lines := bytes.SplitAfter(data, []byte("\n"))
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			var out int
			for i := 0; i < b.N; i++ {
				var d Decoder
				for _, l := range lines {
					if len(l) == 0 {
						continue
					}
					for _, e := range d.FeedLine(l[:len(l)-1]) {
						if o, ok := e.(*Output); ok {
							out += len(o.Data)
						}
					}
				}
			}
			b.ReportMetric(float64(len(data))*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s-stream")
			_ = out
		})
	}
}

// BenchmarkDecodeChunks is BenchmarkDecode through Feed with 4 KiB reads.
func BenchmarkDecodeChunks(b *testing.B) {
	data := loadStream(b, "agent4")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var d Decoder
		for p := data; len(p) > 0; {
			n := min(len(p), 4096)
			d.Feed(p[:n])
			p = p[n:]
		}
	}
}

// BenchmarkUnescape is the %output payload decoding alone.
func BenchmarkUnescape(b *testing.B) {
	payload := AppendEscaped(nil, agentStream(1, 4096))
	dst := make([]byte, 0, 8192)
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		dst = appendUnescaped(dst[:0], payload)
	}
}

// BenchmarkTmuxLatency measures the time from a byte written in a pane
// to the consumer taking it from the pane's feed (end to end: pty, tmux,
// control-mode pipe, decoder, feed), over 2000 samples, alone and with
// four other panes printing. The pane writes its wall clock, the consumer
// compares with its own.
func BenchmarkTmuxLatency(b *testing.B) {
	for _, busy := range []int{0, 4} {
		b.Run(fmt.Sprintf("busy=%d", busy), func(b *testing.B) {
			const samples = 2000
			srv := startTmux(b, 80, 24, helperCmd("ticker", fmt.Sprint(samples), "1000"))
			for i := 0; i < busy; i++ {
				srv.MustRun("new-window", "-d", "-t", "main", helperCmd("busy", fmt.Sprint(i), "200"))
			}
			rl := &readerLatency{}
			c := attach(b, srv, func(cfg *Config) { cfg.Transcript = rl })
			for i := 1; i <= busy; i++ {
				if f, err := c.Follow(PaneID(i)); err == nil {
					go drain(c, f)
				}
			}
			f, err := c.Follow(0)
			if err != nil {
				b.Fatal(err)
			}
			lat := measureTicks(b, c, f, samples)
			slices.Sort(lat)
			q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
			b.ReportMetric(q(0.50), "p50-ms")
			b.ReportMetric(q(0.99), "p99-ms")
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
			b.ReportMetric(float64(len(lat)), "samples")
			// The same bytes as the reader saw them, before decoding: the
			// part of the latency that is tmux's (and the pipe's).
			rl.mu.Lock()
			rd := slices.Clone(rl.lat)
			rl.mu.Unlock()
			if len(rd) > 0 {
				slices.Sort(rd)
				b.ReportMetric(float64(rd[len(rd)/2].Microseconds())/1000, "reader-p50-ms")
				b.ReportMetric(float64(rd[int(0.99*float64(len(rd)-1))].Microseconds())/1000, "reader-p99-ms")
			}
		})
	}
}

func drain(c *Client, f *Feed) {
	for {
		select {
		case <-f.Ready():
			f.Take()
		case <-c.Done():
			return
		}
	}
}

func measureTicks(b *testing.B, c *Client, f *Feed, samples int) []time.Duration {
	var lat []time.Duration
	var pending []byte
	seeded := false
	deadline := time.After(60 * time.Second)
	for len(lat) < samples {
		select {
		case <-f.Ready():
		case <-deadline:
			b.Fatalf("only %d samples; left %q; feed %+v; stats %+v", len(lat), pending, f.Stats(), c.Stats())
		}
		u := f.Take()
		now := time.Now().UnixNano()
		if u.Seed != nil && !seeded {
			seeded = true
			trigger(b, c, 0)
		}
		pending = append(pending, u.Data...)
		for {
			i := bytes.Index(pending, []byte("\r\n"))
			if i < 0 {
				break
			}
			if line := pending[:i]; len(line) > 1 && line[0] == 'T' {
				if ns, err := strconv.ParseInt(string(line[1:]), 10, 64); err == nil {
					lat = append(lat, time.Duration(now-ns))
				} else {
					b.Logf("bad line %q", line)
				}
			} else {
				b.Logf("bad line %q", line)
			}
			pending = pending[i+2:]
		}
	}
	return lat
}

// readerLatency is a Transcript that times the ticker's lines of pane %0
// when the client's reader reads them.
type readerLatency struct {
	mu  sync.Mutex
	lat []time.Duration
}

func (r *readerLatency) Write(line []byte) (int, error) {
	now := time.Now().UnixNano()
	rest, ok := bytes.CutPrefix(line, []byte("%output %0 "))
	if !ok {
		return len(line), nil
	}
	for _, part := range bytes.Split(rest, []byte(`\015\012`)) {
		if len(part) > 1 && part[0] == 'T' {
			if ns, err := strconv.ParseInt(string(part[1:]), 10, 64); err == nil {
				r.mu.Lock()
				r.lat = append(r.lat, time.Duration(now-ns))
				r.mu.Unlock()
			}
		}
	}
	return len(line), nil
}
