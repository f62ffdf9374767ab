package bench

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/agent-knock-knock/akk/internal/benchinput"
)

// benchBytes is the size of each benchmark input: AKK_BENCH_BYTES, or
// benchinput.DefaultSize (16 MiB).
func benchBytes(tb testing.TB) int {
	s := os.Getenv("AKK_BENCH_BYTES")
	if s == "" {
		return benchinput.DefaultSize
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		tb.Fatalf("AKK_BENCH_BYTES=%q: want a positive byte count", s)
	}
	return n
}

var (
	inputsOnce sync.Once
	inputs     map[string][]byte
)

func input(tb testing.TB, name string) []byte {
	inputsOnce.Do(func() {
		inputs = map[string][]byte{}
		n := benchBytes(tb)
		for _, in := range Inputs {
			inputs[in.Name] = in.Gen(n)
		}
	})
	return inputs[name]
}

// BenchmarkVT runs every consumer on every input and chunking, consumers
// side by side:
//
//	BenchmarkVT/agent/bytes/akk
//	BenchmarkVT/agent/bytes/x-vt
//	...
//
// One op is one pass over the whole input, written in ~4 KiB chunks into
// an emulator that was created and warmed (WarmBytes of the same input)
// before the timer started; the emulator lives across ops, so the
// allocation figures are the steady state. Metrics: MB/s, allocs/MB and
// B/MB (heap objects and bytes allocated per 10^6 input bytes), besides
// ns/op, B/op and allocs/op.
func BenchmarkVT(b *testing.B) {
	for _, in := range Inputs {
		data := input(b, in.Name)
		for _, cut := range benchinput.Cuts {
			chunks := benchinput.Chunks(data, ChunkSize, cut)
			for _, c := range Consumers {
				b.Run(fmt.Sprintf("%s/%s/%s", in.Name, cut, c.Name), func(b *testing.B) {
					benchConsumer(b, c, chunks)
				})
			}
		}
	}
}

func benchConsumer(b *testing.B, c Consumer, chunks [][]byte) {
	e := c.New()
	defer e.Close()
	Warm(e, chunks, WarmBytes)
	size := int64(Size(chunks))
	b.ReportAllocs()
	runtime.GC()
	b.ResetTimer()
	var m Meter
	m.Start()
	for b.Loop() {
		Feed(e, chunks)
	}
	r := m.Stop(size * int64(b.N))
	b.StopTimer()
	b.ReportMetric(r.MBps(), "MB/s")
	b.ReportMetric(r.AllocsPerMB(), "allocs/MB")
	b.ReportMetric(r.BytesPerMB(), "B/MB")
}

// TestSameVisibleText checks that the comparison is apples to apples: fed
// the same bytes, in either chunking, akk and x/vt end with the same
// visible text and the same wide-character columns.
func TestSameVisibleText(t *testing.T) {
	for _, in := range Inputs {
		data := in.Gen(300_000)
		for _, cut := range benchinput.Cuts {
			chunks := benchinput.Chunks(data, ChunkSize, cut)
			t.Run(in.Name+"/"+cut.String(), func(t *testing.T) {
				screens := make([][]Row, len(Consumers))
				for i, c := range Consumers {
					e := c.New()
					Feed(e, chunks)
					screens[i] = e.Rows()
					e.Close()
				}
				for i, rows := range screens {
					blank := 0
					for _, r := range rows {
						if r.Text == "" {
							blank++
						}
					}
					if blank > Height/2 {
						t.Fatalf("%s: %d of %d rows blank: the input did not reach the screen", Consumers[i].Name, blank, Height)
					}
				}
				diffs := 0
				for y := range screens[0] {
					a, x := screens[0][y], screens[1][y]
					if a.Text == x.Text && slices.Equal(a.Wide, x.Wide) {
						continue
					}
					if diffs++; diffs <= 5 {
						t.Errorf("row %d differs:\n%-5s %q wide at %v\n%-5s %q wide at %v",
							y, Consumers[0].Name, a.Text, a.Wide, Consumers[1].Name, x.Text, x.Wide)
					}
				}
				if diffs > 5 {
					t.Errorf("... %d rows differ in all", diffs)
				}
			})
		}
	}
}

// TestChunkingInvariant checks each consumer on its own: the chunking of an
// input must not change the screen it ends with.
func TestChunkingInvariant(t *testing.T) {
	for _, in := range Inputs {
		data := in.Gen(200_000)
		for _, c := range Consumers {
			t.Run(in.Name+"/"+c.Name, func(t *testing.T) {
				var want []Row
				for i, chunks := range [][][]byte{
					{data},
					benchinput.Chunks(data, ChunkSize, benchinput.AnyByte),
					benchinput.Chunks(data, ChunkSize, benchinput.RuneBoundary),
					benchinput.Chunks(data, 7, benchinput.AnyByte),
				} {
					e := c.New()
					Feed(e, chunks)
					got := e.Rows()
					e.Close()
					if i == 0 {
						want = got
						continue
					}
					for y := range want {
						if got[y].Text != want[y].Text || !slices.Equal(got[y].Wide, want[y].Wide) {
							t.Errorf("chunking %d: row %d is %q, whole input gives %q", i, y, got[y].Text, want[y].Text)
							break
						}
					}
				}
			})
		}
	}
}
