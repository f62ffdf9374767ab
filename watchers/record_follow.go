package watchers

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/fsnotify/fsnotify"
)

// StoreFollower follows the records of an agent's store: each session
// Match accepts, from the start of its log, then its new entries as they
// are committed, in order, on Evidence (as a Watcher follows line files).
// A SQLite store in WAL mode is committed into its -wal file, so a write
// under the store's directory says when to read; the store says what.
type StoreFollower struct {
	open  func(path string) (evidence.Store, error)
	db    string
	match func(record string) bool
	lg    *slog.Logger
	out   chan evidence.Event
	kick  chan struct{}
	stop  context.CancelFunc
	done  chan struct{}

	// last is each followed record's last seq handed on (owned by run).
	last  map[string]int64
	store evidence.Store
}

// storeSafety bounds how long a missed notification can delay a read.
const storeSafety = 2 * time.Second

// NewStoreFollower follows the store at db of an agent whose format keeps
// its records in one (evidence.Format.OpenStore). match says which records
// (RecordPath) are followed; it is asked again at every read.
func NewStoreFollower(agent evidence.Agent, db string, match func(record string) bool, lg *slog.Logger) (*StoreFollower, error) {
	format, ok := evidence.FormatOf(agent)
	if !ok || format.OpenStore == nil {
		return nil, fmt.Errorf("%w: %q keeps no store of records", ErrOptions, agent)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := w.Add(filepath.Dir(db)); err != nil {
		w.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &StoreFollower{open: format.OpenStore, db: db, match: match, lg: lg, out: make(chan evidence.Event, 256), kick: make(chan struct{}, 1),
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
			f.lg.Warn("store watch", "err", err)
		case <-f.kick:
		case <-safety.C:
		}
		f.read(ctx)
	}
}

// read hands on the new entries of every followed record.
func (f *StoreFollower) read(ctx context.Context) {
	if f.store == nil {
		s, err := f.open(f.db)
		if errors.Is(err, fs.ErrNotExist) {
			return // no session written yet
		}
		if err != nil {
			f.lg.Warn("record store", "err", err)
			return
		}
		f.store = s
	}
	sessions, err := f.store.Records(ctx)
	if err != nil {
		if ctx.Err() == nil {
			f.lg.Warn("store sessions", "err", err)
		}
		return
	}
	for _, id := range sessions {
		rec := evidence.RecordPath(f.db, id)
		if !f.match(rec) {
			delete(f.last, rec)
			continue
		}
		after, ok := f.last[rec]
		if !ok {
			after = -1
		}
		last, err := f.store.Events(ctx, id, after, func(ev evidence.Event) {
			select {
			case f.out <- ev:
			case <-ctx.Done():
			}
		})
		if err != nil {
			if ctx.Err() == nil {
				f.lg.Warn("store events", "session", id, "err", err)
			}
			continue
		}
		f.last[rec] = last
	}
}
