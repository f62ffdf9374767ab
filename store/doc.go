// Package store keeps akk's durable state in an embedded pebble database:
// the store's format and secret, terminals, bindings to native sessions and
// a bounded, append-only event history.
//
// Keys are "<kind>/<id>[/<sub>]" and are built only in keys.go; values are
// JSON objects with a "v" schema field (codec.go). One file per concern:
// meta.go (format version, secret), terminals.go, bindings.go, events.go,
// outbox.go (the callbacks outbox and its state machine), watches.go.
// Writes that guard a side effect pass pebble.Sync at the call site.
//
// A failure is a state, not a panic (health.go): a disk that is full,
// read-only or failing makes the store unavailable (writes refused before
// pebble, ErrUnavailable), a checksum that fails makes it corrupt
// (ErrCorrupt, naming the file); a reservation is refused before it is
// written when the file system is below Options.MinFree (space.go).
// Open reads every record once, compares the store with its synced
// high-water mark to report a WAL tail pebble dropped (mark.go), and makes
// the directory 0700 and its files 0600 (private.go). Check is akk
// doctor's read-only look at a store no daemon holds (check.go).
//
// Only one process opens a store: Open takes an exclusive lock file first
// and fails at once (ErrLocked, naming the holder's pid) when another akk
// holds it, rather than waiting.
//
// What it does not do: it knows nothing of tmux, screens or agents beyond
// the records' fields; it does not derive ids (the supervisor does, with
// the secret kept here); it keeps no caches; it does not serve other
// processes (every other command talks to the daemon).
package store
