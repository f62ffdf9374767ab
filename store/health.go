package store

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/cockroachdb/pebble/v2"
)

// A store's health. pebble cannot go on after a failed commit or a failed
// MANIFEST sync: it calls Logger.Fatalf, on the committing goroutine or on
// its own flush and compaction goroutines. A process that panics there
// dies (or net/http recovers it and the caller reads "no reply"); one
// that returns lets pebble continue on a broken state (after a failed
// commit, DB.Apply returns nil). So a failure is a state, not a panic:
//
//	ok ──disk error, low space, pebble fatal──> unavailable  (the daemon re-executes once it can write)
//	ok ──a checksum fails at a read──────────> corrupt      (a person must look: akk doctor --store)
//
// Fatalf marks the store unavailable. On a goroutine inside a Store call
// (guard) it panics with a private value that guard turns back into
// ErrUnavailable; on any other goroutine (pebble's own) it blocks that
// goroutine forever. runtime.Goexit is not safe there: it runs pebble's
// deferred unlocks over state it left half-changed, and its callers'
// WaitGroups count a worker that did not finish. A parked goroutine may
// hold pebble's DB.mu: after the state leaves ok no Store call reaches
// pebble again (guard refuses first), and Close does not call DB.Close,
// which would wait for that goroutine; the process ends or re-executes.

// States of a store (Store.Health).
const (
	HealthOK          = "ok"
	HealthUnavailable = "unavailable" // cannot write: full, read-only, I/O errors, pebble gave up
	HealthCorrupt     = "corrupt"     // a file failed its checksum
)

// Health is a store's state and why.
type Health struct {
	State  string // HealthOK, HealthUnavailable, HealthCorrupt
	Detail string // what failed, for a person ("" when ok)
	// File is the damaged file of a corrupt store ("" when unknown).
	File string
}

// health is shared by a Store and the logger and listener it gives pebble.
type health struct {
	lg  *slog.Logger
	log *limitedLog

	state atomic.Pointer[Health] // nil: ok
	dead  chan struct{}          // closed when the state leaves ok
	once  sync.Once
	// broken: pebble itself failed (fatal, parked goroutine, recovered
	// panic); its DB must not be used or closed again.
	broken atomic.Bool

	mu     sync.Mutex
	inside map[uint64]int // goroutines in a guarded call, with depth
}

func newHealth(lg *slog.Logger) *health {
	return &health{lg: lg, log: newLimitedLog(lg), dead: make(chan struct{}), inside: map[uint64]int{}}
}

// fatalPanic is what Fatalf panics with on a guarded goroutine.
type fatalPanic struct{ err error }

// current is the state (ok when none was set).
func (h *health) current() Health {
	if p := h.state.Load(); p != nil {
		return *p
	}
	return Health{State: HealthOK}
}

// fail leaves ok (the first failure wins and is logged once).
func (h *health) fail(state, file string, cause error) {
	st := &Health{State: state, Detail: cause.Error(), File: file}
	if !h.state.CompareAndSwap(nil, st) {
		return
	}
	h.once.Do(func() { close(h.dead) })
	h.lg.Error("store: "+state, "err", cause, "file", file)
}

// err is the error a call gets while the store is not ok (nil when ok).
// A corrupt store still serves reads; only writes ask writable.
func (h *health) err() error {
	p := h.state.Load()
	if p == nil || p.State == HealthCorrupt {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnavailable, p.Detail)
}

// writable is nil when a write may reach pebble.
func (h *health) writable() error {
	p := h.state.Load()
	switch {
	case p == nil:
		return nil
	case p.State == HealthCorrupt:
		return fmt.Errorf("%w: %w: %s", ErrUnavailable, ErrCorrupt, p.Detail)
	}
	return fmt.Errorf("%w: %s", ErrUnavailable, p.Detail)
}

// guard runs fn, which calls pebble, on a goroutine marked as inside the
// store: a pebble Fatalf there panics into guard, which returns it as
// ErrUnavailable, and any other panic (a corrupt block pebble did not
// expect) becomes a state too. A store that is not ok is not called.
func (h *health) guard(fn func() error) (err error) {
	if err := h.err(); err != nil {
		return err
	}
	id := goid()
	h.mu.Lock()
	h.inside[id]++
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		if h.inside[id]--; h.inside[id] == 0 {
			delete(h.inside, id)
		}
		h.mu.Unlock()
		if r := recover(); r != nil {
			err = h.recovered(r)
		}
	}()
	return fn()
}

func (h *health) recovered(r any) error {
	h.broken.Store(true)
	if f, ok := r.(fatalPanic); ok {
		return f.err
	}
	cause := fmt.Errorf("pebble panicked: %v", r)
	if e, ok := r.(error); ok && pebble.IsCorruptionError(e) {
		h.fail(HealthCorrupt, "", e)
		return fmt.Errorf("%w: %v", ErrCorrupt, e)
	}
	h.fail(HealthUnavailable, "", cause)
	return fmt.Errorf("%w: %v", ErrUnavailable, cause)
}

func (h *health) guarded() bool {
	id := goid()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.inside[id] > 0
}

// park blocks a pebble goroutine forever (see the comment atop).
func park() {
	var never chan struct{}
	<-never
}

// goid is the calling goroutine's id, from the first line of its stack
// ("goroutine 42 [running]:").
func goid() uint64 {
	var buf [40]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

// pebbleLogger sends pebble's messages to slog, each message's repeats
// bounded (limitedLog). Fatalf never panics a pebble goroutine.
type pebbleLogger struct{ h *health }

func (l pebbleLogger) Infof(format string, args ...any) {
	l.h.lg.Debug(fmt.Sprintf(format, args...), "component", "pebble")
}

func (l pebbleLogger) Errorf(format string, args ...any) {
	l.h.log.error(format, fmt.Sprintf(format, args...))
}

func (l pebbleLogger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !strings.HasPrefix(msg, "pebble") {
		msg = "pebble: " + msg
	}
	err := fmt.Errorf("%w: %s", ErrUnavailable, msg)
	l.h.broken.Store(true)
	l.h.fail(HealthUnavailable, "", err)
	if l.h.guarded() {
		panic(fatalPanic{err})
	}
	park()
}

// listener is pebble's event listener: background errors are logged with
// a bound, a disk that fails a background write makes the store
// unavailable (and parks the goroutine: pebble retries a failed flush at
// once, forever), and a corrupt file names itself.
func (h *health) listener() *pebble.EventListener {
	return &pebble.EventListener{
		BackgroundError: func(err error) {
			h.log.error("background error", "pebble: background error: "+err.Error())
			if !diskError(err) {
				return
			}
			h.broken.Store(true)
			h.fail(HealthUnavailable, "", fmt.Errorf("pebble: background write failed: %w", err))
			if !h.guarded() {
				park()
			}
		},
		DataCorruption: func(info pebble.DataCorruptionInfo) {
			h.fail(HealthCorrupt, info.Path, fmt.Errorf("%s: %v", info.Path, info.Details))
		},
	}
}

// diskError: the file system refused a write (full, read-only, failing).
func diskError(err error) bool {
	for _, e := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EIO} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
