package watchers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/fsnotify/fsnotify"
)

// Options configure a Watcher.
type Options struct {
	// Agent picks the registered line format (Register) whose files are
	// followed and parsed.
	Agent evidence.Agent
	// Depth is how many directory levels below an added directory files
	// live in (0: directly in it). Every directory down to Depth is
	// watched, including ones created later: the format's Depth, for
	// the agent's root.
	Depth int
	// Match says which file names to follow (nil: the format's records).
	Match func(name string) bool
	// Start gives the offset to start a newly followed file at (nil: 0).
	// It must be 0 or a line boundary of that file (an End kept from an
	// earlier event for the same FileID).
	Start func(path string, st Stat) int64
	// Logger receives diagnostics (nil: discarded).
	Logger *slog.Logger
	// MaxLine and MaxRead bound one line and one read (0: defaults).
	MaxLine, MaxRead int
	// Buffer is the capacity of the Evidence channel (0: 1024).
	Buffer int

	// testPause, when set, holds the fsnotify reader until it is closed
	// (tests make the kernel queue overflow with it).
	testPause chan struct{}
}

// Watcher follows every matching file under its directories and sends the
// evidence parsed from their complete lines, in file order, on Evidence.
type Watcher struct {
	opts      Options
	newParser func() evidence.Parser // the format's
	log       *slog.Logger
	fsw       *fsnotify.Watcher
	out       chan evidence.Event
	done      chan struct{}
	wake      chan struct{}
	wg        sync.WaitGroup
	once      sync.Once
	cerr      error // Close's result

	mu       sync.Mutex // guards the fields below
	closed   bool
	roots    []string
	dirs     map[string]int // watched directory -> depth below its root
	dirty    map[string]struct{}
	removed  map[string]struct{} // paths whose file was removed or renamed away
	newDirs  map[string]int
	goneDirs []string
	rescan   error
	errs     []error
	stats    evidence.ParseStats

	// Owned by the worker goroutine.
	files   map[string]*followed
	byID    map[evidence.FileID]*followed
	buf     []byte
	scratch []evidence.Event
	stopped bool
}

// followed is one path being tailed.
type followed struct {
	path   string
	tail   *Tail
	parser evidence.Parser
}

// New starts a Watcher. It watches nothing until Add.
func New(opts Options) (*Watcher, error) {
	format, err := lineFormat(opts.Agent)
	if err != nil {
		return nil, err
	}
	if opts.Depth < 0 {
		return nil, fmt.Errorf("%w: negative depth %d", ErrOptions, opts.Depth)
	}
	if opts.Match == nil {
		opts.Match = format.Match
	}
	if opts.Buffer <= 0 {
		opts.Buffer = 1024
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watchers: new fsnotify watcher: %w", err)
	}
	w := &Watcher{opts: opts, newParser: format.NewParser, log: opts.Logger, fsw: fsw,
		out: make(chan evidence.Event, opts.Buffer), done: make(chan struct{}), wake: make(chan struct{}, 1),
		dirs: map[string]int{}, dirty: map[string]struct{}{}, removed: map[string]struct{}{}, newDirs: map[string]int{},
		files: map[string]*followed{}, byID: map[evidence.FileID]*followed{},
		buf: make([]byte, max(opts.MaxRead, DefaultMaxRead))}
	w.stats.Unknown = map[string]int64{}
	w.wg.Add(2)
	go w.read()
	go w.work()
	return w, nil
}

// Evidence is the stream of events. It is closed by Close.
func (w *Watcher) Evidence() <-chan evidence.Event { return w.out }

