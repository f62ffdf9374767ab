package controlmode

import (
	"bytes"
)

// Expectation describes the blocks one command line will produce, so that
// the decoder can match replies to commands. tmux answers each control
// client's lines in order, one block per command on the line (commands
// joined with " ; "), and a failed command ends its line: the commands
// after it never run and produce no block.
type Expectation struct {
	Tag    uint64 // copied into the Replies; 0 is reserved for "none"
	Blocks int    // commands on the line (at least 1)
	// FlowIn is a bit set of the blocks (0-based) that may hold %pause and
	// %continue lines: the blocks of refresh-client -A, which tmux 3.3a
	// writes synchronously while the command runs, inside its own block.
	// In every other block those lines are body text.
	FlowIn uint64
}

// Decoder turns the lines tmux -C writes into events. It does no I/O and
// is not safe for concurrent use.
//
// Outside a block, a line is a notification, %output, or %begin. Inside a
// block every line is body until the line that repeats the %begin fields
// exactly after %end or %error, even a line that reads like "%end 1 2 1"
// or "%output ..." (a captured screen can show such text). The one
// exception is %pause/%continue inside the blocks of refresh-client -A
// (see Expectation.FlowIn).
type Decoder struct {
	pending []Expectation // FIFO; pending[0].Blocks counts what is left of the line
	next    int           // index of the next block within pending[0]
	// open block
	in      bool
	guard   Guard
	fields  []byte // the raw text after "%begin ", matched by %end/%error
	tag     uint64
	index   int
	flow    bool
	matched bool
	body    []byte

	partial []byte   // Feed: an incomplete line carried to the next call
	arena   []byte   // decoded output of the current call
	outs    []Output // Output events of the current call, reused
	events  []Event  // the current call's events
}

// Expect registers the blocks of a command line about to be written. Call
// it before the line can reach tmux, in the order lines are written.
func (d *Decoder) Expect(e Expectation) {
	if e.Blocks < 1 {
		e.Blocks = 1
	}
	d.pending = append(d.pending, e)
}

// Pending reports how many command lines still await blocks.
func (d *Decoder) Pending() int { return len(d.pending) }

// InBlock reports whether a block is open.
func (d *Decoder) InBlock() bool { return d.in }

// Feed decodes a chunk of the stream, split anywhere. The returned events,
// and the Data of Output events, are valid until the next call.
func (d *Decoder) Feed(p []byte) []Event {
	d.reset()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			d.partial = append(d.partial, p...)
			break
		}
		line := p[:i]
		if len(d.partial) > 0 {
			d.partial = append(d.partial, line...)
			line = d.partial
		}
		d.line(line)
		d.partial = d.partial[:0]
		p = p[i+1:]
	}
	return d.events
}

// FeedLine decodes one complete line, without its "\n". The returned
// events are valid until the next call.
func (d *Decoder) FeedLine(line []byte) []Event {
	d.reset()
	d.line(line)
	return d.events
}

// Partial reports whether Feed holds an incomplete line.
func (d *Decoder) Partial() bool { return len(d.partial) > 0 }

func (d *Decoder) reset() {
	clear(d.events)
	d.events = d.events[:0]
	d.arena = d.arena[:0]
	d.outs = d.outs[:0]
}

func (d *Decoder) emit(e Event) { d.events = append(d.events, e) }

func (d *Decoder) line(line []byte) {
	if d.in {
		d.blockLine(line)
		return
	}
	if len(line) == 0 || line[0] != '%' {
		d.emit(&Stray{Line: string(line)})
		return
	}
	if bytes.HasPrefix(line, prefixOutput) {
		d.output(line)
		return
	}
	if bytes.HasPrefix(line, prefixBegin) {
		d.begin(line)
		return
	}
	d.emit(parseNotification(line, d))
}

var (
	prefixOutput   = []byte("%output ")
	prefixExtended = []byte("%extended-output ")
	prefixBegin    = []byte("%begin ")
	prefixEnd      = []byte("%end ")
	prefixError    = []byte("%error ")
	prefixPause    = []byte("%pause ")
	prefixContinue = []byte("%continue ")
)

