package vt

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// fullLines writes n rows of full-width styled text, scrolling.
func fullLines(s *Screen, n int) {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.Reset()
		for x := 0; x < s.w; x += 10 {
			fmt.Fprintf(&b, "\x1b[38;5;%dm%-10.10s", (i+x)%256, fmt.Sprintf("line%d", i))
		}
		b.WriteString("\r\n")
		s.Write([]byte(b.String()))
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestMemoryFootprint: a 120x40 screen with 1,000 lines of full scrollback
// stays within 1 MiB of heap.
func TestMemoryFootprint(t *testing.T) {
	before := heapInUse()
	s := New(120, 40, Options{Scrollback: 1000})
	fullLines(s, 1100)
	after := heapInUse()
	runtime.KeepAlive(s)
	if s.ScrollbackLen() != 1000 {
		t.Fatalf("scrollback holds %d lines, want 1000", s.ScrollbackLen())
	}
	used := int64(after) - int64(before)
	t.Logf("120x40 + 1000 lines of scrollback: %d bytes", used)
	if used > 1<<20 {
		t.Errorf("screen uses %d bytes, more than 1 MiB", used)
	}
}

// TestSteadyStateAllocs: printing, cursor moves, SGR and scrolling allocate
// nothing once the screen has seen its styles.
func TestSteadyStateAllocs(t *testing.T) {
	cases := map[string]string{
		"print":  "the quick brown fox jumps over the lazy dog ",
		"cup":    "\x1b[12;40H\x1b[1;1H",
		"sgr":    "\x1b[1;38;5;123;48;2;10;20;30mA\x1b[0mB\x1b[4:3;58;5;9mC\x1b[m",
		"scroll": "log line with some text in it\r\n",
		"utf8":   "\xe4\xb8\x96\xe7\x95\x8c \u00e9 \xf0\x9f\x8e\x89",
		"erase":  "\x1b[K\x1b[2J\x1b[3X",
	}
	for name, in := range cases {
		s := New(120, 40, Options{Scrollback: 100})
		data := []byte(in)
		for i := 0; i < 2000; i++ { // fill scrollback so it recycles lines
			s.Write(data)
		}
		if n := testing.AllocsPerRun(200, func() { s.Write(data) }); n != 0 {
			t.Errorf("%s: %v allocations per write", name, n)
		}
	}
	// A combining mark makes a new grapheme string: one allocation, no more.
	s := New(120, 40, Options{})
	data := []byte("e\u0301 ")
	if n := testing.AllocsPerRun(1000, func() { s.Write(data) }); n > 1 {
		t.Errorf("combining: %v allocations per write", n)
	}
}

// TestReadingAllocs: reading a screen for recognition (rows into a reused
// slice, fingerprints) allocates nothing for the characters agents draw
// their frames, menus and text with.
func TestReadingAllocs(t *testing.T) {
	s := New(120, 40, Options{})
	s.Write([]byte("\x1b[1;38;2;1;2;3m\u256d\u2500\u2500\u256e \u276f 1. Yes \x1b[2mdim\x1b[0m \u00e9t\u00e9 \x1b]8;;http://x\x07link\x1b]8;;\x07"))
	var row []Cell
	if n := testing.AllocsPerRun(100, func() {
		for y := 0; y < 40; y++ {
			row = s.AppendRow(row[:0], y)
		}
	}); n != 0 {
		t.Errorf("AppendRow over the screen: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { s.Fingerprint(s.Bounds()) }); n != 0 {
		t.Errorf("Fingerprint: %v allocations", n)
	}
}

func BenchmarkReadScreen(b *testing.B) {
	s := New(120, 40, Options{})
	s.Write(benchinputAgentFrame())
	var row []Cell
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for y := 0; y < 40; y++ {
			row = s.AppendRow(row[:0], y)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/screen")
}

func BenchmarkFingerprint(b *testing.B) {
	s := New(120, 40, Options{})
	s.Write(benchinputAgentFrame())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.Fingerprint(s.Bounds())
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/screen")
}

func BenchmarkMemoryFootprint(b *testing.B) {
	for i := 0; i < b.N; i++ {
		before := heapInUse()
		s := New(120, 40, Options{Scrollback: 1000})
		fullLines(s, 1100)
		after := heapInUse()
		runtime.KeepAlive(s)
		b.ReportMetric(float64(after-before), "heap-bytes/screen")
	}
}
