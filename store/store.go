package store

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// Store is an open akk store. Its methods are safe for concurrent use.
type Store struct {
	dir  string
	opts *Options
	db   *pebble.DB
	lock *os.File

	// mu guards closed and the event sequence; appends hold it so that
	// sequence numbers are given out in commit order.
	mu      sync.Mutex
	closed  bool
	nextSeq uint64 // the next event's sequence number
	first   uint64 // the oldest kept event's sequence number
}

// Open opens (creating if needed) the store in dir. It fails at once with
// ErrLocked when another process has it open, and with ErrFormat when the
// store was written by a newer akk.
func Open(dir string, opts *Options) (*Store, error) {
	opts = opts.EnsureDefaults()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create %s: %w", dir, err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, opts: opts, lock: lock}
	if err := s.open(); err != nil {
		lock.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) open() error {
	cache := pebble.NewCache(s.opts.CacheSize)
	defer cache.Unref()
	po := &pebble.Options{
		Cache:        cache,
		MemTableSize: s.opts.MemTableSize,
		Logger:       pebbleLogger{s.opts.Logger},
	}
	db, err := pebble.Open(s.dir, po)
	if err != nil {
		return fmt.Errorf("store: open %s: %w", s.dir, err)
	}
	s.db = db
	if err := s.checkFormat(); err != nil {
		db.Close()
		return err
	}
	if err := s.loadEventBounds(); err != nil {
		db.Close()
		return err
	}
	return nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Close closes the store and releases its lock. It is idempotent.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	err := s.db.Close()
	if lerr := s.lock.Close(); err == nil && lerr != nil {
		err = fmt.Errorf("store: unlock: %w", lerr)
	}
	if err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

func (s *Store) checkOpen() error {
	if s.closed {
		return ErrClosed
	}
	return nil
}

// get reads one value; a missing key is ErrNotFound.
func (s *Store) get(k []byte) ([]byte, error) {
	v, closer, err := s.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, k)
	}
	if err != nil {
		return nil, fmt.Errorf("store: get %s: %w", k, err)
	}
	out := append([]byte(nil), v...)
	closer.Close()
	return out, nil
}

// scan calls fn for every key/value of kind, in key order. The slices are
// valid only during the call.
func (s *Store) scan(kind string, fn func(k, v []byte) error) error {
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

// pebbleLogger sends pebble's messages to slog. pebble calls Fatalf only
// for invariants it cannot survive; we log and let it panic as it expects.
type pebbleLogger struct{ lg *slog.Logger }

func (l pebbleLogger) Infof(format string, args ...any) {
	l.lg.Debug(fmt.Sprintf(format, args...), "component", "pebble")
}
func (l pebbleLogger) Errorf(format string, args ...any) {
	l.lg.Error(fmt.Sprintf(format, args...), "component", "pebble")
}
func (l pebbleLogger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	l.lg.Error(msg, "component", "pebble")
	panic("store: pebble fatal: " + msg)
}
