package watchers

import (
	"bytes"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// The tail core follows one path's byte stream without doing any I/O. The
// shell observes the path (Stat), asks the Tail what to read (Next), reads
// exactly that range and hands the bytes back (Feed). The Tail keeps the
// offset, holds a torn last line until its newline arrives, bounds every
// read and every held line, and notices when the stream under the path is
// no longer the one it was reading: the file shrank below the offset or
// the bytes just before the offset changed (truncated), the device/inode
// changed (replaced), the path vanished (deleted). Each such change is
// reported once and starts a new generation read from offset 0; the old
// offset is never reused for the new stream.

const (
	// DefaultMaxLine bounds one line (Codex and Claude records can hold
	// large tool outputs; the original tool allowed 16 MiB).
	DefaultMaxLine = 16 << 20
	// DefaultMaxRead bounds one read.
	DefaultMaxRead = 1 << 20
	// guardLen is how many bytes before the offset are re-read and compared
	// to detect a file rewritten in place to at least its old size.
	guardLen = 16
)

// Stat is one observation of a path.
type Stat struct {
	Exists bool
	ID     evidence.FileID
	Size   int64
}

// Step is what the Tail wants done after an observation: report Change (if
// any), then read ReadLen bytes at ReadAt (none when ReadLen is 0).
type Step struct {
	Change  *evidence.FileEvent
	ReadAt  int64
	ReadLen int
}

// Line is one complete line (newline excluded). Data is valid only until
// the next Feed. A line longer than the maximum has TooLong set, Data nil
// and Len its full length.
type Line struct {
	Offset  int64
	Len     int
	Data    []byte
	TooLong bool
}

// End is the offset just past the line's newline.
func (l Line) End() int64 { return l.Offset + int64(l.Len) + 1 }

// Tail is the state of one followed path. The zero value is not ready:
// use NewTail.
type Tail struct {
	maxLine int
	maxRead int

	have bool // the path's file is known
	id   evidence.FileID
	gen  uint64
	seen bool // some file was ever seen (later ones get a new gen)

	off     int64  // bytes consumed from the stream (held bytes included)
	pend    []byte // torn line held until its newline
	pendOff int64  // offset of pend[0] (or of the over-long line)
	skip    bool   // discarding an over-long line
	guard   [guardLen]byte
	guardN  int // valid bytes in guard: the stream's bytes just before off

	resumeID  evidence.FileID
	resumeOff int64
	resume    bool
}

// NewTail returns a Tail with the given bounds (0 means the default).
func NewTail(maxLine, maxRead int) *Tail {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	if maxRead <= 0 {
		maxRead = DefaultMaxRead
	}
	if maxRead < 2*guardLen {
		maxRead = 2 * guardLen
	}
	return &Tail{maxLine: maxLine, maxRead: maxRead}
}

// Resume makes the first observation of file id start at off instead of 0.
// off must be a line boundary of that file (an End the caller kept). A
// different file, or one shorter than off, starts at 0 as usual.
func (t *Tail) Resume(id evidence.FileID, off int64) {
	t.resumeID, t.resumeOff, t.resume = id, off, true
}

// Offset is the number of bytes of the current stream handed to Feed.
func (t *Tail) Offset() int64 { return t.off }

// Gen is the current generation.
func (t *Tail) Gen() uint64 { return t.gen }

// ID is the identity of the file being followed (zero when none).
func (t *Tail) ID() evidence.FileID { return t.id }

// Following says whether the path's file is known (seen and not deleted
// since).
func (t *Tail) Following() bool { return t.have }

// Held is the number of bytes of a torn last line waiting for a newline.
func (t *Tail) Held() int {
	if t.skip {
		return int(t.off - t.pendOff)
	}
	return len(t.pend)
}

// Next takes an observation of the path and says what to do.
func (t *Tail) Next(st Stat) Step {
	var ch *evidence.FileEvent
	switch {
	case !st.Exists && !t.have:
		return Step{}
	case !st.Exists:
		ch = &evidence.FileEvent{Change: evidence.FileDeleted, OldFile: t.id, OldGen: t.gen, OldOffset: t.off,
			Dropped: t.Held(), Where: evidence.Where{Gen: t.gen}}
		t.have, t.id = false, evidence.FileID{}
		t.off, t.pendOff, t.guardN = 0, 0, 0
		t.pend, t.skip = t.pend[:0], false
		return Step{Change: ch}
	case !t.have:
		ch = t.appear(st)
	case st.ID != t.id:
		ch = t.restart(evidence.FileReplaced, st.ID, st.Size)
	case st.Size < t.off:
		ch = t.restart(evidence.FileTruncated, st.ID, st.Size)
	}
	return t.plan(st, ch)
}

func (t *Tail) appear(st Stat) *evidence.FileEvent {
	if t.seen {
		t.gen++
	}
	t.seen, t.have, t.id = true, true, st.ID
	t.off, t.pendOff, t.guardN = 0, 0, 0
	if t.resume && st.ID == t.resumeID && st.Size >= t.resumeOff {
		t.off, t.pendOff = t.resumeOff, t.resumeOff
	}
	t.resume = false
	return &evidence.FileEvent{Change: evidence.FileAppeared, Size: st.Size,
		Where: evidence.Where{File: st.ID, Gen: t.gen, Offset: t.off, End: t.off}}
}

// restart ends the current stream and begins a new generation at 0.
func (t *Tail) restart(c evidence.FileChange, id evidence.FileID, size int64) *evidence.FileEvent {
	ev := &evidence.FileEvent{Change: c, OldFile: t.id, OldGen: t.gen, OldOffset: t.off,
		Size: size, Dropped: t.Held()}
	t.gen++
	t.id = id
	t.off, t.pendOff, t.guardN = 0, 0, 0
	t.pend, t.skip = t.pend[:0], false
	ev.Where = evidence.Where{File: id, Gen: t.gen}
	return ev
}

func (t *Tail) plan(st Stat, ch *evidence.FileEvent) Step {
	s := Step{Change: ch}
	if st.Size <= t.off {
		return s
	}
	s.ReadAt = t.off - int64(t.guardN)
	n := st.Size - s.ReadAt
	if n > int64(t.maxRead) {
		n = int64(t.maxRead)
	}
	s.ReadLen = int(n)
	return s
}

// Feed takes the bytes read at the last Step's ReadAt (possibly fewer than
// asked) and calls emit for each completed line, in order. If the guard
// bytes before the offset no longer match, the stream was rewritten: Feed
// returns a truncation change, emits nothing, and the next Step reads
// from 0.
func (t *Tail) Feed(p []byte, emit func(Line)) *evidence.FileEvent {
	g := t.guardN
	if len(p) < g || !bytes.Equal(p[:g], t.guard[:g]) {
		return t.restart(evidence.FileTruncated, t.id, -1) // size unknown: a rewrite
	}
	p = p[g:]
	base := t.off
	t.off += int64(len(p))
	t.keepGuard(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.hold(p)
			return nil
		}
		t.complete(p[:i], base, emit)
		base += int64(i) + 1
		p = p[i+1:]
		t.pendOff = base
	}
	return nil
}

