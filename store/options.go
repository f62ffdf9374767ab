package store

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// Options configure a store. The zero value is usable after EnsureDefaults.
type Options struct {
	// Logger receives pebble's messages (nil: discarded).
	Logger *slog.Logger
	// EventLimit is how many events the history keeps; older ones are
	// deleted as new ones are appended. 0 means DefaultEventLimit.
	EventLimit int
	// CacheSize is pebble's block cache in bytes (0: DefaultCacheSize).
	// The daemon's store is small; a big cache would only cost memory.
	CacheSize int64
	// MemTableSize is pebble's memtable size in bytes (0: DefaultMemTableSize).
	MemTableSize uint64
	// Now is the clock for record times (nil: time.Now).
	Now func() time.Time
	// MinFree is the free space (bytes) the store's file system must have
	// for Open and for a reservation to be written (0: DefaultMinFree).
	MinFree uint64

	// fs replaces pebble's file system (tests inject write errors);
	// noRoomCheck lets a reservation meet a full disk in pebble's commit.
	fs          vfs.FS
	noRoomCheck bool
}

// Defaults for Options.
const (
	DefaultEventLimit   = 10000
	DefaultCacheSize    = 2 << 20
	DefaultMemTableSize = 2 << 20
	// DefaultMinFree: a few MiB, enough for a WAL rotation and a flush.
	DefaultMinFree = 4 << 20
)

// EnsureDefaults fills zero fields with their defaults and returns o (a
// nil o becomes a new Options).
func (o *Options) EnsureDefaults() *Options {
	if o == nil {
		o = &Options{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	o.EventLimit = cmp.Or(o.EventLimit, DefaultEventLimit)
	o.CacheSize = cmp.Or(o.CacheSize, DefaultCacheSize)
	o.MemTableSize = cmp.Or(o.MemTableSize, DefaultMemTableSize)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.fs == nil {
		o.fs = vfs.Default
	}
	o.MinFree = cmp.Or(o.MinFree, DefaultMinFree)
	return o
}

// Validate reports every unusable field at once.
func (o *Options) Validate() error {
	var errs []error
	if o.EventLimit < 1 {
		errs = append(errs, fmt.Errorf("%w: EventLimit %d < 1", ErrOptions, o.EventLimit))
	}
	if o.CacheSize < 0 {
		errs = append(errs, fmt.Errorf("%w: CacheSize %d < 0", ErrOptions, o.CacheSize))
	}
	if o.MemTableSize < 1<<20 {
		errs = append(errs, fmt.Errorf("%w: MemTableSize %d < 1 MiB", ErrOptions, o.MemTableSize))
	}
	return errors.Join(errs...)
}
