package store

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// Store is an open akk store. Its methods are safe for concurrent use.
type Store struct {
	dir      string
	opts     *Options
	db       *pebble.DB
	lockFile *os.File
	h        *health // the store's state (health.go)
	lost     *Lost   // writes lost before this open (mark.go), nil when none

	// mu guards closed and the event sequence; appends hold it so that
	// sequence numbers are given out in commit order.
	mu      sync.Mutex
	closed  bool
	closing atomic.Bool // Close began
	nextSeq uint64      // the next event's sequence number
	first   uint64      // the oldest kept event's sequence number
	// lastSeq mirrors nextSeq-1 for readers that must not wait on mu (a
	// call stuck in a failed pebble holds it).
	lastSeq atomic.Uint64
}

// Open opens (creating if needed) the store in dir. It fails at once with
// ErrLocked when another process has it open, with ErrFormat when the
// store was written by a newer akk, with ErrNoSpace or ErrUnavailable
// when dir cannot take writes, and with ErrCorrupt (naming the file and
// what to do) when a file is damaged. dir is made 0700 and its files
// 0600 (private.go).
func Open(dir string, opts *Options) (*Store, error) {
	opts = opts.EnsureDefaults()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if err := privateDir(dir); err != nil {
		return nil, err
	}
	if err := Writable(dir, opts.MinFree); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, opts: opts, lockFile: lock, h: newHealth(opts.Logger)}
	if err := s.h.guard(s.open); err != nil {
		s.closeDB()
		lock.Close()
		return nil, s.openError(err)
	}
	if s.lost != nil {
		opts.Logger.Error("store: "+s.lost.String(), "store", dir)
	}
	return s, nil
}

func (s *Store) open() error {
	cache := pebble.NewCache(s.opts.CacheSize)
	defer cache.Unref()
	po := &pebble.Options{
		Cache:         cache,
		MemTableSize:  s.opts.MemTableSize,
		Logger:        pebbleLogger{s.h},
		EventListener: s.h.listener(),
		FS:            privateFS{s.opts.fs},
	}
	db, err := pebble.Open(s.dir, po)
	if err != nil {
		return fmt.Errorf("%w %s: %w", errPebbleOpen, s.dir, err)
	}
	s.db = db
	if err := s.verify(); err != nil {
		return err
	}
	if err := s.checkFormat(); err != nil {
		return err
	}
	if err := s.loadEventBounds(); err != nil {
		return err
	}
	lost, err := s.checkMark()
	s.lost = lost
	s.lastSeq.Store(s.nextSeq - 1)
	return err
}

// verify reads every record once: the store is small, and a block that
// fails its checksum is found at open, with its file named, rather than
// in the middle of an approve.
func (s *Store) verify() error {
	it, err := s.db.NewIter(nil)
	if err != nil {
		return fmt.Errorf("store: verify: %w", err)
	}
	for it.First(); it.Valid(); it.Next() {
		if _, err := it.ValueAndErr(); err != nil {
			it.Close()
			return fmt.Errorf("store: verify: %w", err)
		}
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("store: verify: %w", err)
	}
	return nil
}

// openError says what to do about a store that did not open.
func (s *Store) openError(err error) error {
	if errors.Is(err, ErrUnavailable) && !errors.Is(err, ErrCorrupt) {
		return err
	}
	damaged := errors.Is(err, errPebbleOpen) || errors.Is(err, ErrCorrupt) || pebble.IsCorruptionError(err)
	if hs := s.h.current(); hs.State == HealthCorrupt || damaged {
		file := hs.File
		if file == "" {
			file = damagedFile(err)
		}
		return corruptError(s.dir, file, err)
	}
	return err
}

// errPebbleOpen: pebble.Open failed on a directory that takes writes:
// its files (MANIFEST, CURRENT marker, OPTIONS, WAL) are damaged or gone.
var errPebbleOpen = errors.New("store: open")

// corruptError is a damaged store's message: the file, and what to do.
func corruptError(dir, file string, err error) error {
	where := dir
	if file != "" {
		where = file
	}
	return fmt.Errorf("%w: %s: %v; nothing was changed: `akk doctor --store %s` says what is lost; to start afresh, move %s away (the ids and the history go with it)",
		ErrCorrupt, where, firstLine(err), dir, dir)
}

// firstLine is err's message up to its first newline (pebble's errors
// carry a detail block after one).
func firstLine(err error) string {
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
}

