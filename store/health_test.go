package store

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/disktest"
	"github.com/agent-knock-knock/akk/internal/syncbuf"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/errorfs"
)

func reservation(id string) Change {
	return Change{Reservations: []Reservation{{ID: id, Op: "approve", TerminalID: "term_a", Stage: StageReserved}},
		Events: []Event{{Type: "dispatch.reserved", TerminalID: "term_a"}}}
}

// lines is a log a test counts the lines of.
type lines struct{ syncbuf.Buffer }

func (l *lines) count() int { return strings.Count(l.String(), "\n") }

// TestStoreFull: a store on a 2 MiB tmpfs. Filled, a reservation is
// refused before it is written (ErrUnavailable: the free space is below
// MinFree), and the store is unavailable; a reservation whose own commit
// fails (the free space check off: pebble's WAL write meets ENOSPC, and pebble calls
// Fatalf) is ErrUnavailable too, without a panic, and Close does not
// wait on the pebble that gave up. Freed, the probe passes and a new
// open writes again. The log stays bounded.
func TestStoreFull(t *testing.T) {
	mnt := disktest.Tmpfs(t, "size=2m")
	for _, tc := range []struct {
		name    string
		minFree uint64
		wantErr error
	}{
		{"below MinFree", 256 << 10, ErrNoSpace},
		{"commit fails", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(mnt, strings.ReplaceAll(tc.name, " ", "_"))
			var log lines
			lg := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
			opts := &Options{Logger: lg, MinFree: 256 << 10, noRoomCheck: tc.minFree == 0}
			s, err := Open(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Apply(reservation("rcpt_1")); err != nil {
				t.Fatal(err)
			}
			free := disktest.Fill(t, mnt)
			var applyErr error
			for i := 2; i < 2000 && applyErr == nil; i++ { // the WAL's block may take a few
				_, applyErr = s.Apply(reservation(fmt.Sprintf("rcpt_%d", i)))
			}
			if !errors.Is(applyErr, ErrUnavailable) || (tc.wantErr != nil && !errors.Is(applyErr, tc.wantErr)) {
				t.Fatalf("apply on a full disk: %v, want ErrUnavailable %v", applyErr, tc.wantErr)
			}
			if h := s.Health(); h.State != HealthUnavailable {
				t.Fatalf("health %+v", h)
			}
			select {
			case <-s.Dead():
			default:
				t.Fatal("Dead not closed")
			}
			if _, err := s.Terminals(); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("read of an unavailable store: %v", err)
			}
			if err := Writable(dir, opts.MinFree); err == nil {
				t.Fatal("Writable on a full disk")
			}
			closed := make(chan error, 1)
			go func() { closed <- s.Close() }()
			select {
			case <-closed:
			case <-time.After(5 * time.Second):
				t.Fatal("Close waited on a failed pebble")
			}
			free()
			if err := Writable(dir, opts.MinFree); err != nil {
				t.Fatalf("Writable after freeing: %v", err)
			}
			if tc.minFree > 0 { // pebble did not fail: the same process reopens
				s2, err := Open(dir, opts)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s2.Apply(reservation("rcpt_after")); err != nil {
					t.Fatal(err)
				}
				s2.Close()
			}
			if n := log.count(); n > 40 {
				t.Fatalf("%d log lines:\n%s", n, log.String())
			}
			t.Logf("%d log lines; refusal: %v", log.count(), applyErr)
		})
	}
}

// TestOpenFullOrReadOnly: Open refuses a full file system and a read-only
// one at once, with one line that says which.
func TestOpenFullOrReadOnly(t *testing.T) {
	mnt := disktest.Tmpfs(t, "size=1m")
	free := disktest.Fill(t, mnt)
	_, err := Open(filepath.Join(mnt, "full"), nil)
	if !errors.Is(err, ErrNoSpace) && !errors.Is(err, ErrUnavailable) {
		t.Fatalf("full: %v", err)
	}
	t.Logf("full: %v", err)
	free()
	ro := disktest.Tmpfs(t, "size=1m,ro")
	_, err = Open(ro, nil)
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Fatalf("read-only: %v", err)
	}
	t.Logf("read-only: %v", err)
}

// TestCommitFailureIsAState: a WAL write that fails (errorfs) makes
// pebble call Fatalf inside the commit; the Apply returns ErrUnavailable
// (no panic), later calls are refused before pebble, and Close returns.
func TestCommitFailureIsAState(t *testing.T) {
	var on atomic.Bool
	inj := errorfs.InjectorFunc(func(op errorfs.Op) error {
		if on.Load() && op.Kind.ReadOrWrite() == errorfs.OpIsWrite && strings.HasSuffix(op.Path, ".log") {
			return fmt.Errorf("injected: %w", syscall.ENOSPC)
		}
		return nil
	})
	var log lines
	opts := &Options{Logger: slog.New(slog.NewTextHandler(&log, nil)), fs: errorfs.Wrap(vfs.Default, inj)}
	s, err := Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(reservation("rcpt_1")); err != nil {
		t.Fatal(err)
	}
	on.Store(true)
	_, err = s.Apply(reservation("rcpt_2"))
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("apply with a failing WAL: %v", err)
	}
	if _, err := s.Apply(reservation("rcpt_3")); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("apply after: %v", err)
	}
	if h := s.Health(); h.State != HealthUnavailable || !strings.Contains(h.Detail, "fatal commit error") {
		t.Fatalf("health %+v", h)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("refusal: %v; log:\n%s", err, log.String())
}

// TestFatalfParksPebbleGoroutine: Fatalf on a goroutine outside any store
// call (pebble's flush or compaction) neither panics nor returns: it
// marks the store unavailable and blocks there.
func TestFatalfParksPebbleGoroutine(t *testing.T) {
	s := openT(t, t.TempDir(), nil)
	returned := make(chan struct{})
	go func() {
		pebbleLogger{s.h}.Fatalf("MANIFEST sync failed: %v", syscall.ENOSPC)
		close(returned)
	}()
	<-s.Dead()
	if h := s.Health(); h.State != HealthUnavailable || !strings.Contains(h.Detail, "MANIFEST sync failed") {
		t.Fatalf("health %+v", h)
	}
	if _, err := s.Apply(reservation("rcpt_1")); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("apply: %v", err)
	}
	// The goroutine marked the store before parking: once the state is
	// set, it is at (or past) the park. Ask the runtime where it is.
	buf := make([]byte, 1<<20)
	for !strings.Contains(string(buf[:runtime.Stack(buf, true)]), "store.park(") {
	}
	select {
	case <-returned:
		t.Fatal("Fatalf returned")
	default:
	}
}

// TestLimitedLog: a message repeated 100,000 times over 10 logEvery
// periods writes one line, then one line per period with the count of
// the period before: 10 lines.
func TestLimitedLog(t *testing.T) {
	var log lines
	l := newLimitedLog(slog.New(slog.NewTextHandler(&log, nil)))
	now := time.Unix(0, 0)
	l.now = func() time.Time { return now }
	for i := range 100000 {
		l.error("background error: %s", "pebble: background error: no space left on device")
		if i%10000 == 9999 {
			now = now.Add(logEvery)
		}
	}
	if n := log.count(); n != 10 {
		t.Fatalf("%d lines:\n%s", n, log.String())
	}
	if !strings.Contains(log.String(), "repeats_not_logged=9999") {
		t.Fatalf("no count:\n%s", log.String())
	}
}
