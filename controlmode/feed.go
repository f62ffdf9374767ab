package controlmode

import (
	"errors"
	"strings"
)

// Feed is one pane's output as the client received it, for one consumer
// (typically the goroutine that owns the pane's vt screen).
//
// The reader appends the pane's bytes to a bounded backlog and never
// waits. The consumer waits on Ready and calls Take, which returns the
// bytes so far and, after a (re-)seed, the seed they follow. When the
// consumer's screen can no longer follow tmux (backlog overflow, %pause,
// respawn, resize, a pane that moved, a protocol anomaly) the feed drops
// the bytes and says Stale; the next Take then asks tmux for a new seed,
// which arrives in a later Update. So a slow consumer costs a re-seed,
// never a silent divergence, and a consumer that is stalled causes at most
// one seed request until it takes again.
type Feed struct {
	c     *Client
	pane  PaneID
	ready chan struct{}

	// Guarded by c.mu.
	st       feedState
	cause    string // why the feed is (or was last) stale
	again    bool   // a reason to re-seed arrived while a seed was in flight
	seed     *Seed  // a seed not yet taken
	buf      []byte // bytes after the seed (or after the last Take)
	spare    []byte // the buffer handed out by the previous Take
	window   WindowID
	width    int
	height   int
	pid      int
	paused   bool // tmux paused the pane: the re-seed must continue it
	fresh    bool // no output since the seed was installed
	splits   int  // consecutive re-seeds for a UTF-8 character split at the seed
	gone     bool
	err      error
	closed   bool
	checks   []checkpoint
	seeds    int
	overflow int
	dropped  int64
}

// checkpoint is tmux's screen at offset at of buf (see Feed.Check).
type checkpoint struct {
	at   int
	seed *Seed
}

// maxSplitReseeds bounds back-to-back re-seeds for a UTF-8 character
// split at the seed (a pane printing binary junk would otherwise keep the
// feed re-seeding).
const maxSplitReseeds = 3

type feedState int

const (
	feedSeeding feedState = iota // a seed is in flight; output is dropped
	feedLive                     // output is appended
	feedStale                    // output is dropped; Take asks for a seed
)

// Update is what Take returns.
type Update struct {
	// Seed, when set, replaces the consumer's screen; Data follows it.
	Seed *Seed
	// Data is the pane's bytes, in order, since the Seed or the previous
	// Take. It is valid until the next Take.
	Data []byte
	// Stale: the screen the consumer holds no longer follows tmux; a seed
	// is on its way. Cause says why.
	Stale bool
	Cause string
	// Check, when set, is tmux's view of the pane at the end of Data,
	// requested by Feed.Check: a screen that applied Data must equal it
	// (see CompareSeed). Take stops at a check; the bytes after it come in
	// the next Update.
	Check *Seed
	// Gone: the pane no longer exists, or the connection ended (Err says
	// which). No more updates come.
	Gone bool
	Err  error
}

// Follow starts following pane: it asks tmux for a seed at once and
// returns the pane's feed. Following a pane twice returns the same feed.
func (c *Client) Follow(pane PaneID) (*Feed, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || c.ended {
		return nil, ErrClosed
	}
	if f := c.feeds[pane]; f != nil {
		return f, nil
	}
	f := &Feed{c: c, pane: pane, ready: make(chan struct{}, 1), window: NoWindow, cause: "start"}
	c.feeds[pane] = f
	if err := c.requestSeed(f); err != nil {
		delete(c.feeds, pane)
		return nil, err
	}
	return f, nil
}

// Pane is the pane this feed follows.
func (f *Feed) Pane() PaneID { return f.pane }

// Ready receives a value when Take has something new.
func (f *Feed) Ready() <-chan struct{} { return f.ready }

// Take returns everything since the previous Take. If the feed is stale
// and no seed is in flight, it asks tmux for one.
func (f *Feed) Take() Update {
	c := f.c
	c.mu.Lock()
	defer c.mu.Unlock()
	u := Update{Seed: f.seed, Gone: f.gone, Err: f.err}
	f.seed = nil
	switch {
	case len(f.checks) > 0:
		ck := f.checks[0]
		f.checks = f.checks[1:]
		u.Check, u.Data = ck.seed, f.buf[:ck.at:ck.at]
		f.spare = append(f.spare[:0], f.buf[ck.at:]...)
		f.buf, f.spare = f.spare, f.buf
		for i := range f.checks {
			f.checks[i].at -= ck.at
		}
		if len(f.buf) > 0 || len(f.checks) > 0 {
			f.notify()
		}
	case len(f.buf) > 0:
		u.Data = f.buf
		f.buf, f.spare = f.spare[:0], f.buf
	}
	switch f.st {
	case feedStale:
		u.Stale, u.Cause = true, f.cause
		if !f.gone && !f.closed && !c.closing && !c.ended {
			if err := c.requestSeed(f); err != nil {
				f.setGone(err)
				u.Gone, u.Err = true, err
			}
		}
	case feedSeeding:
		u.Stale, u.Cause = true, f.cause
	}
	return u
}

// Check asks tmux for the pane's screen at this point of the stream. The
// answer comes in the Update that ends at that point (Update.Check), so
// the consumer can compare its screen with tmux's while output flows. It
// does nothing unless the feed is live.
func (f *Feed) Check() error {
	c := f.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if f.st != feedLive || f.gone || f.closed {
		return nil
	}
	cmds := seedCmds(f.pane, false)
	line, err := joinCmds(cmds)
	if err != nil {
		return err
	}
	_, err = c.sendLocked(line, cmds, func(cl *call) { c.checkDone(f, cl) })
	return err
}

