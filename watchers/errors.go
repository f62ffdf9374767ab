package watchers

import "errors"

// Sentinel errors. Every error this package returns or reports in an event
// wraps one of these.
var (
	// ErrClosed: the Watcher was closed.
	ErrClosed = errors.New("watchers: closed")
	// ErrLineTooLong: a line exceeded the configured maximum; its bytes
	// were skipped up to its newline.
	ErrLineTooLong = errors.New("watchers: line too long")
	// ErrOptions: New or Threads was given options it cannot use.
	ErrOptions = errors.New("watchers: bad options")
	// ErrNotDir: Add was given something that is not a directory.
	ErrNotDir = errors.New("watchers: not a directory")
	// ErrOverflow: the kernel dropped file events; the Watcher rescanned.
	ErrOverflow = errors.New("watchers: event overflow")
	// ErrAnchor: an acceptance anchor cannot be taken or no longer holds
	// (the file ends inside a line, was replaced or truncated).
	ErrAnchor = errors.New("watchers: bad anchor")
	// ErrProc: /proc could not be read for a process.
	ErrProc = errors.New("watchers: proc")
)
