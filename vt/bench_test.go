package vt

import (
	"testing"

	"github.com/agent-knock-knock/akk/internal/benchinput"
)

// The side-by-side comparison with peers lives in bench/ (its own module);
// these are the same inputs for profiling vt alone.
func benchStream(b *testing.B, data []byte) {
	chunks := benchinput.Chunks(data, 4096, benchinput.AnyByte)
	s := New(120, 40, Options{})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range chunks {
			s.Write(c)
		}
	}
	b.ReportMetric(float64(len(data))*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
}

func BenchmarkAgent(b *testing.B) { benchStream(b, benchinput.Agent(4<<20)) }
func BenchmarkLog(b *testing.B)   { benchStream(b, benchinput.Log(4<<20)) }