// Add watches dir and the directories below it down to Options.Depth, and
// follows every matching file already there from its start.
func (w *Watcher) Add(dir string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("watchers: add %s: %w", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("watchers: add %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("watchers: add %s: %w", dir, ErrNotDir)
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return ErrClosed
	}
	if !slices.Contains(w.roots, dir) {
		w.roots = append(w.roots, dir)
	}
	w.mu.Unlock()
	if err := w.watchTree(dir, 0); err != nil {
		return fmt.Errorf("watchers: add %s: %w", dir, err)
	}
	w.poke()
	return nil
}

// Close stops watching, waits for the Watcher's goroutines and closes the
// Evidence channel. It may be called more than once; every call returns
// the first one's result.
func (w *Watcher) Close() error {
	w.once.Do(func() {
		w.mu.Lock()
		w.closed = true
		w.mu.Unlock()
		close(w.done)
		if err := w.fsw.Close(); err != nil {
			w.cerr = fmt.Errorf("watchers: close fsnotify: %w", err)
		}
		w.wg.Wait()
		close(w.out)
	})
	return w.cerr
}

// Stats returns the parse counters summed over every file so far.
func (w *Watcher) Stats() evidence.ParseStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stats
	s.Unknown = maps.Clone(w.stats.Unknown)
	return s
}

// watchTree watches dir (at depth d) and every directory below it down to
// Depth, and marks every matching file in them dirty. Each directory is
// watched before it is listed, so a file created in between is seen by
// one or the other.
func (w *Watcher) watchTree(dir string, d int) error {
	if err := w.fsw.Add(dir); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	w.mu.Lock()
	w.dirs[dir] = d
	w.mu.Unlock()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir() && d < w.opts.Depth:
			if err := w.watchTree(p, d+1); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		case !e.IsDir() && w.opts.Match(e.Name()):
			w.markDirty(p)
		}
	}
	return nil
}

func (w *Watcher) markDirty(p string) {
	w.mu.Lock()
	w.dirty[p] = struct{}{}
	w.mu.Unlock()
}

func (w *Watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// read turns fsnotify events into dirty paths. It never blocks on the
// worker, so bursts coalesce in the dirty set.
func (w *Watcher) read() {
	defer w.wg.Done()
	for {
		if p := w.opts.testPause; p != nil {
			select {
			case <-p:
			case <-w.done:
				return
			}
		}
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.onEvent(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.onError(err)
		case <-w.done:
			return
		}
		w.poke()
	}
}

func (w *Watcher) onEvent(ev fsnotify.Event) {
	p := ev.Name
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.dirs[p]; ok && ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
		w.goneDirs = append(w.goneDirs, p)
		return
	}
	d, ok := w.dirs[filepath.Dir(p)]
	if !ok {
		return
	}
	if ev.Has(fsnotify.Create) && d < w.opts.Depth {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			w.newDirs[p] = d + 1
			return
		}
	}
	if w.opts.Match(filepath.Base(p)) {
		w.dirty[p] = struct{}{}
		if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
			w.removed[p] = struct{}{}
		}
	}
}

func (w *Watcher) onError(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.rescan = fmt.Errorf("%w: %w", ErrOverflow, err)
		return
	}
	w.errs = append(w.errs, fmt.Errorf("watchers: fsnotify: %w", err))
}

// work is the single goroutine that reads files and sends evidence.
func (w *Watcher) work() {
	defer w.wg.Done()
	for {
		select {
		case <-w.done:
			return
		case <-w.wake:
		}
		for w.drain() {
			if w.stopped {
				return
			}
		}
	}
}

// drain handles everything queued so far; false when there was nothing.
func (w *Watcher) drain() bool {
	w.mu.Lock()
	rescan, errs, newDirs, gone := w.rescan, w.errs, w.newDirs, w.goneDirs
	w.rescan, w.errs, w.goneDirs = nil, nil, nil
	w.newDirs = map[string]int{}
	w.mu.Unlock()
	for _, err := range errs {
		w.log.Warn("watchers: fsnotify error", "err", err)
		w.send(evidence.WatchError{Err: err})
	}
	if rescan != nil {
		w.rescanAll(rescan)
	}
	for dir, d := range newDirs {
		if err := w.watchTree(dir, d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			w.send(evidence.WatchError{Err: fmt.Errorf("watchers: %w", err)})
		}
	}
	for _, dir := range gone {
		w.forgetDir(dir)
	}
	w.mu.Lock()
	dirty := make([]string, 0, len(w.dirty))
	for p := range w.dirty {
		dirty = append(dirty, p)
	}
	removed := w.removed
	clear(w.dirty)
	w.removed = map[string]struct{}{}
	w.mu.Unlock()
	slices.Sort(dirty)
	for _, p := range dirty {
		if w.stopped {
			return false
		}
		_, gone := removed[p]
		w.sync(p, gone)
	}
	return len(errs) > 0 || rescan != nil || len(newDirs) > 0 || len(gone) > 0 || len(dirty) > 0
}

