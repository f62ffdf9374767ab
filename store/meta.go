package store

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"

	"github.com/cockroachdb/pebble/v2"
)

// FormatVersion is the store layout this akk writes. A store with a higher
// format is refused, never modified.
const FormatVersion = 1

type formatRecord struct {
	V      int    `json:"v"`
	Format int    `json:"format"`
	Writer string `json:"writer"`
}

type secretRecord struct {
	V      int    `json:"v"`
	Secret []byte `json:"secret"`
}

// checkFormat writes the format record of a new store, or checks an
// existing one's.
func (s *Store) checkFormat() error {
	data, err := s.get(metaKey("format"))
	if errors.Is(err, ErrNotFound) {
		return s.initMeta()
	}
	if err != nil {
		return err
	}
	var f formatRecord
	if err := decode(data, 1, &f); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrFormat, s.dir, err)
	}
	if f.Format > FormatVersion {
		return fmt.Errorf("%w: %s has format %d (written by %q); this akk reads format %d: upgrade akk",
			ErrFormat, s.dir, f.Format, f.Writer, FormatVersion)
	}
	return nil
}

// initMeta writes the format and a fresh secret in one synced batch, so a
// store either has both or neither.
func (s *Store) initMeta() error {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return fmt.Errorf("store: secret: %w", err)
	}
	fb, err := encode(formatRecord{V: 1, Format: FormatVersion, Writer: "akk"})
	if err != nil {
		return err
	}
	sb, err := encode(secretRecord{V: 1, Secret: secret})
	if err != nil {
		return err
	}
	b := s.db.NewBatch()
	defer b.Close()
	_ = b.Set(metaKey("format"), fb, nil)
	_ = b.Set(metaKey("secret"), sb, nil)
	if err := s.commit(b, pebble.Sync); err != nil {
		return fmt.Errorf("store: init %s: %w", s.dir, err)
	}
	return nil
}

// Secret is the store's HMAC key for ids, created once with the store.
// It never leaves the daemon.
func (s *Store) Secret() ([]byte, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	data, err := s.get(metaKey("secret"))
	if err != nil {
		return nil, err
	}
	var r secretRecord
	if err := decode(data, 1, &r); err != nil {
		return nil, err
	}
	if len(r.Secret) < 16 {
		return nil, fmt.Errorf("%w: secret of %d bytes", ErrFormat, len(r.Secret))
	}
	return r.Secret, nil
}

// setFormatForTest rewrites the format record (tests of the refusal).
func (s *Store) setFormatForTest(format int) error {
	fb, err := encode(formatRecord{V: 1, Format: format, Writer: "test"})
	if err != nil {
		return err
	}
	return s.db.Set(metaKey("format"), fb, pebble.Sync)
}

// LogValue keeps the store's secret out of logs.
func (r secretRecord) LogValue() slog.Value { return slog.StringValue("secret(redacted)") }

// String is LogValue as text.
func (r secretRecord) String() string { return "secret(redacted)" }