// damagedFile finds a store file's name in a pebble error ("" if none).
func damagedFile(err error) string {
	m := fileInError.FindString(err.Error())
	if n, ok := strings.CutPrefix(m, "table "); ok {
		return n + ".sst"
	}
	return m
}

var fileInError = regexp.MustCompile(`\b\d{6}\.(sst|log|blob)\b|MANIFEST-\d+|\btable \d{6}\b`)

// closeDB closes pebble unless it failed: a pebble that gave up may have
// a goroutine parked with its lock held, and DB.Close would wait for it
// forever. The process ends (or re-executes) soon after.
func (s *Store) closeDB() error {
	if s.db == nil || s.h.broken.Load() {
		return nil
	}
	return s.db.Close()
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Close closes the store and releases its lock. It is idempotent, and it
// does not wait on a pebble that failed (closeDB).
func (s *Store) Close() error {
	if s.closing.Swap(true) {
		return nil
	}
	var err error
	if !s.h.broken.Load() {
		s.mu.Lock()
		s.closed = true
		err = s.closeDB()
		s.mu.Unlock()
	}
	if lerr := s.lockFile.Close(); err == nil && lerr != nil {
		err = fmt.Errorf("store: unlock: %w", lerr)
	}
	if err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

func (s *Store) checkOpen() error {
	if s.closed || s.closing.Load() {
		return ErrClosed
	}
	return nil
}

// lock takes mu for a call that reaches pebble, refusing at once (without
// waiting on mu) while the store is unavailable. On an error mu is not
// held.
func (s *Store) lock() error {
	if err := s.h.err(); err != nil {
		return err
	}
	s.mu.Lock()
	if err := s.checkOpen(); err != nil {
		s.mu.Unlock()
		return err
	}
	return nil
}

// Health is the store's state: ok, unavailable or corrupt (health.go).
func (s *Store) Health() Health { return s.h.current() }

// Dead is closed when the store leaves ok.
func (s *Store) Dead() <-chan struct{} { return s.h.dead }

// Lost is what the store lost before this open (nil: nothing known).
func (s *Store) Lost() *Lost { return s.lost }

// MarkUnavailable makes the store unavailable (the daemon's check of the
// free space found too little): writes are refused from now on.
func (s *Store) MarkUnavailable(cause error) { s.h.fail(HealthUnavailable, "", cause) }

// MinFree is the free space the store needs (Options.MinFree).
func (s *Store) MinFree() uint64 { return s.opts.MinFree }

// commit writes b with opts inside guard, refusing before pebble when the
// store cannot be written.
func (s *Store) commit(b *pebble.Batch, opts *pebble.WriteOptions) error {
	if err := s.h.writable(); err != nil {
		return err
	}
	return s.h.guard(func() error { return s.readError(b.Commit(opts)) })
}

// readError names the damaged file of a corruption error.
func (s *Store) readError(err error) error {
	if err == nil || !pebble.IsCorruptionError(err) {
		return err
	}
	hs := s.h.current()
	if hs.State != HealthCorrupt {
		s.h.fail(HealthCorrupt, damagedFile(err), err)
		hs = s.h.current()
	}
	return corruptError(s.dir, hs.File, err)
}

// get reads one value; a missing key is ErrNotFound.
func (s *Store) get(k []byte) (out []byte, err error) {
	err = s.h.guard(func() error {
		v, closer, err := s.db.Get(k)
		if errors.Is(err, pebble.ErrNotFound) {
			return fmt.Errorf("%w: %s", ErrNotFound, k)
		}
		if err != nil {
			return fmt.Errorf("store: get %s: %w", k, s.readError(err))
		}
		out = append([]byte(nil), v...)
		return closer.Close()
	})
	return out, err
}

// scan calls fn for every key/value of kind, in key order. The slices are
// valid only during the call.
func (s *Store) scan(kind string, fn func(k, v []byte) error) error {
	return s.h.guard(func() error { return s.readError(s.scan1(kind, fn)) })
}

func (s *Store) scan1(kind string, fn func(k, v []byte) error) error {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix(kind), UpperBound: prefixEnd(kind)})
	if err != nil {
		return fmt.Errorf("store: scan %s: %w", kind, err)
	}
	for it.First(); it.Valid(); it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			it.Close()
			return fmt.Errorf("store: scan %s: %w", kind, err)
		}
		if err := fn(it.Key(), v); err != nil {
			it.Close()
			return err
		}
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("store: scan %s: %w", kind, err)
	}
	return nil
}