// rescanAll re-lists every root (watching directories that appeared while
// events were lost) and re-reads every followed file.
func (w *Watcher) rescanAll(why error) {
	w.log.Info("watchers: rescan", "reason", why)
	w.mu.Lock()
	roots := slices.Clone(w.roots)
	w.mu.Unlock()
	for _, r := range roots {
		if err := w.watchTree(r, 0); err != nil {
			w.send(evidence.WatchError{Err: fmt.Errorf("watchers: rescan: %w", err)})
		}
	}
	for p := range w.files {
		w.markDirty(p)
	}
	w.send(evidence.Rescanned{Where: evidence.Where{Agent: w.opts.Agent}, Err: why})
}

// forgetDir drops a removed directory (and those below it) and re-checks
// the files followed there, which reports their deletion.
func (w *Watcher) forgetDir(dir string) {
	prefix := dir + string(filepath.Separator)
	w.mu.Lock()
	for d := range w.dirs {
		if d == dir || strings.HasPrefix(d, prefix) {
			delete(w.dirs, d)
		}
	}
	w.mu.Unlock()
	for p := range w.files {
		if strings.HasPrefix(p, prefix) {
			w.markDirty(p)
		}
	}
}

// send delivers one event unless the Watcher is closing.
func (w *Watcher) send(ev evidence.Event) {
	if w.stopped {
		return
	}
	select {
	case w.out <- ev:
	case <-w.done:
		w.stopped = true
	}
}

// sync brings one path up to date: identity checks, then every complete
// line appended since the last time. removed says the path's file was
// removed or renamed away since the last sync: a file there now is
// another one even if the file system reused its inode number.
func (w *Watcher) sync(path string, removed bool) {
	f, st, err := OpenStat(path)
	if err != nil {
		w.send(evidence.WatchError{Where: evidence.Where{Agent: w.opts.Agent, Path: path}, Err: fmt.Errorf("watchers: open %s: %w", path, err)})
		return
	}
	if f != nil {
		defer f.Close()
	}
	defer w.mergeStats(path)
	fl := w.files[path]
	if fl == nil || !fl.tail.Following() {
		if !st.Exists {
			return
		}
		if moved := w.renamedTo(path, st.ID); moved != nil {
			fl = moved
		} else if fl == nil {
			fl = w.follow(path, st)
		}
	} else if !st.Exists || removed {
		if to := w.findMoved(path, fl.tail.ID()); to != "" {
			w.move(fl, to)
			w.sync(to, false)
			if st.Exists {
				w.sync(path, false) // a new file took the name
			}
			return
		}
		if st.Exists && st.ID == fl.tail.ID() {
			w.change(fl, fl.tail.Next(Stat{}).Change) // deleted, then a new file
		}
	}
	w.pump(fl, f, st)
}

// syncBudget bounds the bytes one sync reads, so a file written without
// pause cannot keep the worker from the others; it is queued again.
const syncBudget = 16 << 20

// pump runs the tail against the open file until it has read everything
// (or its budget).
func (w *Watcher) pump(fl *followed, f *os.File, st Stat) {
	read := 0
	for !w.stopped {
		if read >= syncBudget {
			w.markDirty(fl.path)
			return
		}
		step := fl.tail.Next(st)
		w.change(fl, step.Change)
		if step.ReadLen == 0 {
			return
		}
		n, err := f.ReadAt(w.buf[:step.ReadLen], step.ReadAt)
		read += n
		if err != nil && !errors.Is(err, io.EOF) {
			w.send(evidence.WatchError{Where: fl.where(w.opts.Agent), Err: fmt.Errorf("watchers: read %s: %w", fl.path, err)})
			return
		}
		w.change(fl, fl.tail.Feed(w.buf[:n], func(l Line) { w.line(fl, l) }))
		if step.ReadAt+int64(n) >= st.Size {
			if st, err = fstat(f); err != nil {
				w.send(evidence.WatchError{Where: fl.where(w.opts.Agent), Err: fmt.Errorf("watchers: stat %s: %w", fl.path, err)})
				return
			}
		}
	}
}

