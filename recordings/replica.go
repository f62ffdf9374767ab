package recordings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"time"
)

// ErrDivergence: the replica received input other than the recording's.
var ErrDivergence = errors.New("recordings: replica diverged")

// ReplicaOptions tune a replica.
type ReplicaOptions struct {
	// Speed scales the recorded delays between output events: 1 plays
	// them as recorded, 0 as fast as possible.
	Speed float64
	// ReplyWait is how long an incomplete terminal reply may wait for its
	// end before it counts as input (0: 500 ms).
	ReplyWait time.Duration
}

// The terminal queries a recording may hold and the replies tmux sends for
// them. A reply is ignored only once its query appeared in the output.
var queryKinds = []struct {
	name         string
	query, reply *regexp.Regexp
}{
	{"CPR", regexp.MustCompile(`\x1b\[\??6n`), regexp.MustCompile(`^\x1b\[\??\d+;\d+(;\d+)?R`)},
	{"DA", regexp.MustCompile(`\x1b\[[>=]?0?c`), regexp.MustCompile(`^\x1b\[[?>=][\d;]*c`)},
	{"DECRPM", regexp.MustCompile(`\x1b\[\??\d+\$p`), regexp.MustCompile(`^\x1b\[\??\d+;\d+\$y`)},
	{"OSC 10/11", regexp.MustCompile(`\x1b\]1[01];\?(\x07|\x1b\\)`), regexp.MustCompile(`^\x1b\]1[01];[^\x07\x1b]*(\x07|\x1b\\)`)},
	// XTVERSION is not in DESIGN's list, but Claude Code asks it and
	// tmux 3.3a answers.
	{"XTVERSION", regexp.MustCompile(`\x1b\[>0?q`), regexp.MustCompile(`^\x1bP>\|[^\x1b]*\x1b\\`)},
}

// replyPrefix matches what could still become a reply.
var replyPrefix = regexp.MustCompile(`^\x1b(\[[?>=]?[\d;]*\$?|\][\d;]*[^\x07\x1b]*|P>?\|?[^\x1b]*\x1b?)?$`)

// Replica plays rec as a pane program would: it writes the recorded output
// to out (the pane's tty) and, at each recorded input, reads in until the
// bytes equal the recorded ones. Terminal replies to queries seen in the
// output so far are skipped; anything else that differs is a divergence
// (an error wrapping ErrDivergence naming the input, what came and what
// was recorded). Resizes and seeds are not played.
func Replica(ctx context.Context, rec *Recording, out io.Writer, in io.Reader, opts ReplicaOptions) error {
	if opts.ReplyWait == 0 {
		opts.ReplyWait = 500 * time.Millisecond
	}
	chunks := make(chan []byte, 16)
	go func() {
		defer close(chunks)
		for {
			b := make([]byte, 4096)
			n, err := in.Read(b)
			if n > 0 {
				chunks <- b[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	p := &replica{ctx: ctx, chunks: chunks, opts: opts, allowed: map[string]bool{}}
	last := 0.0
	nIn := 0
	for i, e := range rec.Events {
		if opts.Speed > 0 && e.Time > last {
			if !p.sleep(time.Duration((e.Time - last) / opts.Speed * float64(time.Second))) {
				return context.Cause(ctx)
			}
		}
		last = max(last, e.Time)
		switch e.Code {
		case Output, OutputRaw:
			if _, err := out.Write(e.Data); err != nil {
				return fmt.Errorf("recordings: replica: write: %w", err)
			}
			p.saw(e.Data)
		case Input:
			nIn++
			if err := p.expect(e.Data); err != nil {
				return fmt.Errorf("input %d (event %d, t=%.3fs): %w", nIn, i, e.Time, err)
			}
		}
	}
	return nil
}

type replica struct {
	ctx     context.Context
	chunks  <-chan []byte
	opts    ReplicaOptions
	pending []byte
	allowed map[string]bool
	tail    []byte // the end of the output, for queries cut across writes
}

func (p *replica) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.ctx.Done():
		return false
	}
}

// saw notes the queries in the output.
func (p *replica) saw(b []byte) {
	buf := append(p.tail, b...)
	for _, k := range queryKinds {
		if k.query.Match(buf) {
			p.allowed[k.name] = true
		}
	}
	p.tail = append([]byte(nil), buf[max(0, len(buf)-16):]...)
}

// skipReplies drops complete replies to allowed queries at the head of
// pending. It reports whether pending may be an unfinished reply.
func (p *replica) skipReplies() (partial bool) {
	for {
		dropped := false
		for _, k := range queryKinds {
			if !p.allowed[k.name] {
				continue
			}
			if loc := k.reply.FindIndex(p.pending); loc != nil {
				p.pending = p.pending[loc[1]:]
				dropped = true
			}
		}
		if !dropped {
			break
		}
	}
	return len(p.pending) > 0 && len(p.allowed) > 0 && replyPrefix.Match(p.pending)
}

// expect consumes input until want has arrived.
func (p *replica) expect(want []byte) error {
	for {
		partial := p.skipReplies()
		switch {
		case bytes.HasPrefix(p.pending, want):
			p.pending = p.pending[len(want):]
			return nil
		case len(p.pending) > 0 && !bytes.HasPrefix(want, p.pending) && !partial:
			return fmt.Errorf("%w: got %q, recorded %q", ErrDivergence, p.pending, want)
		}
		wait := time.Duration(0)
		if partial && !bytes.HasPrefix(want, p.pending) {
			wait = p.opts.ReplyWait
		}
		if err := p.read(wait); err != nil {
			if errors.Is(err, errReplyTimeout) {
				return fmt.Errorf("%w: got %q, recorded %q", ErrDivergence, p.pending, want)
			}
			return fmt.Errorf("%w (waiting for %q, have %q)", err, want, p.pending)
		}
	}
}

var errReplyTimeout = errors.New("reply timeout")

// read appends the next chunk of input to pending; with wait > 0 it gives
// up after wait.
func (p *replica) read(wait time.Duration) error {
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case b, ok := <-p.chunks:
		if !ok {
			return fmt.Errorf("recordings: replica: input closed")
		}
		p.pending = append(p.pending, b...)
		return nil
	case <-timeout:
		return errReplyTimeout
	case <-p.ctx.Done():
		return context.Cause(p.ctx)
	}
}
