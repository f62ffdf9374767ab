package recordings

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/vt"
)

// Recorder records one pane's output stream from a controlmode feed into
// events, keeps a vt screen of it for drivers that wait on the screen, and
// places input and markers at exact points of the stream (Barrier).
//
// Run pumps the feed; every other method may be called from other
// goroutines.
type Recorder struct {
	feed  *controlmode.Feed
	start time.Time

	mu       sync.Mutex
	header   Header
	events   []Event
	inserts  []insert // events anchored at a point, merged by Finish
	split    OutputSplitter
	screen   *vt.Screen
	width    int
	height   int
	seeded   bool
	barriers []chan Point
	changed  chan struct{}
	err      error
}

// Point is a position in the recorded stream: the event index at which
// tmux's screen was Screen, at Time seconds.
type Point struct {
	Index  int
	Time   float64
	Screen *controlmode.Seed // tmux's view of the pane at that point
}

type insert struct {
	at int
	ev Event
}

// NewRecorder records feed under header (Width and Height are the pane's
// size at the start; the first seed must be of that size and blank, or it
// is recorded as r + s).
func NewRecorder(feed *controlmode.Feed, header Header) *Recorder {
	return &Recorder{feed: feed, header: header, start: time.Now(), changed: make(chan struct{}),
		width: header.Width, height: header.Height,
		screen: vt.New(header.Width, header.Height, vt.Options{Scrollback: -1})}
}

func (r *Recorder) now() float64 { return time.Since(r.start).Seconds() }

// Run takes the feed's updates until ctx ends or the pane is gone.
func (r *Recorder) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-r.feed.Ready():
		}
		u := r.feed.Take()
		if err := r.apply(u); err != nil {
			return err
		}
		if u.Gone {
			return nil
		}
	}
}

// apply records one update.
func (r *Recorder) apply(u controlmode.Update) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.wake()
	t := r.now()
	if u.Seed != nil {
		if err := r.seedLocked(t, u.Seed); err != nil {
			r.err = err
			return err
		}
	}
	if len(u.Data) > 0 {
		r.events = r.split.Split(r.events, t, u.Data)
		r.screen.Write(u.Data)
	}
	if u.Check != nil && len(r.barriers) > 0 {
		ch := r.barriers[0]
		r.barriers = r.barriers[1:]
		r.events = r.split.Flush(r.events, t)
		ch <- Point{Index: len(r.events), Time: t, Screen: u.Check}
	}
	if u.Gone && r.err == nil && u.Err != nil {
		r.err = fmt.Errorf("recordings: pane gone: %w", u.Err)
	}
	return nil
}

// seedLocked handles a (re-)seed: the first one of a blank pane of the
// header's size starts the recording; any other is recorded as r + s.
// Pending barriers resolve at the seed (their checks were discarded).
func (r *Recorder) seedLocked(t float64, s *controlmode.Seed) error {
	sc := ScreenFromSeed(s)
	scr, err := sc.VT(vt.Options{Scrollback: -1})
	if err != nil {
		return err
	}
	first := !r.seeded
	r.seeded = true
	blank := len(controlmode.CompareSeed(vt.New(r.width, r.height, vt.Options{}), s)) == 0
	if !(first && blank && s.Width == r.width && s.Height == r.height) {
		r.events = r.split.Flush(r.events, t)
		r.events = append(r.events,
			Event{Time: t, Code: Resize, Data: []byte(FormatSize(s.Width, s.Height))},
			Event{Time: t, Code: SeedEvent, Data: sc.Marshal()})
	}
	r.screen, r.width, r.height = scr, s.Width, s.Height
	for _, ch := range r.barriers {
		ch <- Point{Index: len(r.events), Time: t, Screen: s}
	}
	r.barriers = nil
	return nil
}

func (r *Recorder) wake() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// Barrier returns the current point of the stream: every byte tmux wrote
// for the pane before it is recorded before Point.Index, and Point.Screen
// is tmux's screen there.
func (r *Recorder) Barrier(ctx context.Context) (Point, error) {
	ch := make(chan Point, 1)
	r.mu.Lock()
	r.barriers = append(r.barriers, ch)
	r.mu.Unlock()
	if err := r.feed.Check(); err != nil {
		return Point{}, fmt.Errorf("recordings: barrier: %w", err)
	}
	select {
	case p := <-ch:
		return p, nil
	case <-ctx.Done():
		return Point{}, fmt.Errorf("recordings: barrier: %w", context.Cause(ctx))
	}
}

// Insert records an event (i or m) at point p.
func (r *Recorder) Insert(p Point, code byte, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inserts = append(r.inserts, insert{at: p.Index, ev: Event{Time: p.Time, Code: code, Data: data}})
}

// WaitScreen waits until ok holds for the recorded screen (checked after
// every update). ok runs under the recorder's lock: it must not block.
func (r *Recorder) WaitScreen(ctx context.Context, ok func(*vt.Screen) bool) error {
	for {
		r.mu.Lock()
		done, ch, err := ok(r.screen), r.changed, r.err
		r.mu.Unlock()
		if done {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// ScreenText returns the recorded screen as plain text.
func (r *Recorder) ScreenText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.screen.String()
}

// Modes returns the recorded screen's modes.
func (r *Recorder) Modes() vt.Modes {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.screen.Modes()
}

// Finish returns the recording cut at point end (nothing after it), with
// the inserted events merged in at their points.
func (r *Recorder) Finish(end Point) *Recording {
	r.mu.Lock()
	defer r.mu.Unlock()
	evs := r.events
	if end.Index < len(evs) {
		evs = evs[:end.Index]
	}
	out := &Recording{Header: r.header}
	ins := append([]insert(nil), r.inserts...)
	sort.SliceStable(ins, func(a, b int) bool { return ins[a].at < ins[b].at })
	k := 0
	for i := 0; i <= len(evs); i++ {
		for ; k < len(ins) && ins[k].at <= i; k++ {
			out.Events = append(out.Events, ins[k].ev)
		}
		if i < len(evs) {
			out.Events = append(out.Events, evs[i])
		}
	}
	return out
}