func (d *Decoder) output(line []byte) {
	rest := line[len(prefixOutput):]
	sp := bytes.IndexByte(rest, ' ')
	if sp < 0 {
		d.emit(&Unknown{Line: string(line), Err: "no data field"})
		return
	}
	pane, ok := parseID(rest[:sp], '%')
	if !ok || pane < 0 {
		d.emit(&Unknown{Line: string(line), Err: "bad pane id"})
		return
	}
	d.emit(d.newOutput(PaneID(pane), d.unescape(rest[sp+1:])))
}

// newOutput hands out Output events from a reused array (the hot path
// allocates nothing). When the array is full a new one is started, so
// the events already handed out in this call stay intact.
func (d *Decoder) newOutput(p PaneID, data []byte) *Output {
	if len(d.outs) == cap(d.outs) {
		d.outs = make([]Output, 0, max(8, 2*cap(d.outs)))
	}
	d.outs = append(d.outs, Output{Pane: p, Data: data})
	return &d.outs[len(d.outs)-1]
}

// unescape decodes into the arena. Earlier events keep their slices even
// if the arena grows (the old array stays alive).
func (d *Decoder) unescape(src []byte) []byte {
	start := len(d.arena)
	d.arena = appendUnescaped(d.arena, src)
	return d.arena[start:len(d.arena):len(d.arena)]
}

func (d *Decoder) begin(line []byte) {
	fields := line[len(prefixBegin):]
	g, ok := parseGuard(fields)
	if !ok {
		d.emit(&Unknown{Line: string(line), Err: "bad guard"})
		return
	}
	d.in = true
	d.guard = g
	d.fields = append(d.fields[:0], fields...)
	d.body = d.body[:0]
	d.tag, d.index, d.flow, d.matched = 0, 0, false, false
	if g.Flags == 0 || len(d.pending) == 0 {
		return // the implicit attach command, a hook, or nobody waiting
	}
	e := d.pending[0]
	d.tag, d.index, d.matched = e.Tag, d.next, true
	d.flow = d.next < 64 && e.FlowIn&(1<<d.next) != 0
}

func (d *Decoder) blockLine(line []byte) {
	if failed, ok := d.isClose(line); ok {
		d.closeBlock(failed)
		return
	}
	if d.flow {
		if bytes.HasPrefix(line, prefixPause) || bytes.HasPrefix(line, prefixContinue) {
			if e := parseNotification(line, d); !isUnknown(e) {
				d.emit(e)
				return
			}
		}
	}
	d.body = append(d.body, line...)
	d.body = append(d.body, '\n')
}

// isClose reports whether line is "%end <fields>" or "%error <fields>"
// with exactly the fields of the open block's %begin.
func (d *Decoder) isClose(line []byte) (failed, ok bool) {
	switch {
	case bytes.HasPrefix(line, prefixEnd):
		return false, bytes.Equal(line[len(prefixEnd):], d.fields)
	case bytes.HasPrefix(line, prefixError):
		return true, bytes.Equal(line[len(prefixError):], d.fields)
	}
	return false, false
}

func (d *Decoder) closeBlock(failed bool) {
	r := &Reply{Guard: d.guard, Failed: failed, Tag: d.tag, Index: d.index}
	if len(d.body) > 0 {
		r.Body = bytes.Clone(d.body)
	}
	d.in = false
	switch {
	case d.matched:
		d.next++
		if failed || d.next == d.pending[0].Blocks {
			r.Last = true
			d.pending = d.pending[1:]
			d.next = 0
			if len(d.pending) == 0 {
				d.pending = nil // let the backing array go
			}
		}
	case d.guard.Flags != 0:
		r.Unexpected = true
	}
	d.emit(r)
}

// parseGuard parses "time number flags" (tmux 3.3a writes exactly these;
// anything after them is kept in the raw fields and ignored here).
func parseGuard(b []byte) (Guard, bool) {
	f := bytes.Fields(b)
	if len(f) < 3 {
		return Guard{}, false
	}
	t, ok1 := parseUint(f[0], 1<<63-1)
	n, ok2 := parseUint(f[1], 1<<64-1)
	fl, ok3 := parseUint(f[2], 1<<64-1)
	if !(ok1 && ok2 && ok3) {
		return Guard{}, false
	}
	return Guard{Time: int64(t), Number: n, Flags: fl}, true
}

func isUnknown(e Event) bool {
	_, ok := e.(*Unknown)
	return ok
}
