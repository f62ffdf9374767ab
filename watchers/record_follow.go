package watchers

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/fsnotify/fsnotify"
)

// StoreFollower follows the records of an OpenCode store: each session
// Match accepts, from the start of its log, then its new entries as they
// are committed, in order, on Evidence (as a Watcher follows line files).
// OpenCode commits into the store's -wal file, so a write under the
// store's directory says when to read; the store says what.
type StoreFollower struct {
	db    string
	match func(record string) bool
	lg    *slog.Logger
	out   chan evidence.Event
	kick  chan struct{}
	stop  context.CancelFunc
	done  chan struct{}

	// last is each followed record's last seq handed on (owned by run).
	last  map[string]int64
	store *OpenCodeDB
}

// storeSafety bounds how long a missed notification can delay a read.
const storeSafety = 2 * time.Second

// NewStoreFollower follows the store at db. match says which records
// (RecordPath) are followed; it is asked again at every read.
func NewStoreFollower(db string, match func(record string) bool, lg *slog.Logger) (*StoreFollower, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := w.Add(filepath.Dir(db)); err != nil {
		w.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &StoreFollower{db: db, match: match, lg: lg, out: make(chan evidence.Event, 256), kick: make(chan struct{}, 1),
		stop: cancel, done: make(chan struct{}), last: map[string]int64{}}
	go f.run(ctx, w)
	f.Poke()
	return f, nil
}

// Evidence is the followed records' events, in each record's order.
func (f *StoreFollower) Evidence() <-chan evidence.Event { return f.out }

// Poke asks for a read now (a record just started to be followed).
func (f *StoreFollower) Poke() {
	select {
	case f.kick <- struct{}{}:
	default:
	}
}

// Close stops following and closes Evidence.
func (f *StoreFollower) Close() error {
	f.stop()
	<-f.done
	return nil
}

func (f *StoreFollower) run(ctx context.Context, w *fsnotify.Watcher) {
	defer close(f.done)
	defer close(f.out)
	defer w.Close()
	defer func() {
		if f.store != nil {
			f.store.Close()
		}
	}()
	base := filepath.Base(f.db)
	safety := time.NewTicker(storeSafety)
	defer safety.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			// A commit writes the -wal file (or, checkpointed, the store);
			// a reader's open changes their owner (Chmod), and reading on
			// that would feed itself.
			if !strings.HasPrefix(filepath.Base(ev.Name), base) || !ev.Has(fsnotify.Write) && !ev.Has(fsnotify.Create) {
				continue
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			f.lg.Warn("opencode store watch", "err", err)
		case <-f.kick:
		case <-safety.C:
		}
		f.read(ctx)
	}
}

// read hands on the new entries of every followed record.
func (f *StoreFollower) read(ctx context.Context) {
	if f.store == nil {
		s, err := OpenOpenCodeDB(f.db)
		if errors.Is(err, fs.ErrNotExist) {
			return // no session written yet
		}
		if err != nil {
			f.lg.Warn("opencode store", "err", err)
			return
		}
		f.store = s
	}
	sessions, err := f.store.Sessions(ctx)
	if err != nil {
		if ctx.Err() == nil {
			f.lg.Warn("opencode sessions", "err", err)
		}
		return
	}
	for _, s := range sessions {
		rec := RecordPath(f.db, s.ID)
		if !f.match(rec) {
			delete(f.last, rec)
			continue
		}
		after, ok := f.last[rec]
		if !ok {
			after = -1
		}
		last, err := f.store.Events(ctx, s.ID, after, func(ev evidence.Event) {
			select {
			case f.out <- ev:
			case <-ctx.Done():
			}
		})
		if err != nil {
			if ctx.Err() == nil {
				f.lg.Warn("opencode events", "session", s.ID, "err", err)
			}
			continue
		}
		f.last[rec] = last
	}
}