func (c *Client) checkDone(f *Feed, cl *call) {
	if f.closed || f.gone || f.st != feedLive {
		return
	}
	seed, err := (*Seed)(nil), cl.err
	if err == nil {
		seed, err = parseSeed(f.pane, cl.replies)
	}
	switch {
	case errors.Is(err, ErrClosed):
		f.setGone(err)
	case isPaneGone(err):
		f.setGone(ErrPaneGone)
	case err != nil:
		c.log.Warn("controlmode: check failed", "pane", f.pane.String(), "err", err)
	default:
		f.checks = append(f.checks, checkpoint{at: len(f.buf), seed: seed})
		f.notify()
	}
}

// Resync tells the feed that the consumer's screen no longer follows tmux
// (a Check found a difference): the next Take asks for a seed.
func (f *Feed) Resync(cause string) {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	f.markStale(cause)
}

// Close stops following the pane. A seed in flight is discarded.
func (f *Feed) Close() {
	c := f.c
	c.mu.Lock()
	defer c.mu.Unlock()
	f.closed = true
	if c.feeds[f.pane] == f {
		delete(c.feeds, f.pane)
	}
}

// FeedStats are a feed's counters.
type FeedStats struct {
	Seeds     int   // seeds installed
	Overflows int   // times the backlog overflowed
	Dropped   int64 // bytes dropped while stale or seeding
}

// Stats returns the feed's counters.
func (f *Feed) Stats() FeedStats {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	return FeedStats{Seeds: f.seeds, Overflows: f.overflow, Dropped: f.dropped}
}

func (f *Feed) notify() { signal(f.ready) }

// write appends pane output (reader, under c.mu).
func (f *Feed) write(data []byte, limit int) {
	if f.st != feedLive {
		f.dropped += int64(len(data))
		return
	}
	if f.fresh && len(data) > 0 {
		f.fresh = false
		if data[0]&0xc0 == 0x80 && f.splits < maxSplitReseeds {
			// The seed fell inside a UTF-8 character: tmux holds its first
			// bytes in its parser and capture-pane -P does not report them
			// (only escape sequences), so the model cannot complete it.
			f.splits++
			f.dropped += int64(len(data))
			f.markStale("utf-8 split at seed")
			return
		}
		f.splits = 0
	}
	if len(f.buf)+len(data) > limit {
		f.overflow++
		f.dropped += int64(len(f.buf) + len(data))
		f.markStale("overflow")
		return
	}
	f.buf = append(f.buf, data...)
	f.notify()
}

// markStale drops what the consumer has not taken: it no longer follows
// tmux. With a seed in flight, that seed may predate the cause: it is
// discarded when it comes.
func (f *Feed) markStale(cause string) {
	if f.gone {
		return
	}
	f.cause = cause
	f.buf = f.buf[:0]
	f.seed = nil
	f.checks = nil
	switch f.st {
	case feedSeeding:
		f.again = true
	default:
		f.st = feedStale
	}
	f.notify()
}

func (f *Feed) setGone(err error) {
	f.gone, f.err = true, err
	f.buf = f.buf[:0]
	f.seed = nil
	f.checks = nil
	f.notify()
}

// requestSeed sends the seed line for f (under c.mu).
func (c *Client) requestSeed(f *Feed) error {
	cmds := seedCmds(f.pane, f.paused)
	line, err := joinCmds(cmds)
	if err != nil {
		return err
	}
	resumed := f.paused
	_, err = c.sendLocked(line, cmds, func(cl *call) { c.seedDone(f, cl, resumed) })
	if err != nil {
		return err
	}
	f.st, f.again = feedSeeding, false
	return nil
}

// seedDone installs a seed (reader, under c.mu). Pane output before the
// seed's first block was dropped; output after its last block follows it.
func (c *Client) seedDone(f *Feed, cl *call, resumed bool) {
	if f.closed || f.gone {
		return
	}
	replies := cl.replies
	if resumed && len(replies) > 0 && !replies[0].Failed {
		f.paused = false
		replies = replies[1:]
	}
	var seed *Seed
	err := cl.err
	if err == nil {
		seed, err = parseSeed(f.pane, replies)
	}
	switch {
	case errors.Is(err, ErrClosed):
		f.setGone(err)
		return
	case isPaneGone(err):
		f.setGone(ErrPaneGone)
		return
	case err != nil:
		c.log.Warn("controlmode: seed failed", "pane", f.pane.String(), "err", err)
		f.st, f.cause = feedStale, "seed failed"
		f.notify()
		return
	case f.again:
		f.st = feedStale
		f.notify()
		return
	}
	f.seed = seed
	f.buf = f.buf[:0]
	f.checks = nil
	f.st = feedLive
	f.fresh = true
	f.window, f.width, f.height, f.pid = seed.Window, seed.Width, seed.Height, seed.PID
	f.seeds++
	f.notify()
}

// isPaneGone recognizes tmux's "can't find pane" (and window) errors.
func isPaneGone(err error) bool {
	var ce *CommandError
	if !errors.As(err, &ce) {
		return false
	}
	return strings.Contains(ce.Body, "can't find pane") || strings.Contains(ce.Body, "can't find window")
}
