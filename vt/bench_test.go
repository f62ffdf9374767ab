package vt

import (
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/benchinput"
)

// The side-by-side comparison with peers lives in bench/ (its own module);
// these are the same inputs for profiling vt alone. Besides wall-clock MB/s
// they report cpu-MB/s, from the process's CPU time: on a shared machine it
// moves far less than wall time (run with GOMAXPROCS=1 to keep it honest).
func benchStream(b *testing.B, data []byte) {
	chunks := benchinput.Chunks(data, 4096, benchinput.AnyByte)
	s := New(120, 40, Options{})
	for _, c := range chunks { // warm up: the style table and scrollback fill
		s.Write(c)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range chunks {
			s.Write(c)
		}
	}
	b.StopTimer()
	mb := float64(len(data)) * float64(b.N) / 1e6
	b.ReportMetric(mb/b.Elapsed().Seconds(), "MB/s")
	b.ReportMetric(mb/(cpuTime()-cpu0).Seconds(), "cpu-MB/s")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchinputAgentFrame is the first few frames of the agent stream.
func benchinputAgentFrame() []byte { return benchinput.Agent(64 << 10) }

func BenchmarkAgent(b *testing.B) { benchStream(b, benchinput.Agent(4<<20)) }
func BenchmarkLog(b *testing.B)   { benchStream(b, benchinput.Log(4<<20)) }