func (fl *followed) where(a evidence.Agent) evidence.Where {
	return evidence.Where{Agent: a, Path: fl.path, File: fl.tail.ID(), Gen: fl.tail.Gen()}
}

func (w *Watcher) follow(path string, st Stat) *followed {
	fl := &followed{path: path, tail: NewTail(w.opts.MaxLine, w.opts.MaxRead), parser: w.newParser()}
	if w.opts.Start != nil {
		if off := w.opts.Start(path, st); off > 0 {
			fl.tail.Resume(st.ID, off)
		}
	}
	w.files[path] = fl
	return fl
}

// change reports a FileEvent and keeps the identity index and the parser
// in step with the tail.
func (w *Watcher) change(fl *followed, ev *evidence.FileEvent) {
	if ev == nil {
		return
	}
	if ev.OldFile != (evidence.FileID{}) && w.byID[ev.OldFile] == fl {
		delete(w.byID, ev.OldFile)
	}
	if ev.File != (evidence.FileID{}) {
		w.byID[ev.File] = fl
	}
	if ev.Change != evidence.FileAppeared || ev.Gen > 0 {
		fl.parser.Reset()
	}
	ev.Agent, ev.Path = w.opts.Agent, fl.path
	w.send(*ev)
}

// line parses one complete line and sends its events.
func (w *Watcher) line(fl *followed, l Line) {
	at := evidence.Where{Agent: w.opts.Agent, Path: fl.path, File: fl.tail.ID(), Gen: fl.tail.Gen(), Offset: l.Offset, End: l.End()}
	if l.TooLong {
		fl.parser.Stats().Malformed++
		w.send(evidence.Malformed{Where: at, Err: fmt.Errorf("%w: %d bytes at %s:%d", ErrLineTooLong, l.Len, fl.path, l.Offset)})
		return
	}
	w.scratch = fl.parser.Parse(at, l.Data, w.scratch[:0])
	for _, ev := range w.scratch {
		w.send(ev)
	}
	clear(w.scratch)
}

// mergeStats moves the parse counters of path's parser into the totals.
func (w *Watcher) mergeStats(path string) {
	fl := w.files[path]
	if fl == nil {
		return
	}
	s := fl.parser.Stats()
	w.mu.Lock()
	w.stats.Add(s)
	w.mu.Unlock()
	s.Reset()
}

// renamedTo finds a followed file that moved to path: same identity, and
// its old path no longer names it.
func (w *Watcher) renamedTo(path string, id evidence.FileID) *followed {
	fl := w.byID[id]
	if fl == nil || fl.path == path {
		return nil
	}
	if st, err := lstat(fl.path); err == nil && st.Exists && st.ID == id {
		return nil // a second link to the same file
	}
	w.move(fl, path)
	return fl
}

// findMoved looks in path's directory for the file id under another name.
func (w *Watcher) findMoved(path string, id evidence.FileID) string {
	dir := filepath.Dir(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if p == path || !w.opts.Match(e.Name()) || w.files[p] != nil {
			continue
		}
		if st, err := lstat(p); err == nil && st.Exists && st.ID == id {
			return p
		}
	}
	return ""
}

func (w *Watcher) move(fl *followed, to string) {
	from := fl.path
	delete(w.files, from)
	fl.path = to
	w.files[to] = fl
	off := fl.tail.Offset()
	w.send(evidence.FileEvent{Change: evidence.FileRenamed, OldPath: from, OldFile: fl.tail.ID(), OldGen: fl.tail.Gen(), OldOffset: off,
		Where: evidence.Where{Agent: w.opts.Agent, Path: to, File: fl.tail.ID(), Gen: fl.tail.Gen(), Offset: off, End: off}})
}
