package store

import "errors"

// Sentinel errors. Every error this package returns wraps one of these or
// a pebble/os error with context.
var (
	// ErrNotFound: no record under that key.
	ErrNotFound = errors.New("store: not found")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("store: closed")
	// ErrLocked: another process holds the store.
	ErrLocked = errors.New("store: locked by another process")
	// ErrFormat: the store was written by a newer akk (or is not an akk
	// store); it is never modified then.
	ErrFormat = errors.New("store: unsupported format")
	// ErrSchema: a record's "v" is not one this akk reads.
	ErrSchema = errors.New("store: unsupported record schema")
	// ErrOptions: Open was given options it cannot use.
	ErrOptions = errors.New("store: bad options")
)

// ErrUnavailable: the store cannot be written (its file system is full,
// read-only or failing, or pebble gave up after a failed write). Nothing
// was written; the daemon is degraded until it can write again.
var ErrUnavailable = errors.New("store: unavailable")

// ErrCorrupt: a store file failed its checksum, or the store lost writes
// it had synced. The message names the file and what to do.
var ErrCorrupt = errors.New("store: damaged")