// complete emits the line ending with seg (seg excludes the newline).
func (t *Tail) complete(seg []byte, segOff int64, emit func(Line)) {
	switch {
	case t.skip:
		n := int(segOff + int64(len(seg)) - t.pendOff)
		emit(Line{Offset: t.pendOff, Len: n, TooLong: true})
		t.skip = false
	case len(t.pend) > 0:
		if len(t.pend)+len(seg) > t.maxLine {
			emit(Line{Offset: t.pendOff, Len: len(t.pend) + len(seg), TooLong: true})
		} else {
			t.pend = append(t.pend, seg...)
			emit(Line{Offset: t.pendOff, Len: len(t.pend), Data: t.pend})
		}
		t.pend = t.pend[:0]
	case len(seg) > t.maxLine:
		emit(Line{Offset: segOff, Len: len(seg), TooLong: true})
	default:
		emit(Line{Offset: segOff, Len: len(seg), Data: seg})
	}
}

// hold keeps a torn tail, or starts skipping when it grows past maxLine.
func (t *Tail) hold(p []byte) {
	if t.skip {
		return
	}
	if len(t.pend)+len(p) > t.maxLine {
		t.skip = true
		t.pend = t.pend[:0]
		return
	}
	t.pend = append(t.pend, p...)
}

// keepGuard remembers the last guardLen bytes of the stream before off.
func (t *Tail) keepGuard(p []byte) {
	if len(p) >= guardLen {
		t.guardN = copy(t.guard[:], p[len(p)-guardLen:])
		return
	}
	keep := guardLen - len(p)
	if keep > t.guardN {
		keep = t.guardN
	}
	copy(t.guard[:], t.guard[t.guardN-keep:t.guardN])
	copy(t.guard[keep:], p)
	t.guardN = keep + len(p)
}
