package bench

import (
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/internal/benchinput"
	"github.com/agent-knock-knock/akk/vt"
	xvt "github.com/charmbracelet/x/vt"
)

// Screen size every consumer is created with.
const (
	Width  = benchinput.Width
	Height = benchinput.Height
)

// ChunkSize is the mean write size: tmux control mode hands pane output
// over in blocks of about this size.
const ChunkSize = 4096

// WarmBytes is how much of an input a fresh emulator is fed, untimed and
// with its allocations uncounted, before a measured pass: enough to fill
// x/vt's and akk's scrollback on the log input, so a pass measures the
// steady state rather than the first fill.
const WarmBytes = 2 << 20

// Emulator is a screen model under test.
type Emulator interface {
	// Write feeds pane output; it never fails for the consumers here.
	Write(p []byte) (int, error)
	// Rows returns the visible screen, one Row per line.
	Rows() []Row
	// Close releases the emulator (and stops any goroutine it needs).
	Close()
}

// Row is one visible line as a person sees it: Text holds the characters
// left to right, the padding cell right of a wide character skipped and
// trailing blanks trimmed; Wide holds the columns where wide characters
// start.
type Row struct {
	Text string
	Wide []int
}

// Consumer names a screen model and makes fresh Width x Height instances.
type Consumer struct {
	Name string
	New  func() Emulator
}

// Consumers are compared in this order; the ratio reported is
// Consumers[0] / Consumers[1].
var Consumers = []Consumer{
	{Name: "akk", New: NewAkk},
	{Name: "x-vt", New: NewXVT},
}

// Input names a generated benchmark stream.
type Input struct {
	Name string
	Gen  func(n int) []byte
}

// Inputs are the two streams of the benchmark.
var Inputs = []Input{
	{Name: "agent", Gen: benchinput.Agent},
	{Name: "log", Gen: benchinput.Log},
}

// akkEmu is akk's own screen model with default options.
type akkEmu struct{ s *vt.Screen }

// NewAkk returns akk's vt.Screen, created as akk creates it for a pane.
func NewAkk() Emulator { return akkEmu{vt.New(Width, Height, vt.Options{})} }

func (a akkEmu) Write(p []byte) (int, error) { return a.s.Write(p) }
func (a akkEmu) Close()                      {}

func (a akkEmu) Rows() []Row {
	w, h := a.s.Size()
	rows := make([]Row, h)
	for y := range rows {
		var sb strings.Builder
		for x := 0; x < w; x++ {
			c := a.s.Cell(x, y)
			switch c.Width {
			case 0:
				continue
			case 2:
				rows[y].Wide = append(rows[y].Wide, x)
			}
			if c.Text == "" {
				sb.WriteByte(' ')
			} else {
				sb.WriteString(c.Text)
			}
		}
		rows[y].Text = strings.TrimRight(sb.String(), " ")
	}
	return rows
}

// xvtEmu is github.com/charmbracelet/x/vt with its default options. It
// writes replies to device queries (DA, DSR, DECRQM...) into a synchronous
// io.Pipe whose Write blocks until someone reads it, which would wedge the
// parser on the first query: a goroutine drains and discards the replies,
// as a tmux supervisor must (tmux answers the pane itself).
type xvtEmu struct {
	e    *xvt.Emulator
	done chan struct{}
}

// NewXVT returns an x/vt emulator with its reply pipe drained.
func NewXVT() Emulator {
	x := &xvtEmu{e: xvt.NewEmulator(Width, Height), done: make(chan struct{})}
	buf := make([]byte, 4096)
	go func() {
		defer close(x.done)
		for {
			if _, err := x.e.Read(buf); err != nil {
				return
			}
		}
	}()
	return x
}

func (x *xvtEmu) Write(p []byte) (int, error) { return x.e.Write(p) }

// Close ends the drain by closing the reply pipe's write side (rather
// than Emulator.Close, whose flag the draining Read checks unsynchronized)
// and waits for the goroutine.
func (x *xvtEmu) Close() {
	if pw, ok := x.e.InputPipe().(*io.PipeWriter); ok {
		_ = pw.Close()
	}
	<-x.done
}

func (x *xvtEmu) Rows() []Row {
	rows := make([]Row, x.e.Height())
	for y := range rows {
		var sb strings.Builder
		for col := 0; col < x.e.Width(); col++ {
			c := x.e.CellAt(col, y)
			if c == nil {
				sb.WriteByte(' ')
				continue
			}
			switch c.Width {
			case 0:
				continue
			case 2:
				rows[y].Wide = append(rows[y].Wide, col)
			}
			if c.Content == "" {
				sb.WriteByte(' ')
			} else {
				sb.WriteString(c.Content)
			}
		}
		rows[y].Text = strings.TrimRight(sb.String(), " ")
	}
	return rows
}

// Feed writes every chunk to e.
func Feed(e Emulator, chunks [][]byte) {
	for _, c := range chunks {
		e.Write(c)
	}
}

// Warm feeds e the leading chunks of an input until at least limit bytes
// were written (all of them when the input is smaller).
func Warm(e Emulator, chunks [][]byte, limit int) {
	n := 0
	for _, c := range chunks {
		if n >= limit {
			return
		}
		e.Write(c)
		n += len(c)
	}
}

// Size returns the total length of chunks.
func Size(chunks [][]byte) int {
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	return n
}

// Result is one measured pass (or several, summed) over an input.
type Result struct {
	Bytes      int64         // input bytes written
	Elapsed    time.Duration // wall time of the writes
	Mallocs    uint64        // heap objects allocated meanwhile
	AllocBytes uint64        // heap bytes allocated meanwhile
}

// MB is the unit of every per-MB figure: 10^6 bytes, as Go's MB/s.
const MB = 1e6

// MBps is the throughput in MB/s.
func (r Result) MBps() float64 { return float64(r.Bytes) / MB / r.Elapsed.Seconds() }

// AllocsPerMB is heap objects allocated per MB of input.
func (r Result) AllocsPerMB() float64 { return float64(r.Mallocs) / (float64(r.Bytes) / MB) }

// BytesPerMB is heap bytes allocated per MB of input.
func (r Result) BytesPerMB() float64 { return float64(r.AllocBytes) / (float64(r.Bytes) / MB) }

// Meter counts heap allocations between Start and Stop via
// runtime.MemStats (process-wide: nothing else may run meanwhile).
type Meter struct {
	ms    runtime.MemStats
	start time.Time
}

// Start begins a measurement.
func (m *Meter) Start() {
	runtime.ReadMemStats(&m.ms)
	m.start = time.Now()
}

// Stop ends it and returns the figures for bytes of input.
func (m *Meter) Stop(bytes int64) Result {
	elapsed := time.Since(m.start)
	before := m.ms
	runtime.ReadMemStats(&m.ms)
	return Result{
		Bytes:      bytes,
		Elapsed:    elapsed,
		Mallocs:    m.ms.Mallocs - before.Mallocs,
		AllocBytes: m.ms.TotalAlloc - before.TotalAlloc,
	}
}

// Measure creates a fresh emulator of c, warms it with WarmBytes of the
// input, collects garbage, and measures one pass over all chunks.
func Measure(c Consumer, chunks [][]byte) Result {
	e := c.New()
	defer e.Close()
	Warm(e, chunks, WarmBytes)
	runtime.GC()
	var m Meter
	m.Start()
	Feed(e, chunks)
	return m.Stop(int64(Size(chunks)))
}
