package store

import (
	"errors"
	"fmt"
	"os"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Report is what Check found in a store that no daemon holds.
type Report struct {
	Dir     string
	Records int64 // points pebble's CheckLevels counted
	LastSeq uint64
	// Lost: writes the store had synced and no longer has (mark.go).
	Lost *Lost
	// Damaged: the file that failed, when one did ("" when none known).
	Damaged string
	// Err is why the store cannot be used as it is (nil: it can).
	Err error
}

// Check opens dir read-only (nothing is written, no file is created),
// runs pebble's own consistency check (DB.CheckLevels: every table's
// blocks and checksums, keys in order across levels), reads every record,
// and compares the store with its high-water mark. It takes the store's
// lock: a running daemon holds it (ErrLocked).
func Check(dir string, opts *Options) (Report, error) {
	opts = opts.EnsureDefaults()
	r := Report{Dir: dir}
	if _, err := os.Stat(dir); err != nil {
		return r, fmt.Errorf("store: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return r, err
	}
	defer lock.Close()
	s := &Store{dir: dir, opts: opts, lockFile: lock, h: newHealth(opts.Logger)}
	r.Err = s.h.guard(func() error { return s.check(&r) })
	if s.db != nil {
		s.closeDB()
	}
	if hs := s.h.current(); hs.File != "" {
		r.Damaged = hs.File
	} else if r.Err != nil {
		r.Damaged = damagedFile(r.Err)
	}
	if r.Err != nil && (pebble.IsCorruptionError(r.Err) || s.h.current().State == HealthCorrupt) && !errors.Is(r.Err, ErrCorrupt) {
		r.Err = corruptError(dir, r.Damaged, r.Err)
	}
	return r, nil
}

func (s *Store) check(r *Report) error {
	db, err := pebble.Open(s.dir, &pebble.Options{ReadOnly: true, ErrorIfNotExists: true,
		Logger: pebbleLogger{s.h}, EventListener: s.h.listener(), FS: vfs.Default})
	if err != nil {
		return fmt.Errorf("store: open %s: %w", s.dir, err)
	}
	s.db = db
	var stats pebble.CheckLevelsStats
	if err := db.CheckLevels(&stats); err != nil {
		return fmt.Errorf("store: pebble's check: %w", err)
	}
	r.Records = stats.NumPoints
	if err := s.verify(); err != nil {
		return err
	}
	if err := s.loadEventBounds(); err != nil {
		return err
	}
	lost, err := s.checkMark()
	r.Lost, r.LastSeq = lost, s.nextSeq-1
	return err
}
