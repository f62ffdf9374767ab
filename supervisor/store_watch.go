package supervisor

import (
	"context"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// The daemon with a store that failed (store/health.go). pebble cannot be
// reopened in the process after a failed commit, so the daemon does not
// try: it stays up, degraded, and says so in list, status and health
// (doctor, the web page and the popup read these); every mutation is
// refused before input (a reservation cannot be written: dispatch's
// store_unavailable); the person's routes are told once. Once a probe
// write to the store's directory succeeds again (and the free space is
// back above the store's minimum) it calls Config.Restart: the real
// daemon re-executes itself, and its state comes from disk. A corrupt
// store is not retried: a person must look (akk doctor --store).
//
// While the store is ok the same loop watches the free space, so a disk
// that fills is degraded before an approve meets it.

// storeProbeEvery is how often the free space and, once unavailable, the
// way back are checked.
const storeProbeEvery = time.Second

// watchStore runs until ctx ends.
func (s *Supervisor) watchStore(ctx context.Context) error {
	tick := time.NewTicker(storeProbeEvery)
	defer tick.Stop()
	for s.st.Health().State == store.HealthOK {
		select {
		case <-ctx.Done():
			return nil
		case <-s.st.Dead():
		case <-tick.C:
			if free, err := store.FreeBytes(s.st.Dir()); err == nil && free < s.st.MinFree() {
				s.st.MarkUnavailable(store.Writable(s.st.Dir(), s.st.MinFree()))
			}
		}
	}
	h := s.st.Health()
	s.lg.Error("store "+h.State+": the daemon is degraded; every action is refused before input", "store", s.st.Dir(), "detail", h.Detail)
	s.tellDegraded(ctx)
	if h.State != store.HealthUnavailable {
		<-ctx.Done()
		return nil
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if err := store.Writable(s.st.Dir(), s.st.MinFree()); err != nil {
			continue
		}
		if s.cfg.Restart == nil {
			s.lg.Error("store writable again; restart akk attach to use it", "store", s.st.Dir())
			<-ctx.Done()
			return nil
		}
		s.lg.Warn("store writable again: the daemon restarts", "store", s.st.Dir())
		if err := s.cfg.Restart(); err != nil {
			s.lg.Error("restart", "err", err)
			<-ctx.Done()
		}
		return nil
	}
}

// tellDegraded tells the person's routes once.
func (s *Supervisor) tellDegraded(ctx context.Context) {
	d := s.degraded()
	if d == nil {
		return
	}
	terminal := ""
	for _, m := range s.monitors() {
		if t, ok := m.Recorded(); ok {
			terminal = t.ID
			break
		}
	}
	s.out.Tell(ctx, terminal, d.State, d.Detail)
}

// degraded says why the daemon cannot act (nil: it can).
func (s *Supervisor) degraded() *api.Degraded {
	h := s.st.Health()
	switch h.State {
	case store.HealthUnavailable:
		return &api.Degraded{State: api.DegradedStoreUnavailable, Detail: "the store " + s.st.Dir() +
			" cannot be written (" + h.Detail + "); actions are refused until it can, then akk restarts itself: free space on its disk"}
	case store.HealthCorrupt:
		file := h.File
		if file == "" {
			file = s.st.Dir()
		}
		return &api.Degraded{State: api.DegradedStoreCorrupt, Detail: "a store file is damaged (" + file + ": " + h.Detail +
			"); actions are refused: stop akk attach and run `akk doctor --store " + s.st.Dir() + "`"}
	}
	return nil
}
