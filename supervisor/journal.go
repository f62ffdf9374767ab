package supervisor

import (
	"context"
	"fmt"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// commit writes one change and wakes the event followers. Events are
// written with the records they describe, synced, before any follower can
// see them: an event a follower saw survives a crash, and a restarted
// daemon finds the state it recorded and does not emit it again.
func (s *Supervisor) commit(ch store.Change) ([]store.Event, error) {
	if ch.Empty() {
		return nil, nil
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	evs, err := s.st.Apply(ch)
	if err != nil {
		return nil, fmt.Errorf("supervisor: record: %w", err)
	}
	if len(evs) > 0 {
		s.wakeFollowers()
	}
	return evs, nil
}

func (s *Supervisor) wakeFollowers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.followers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// follow registers a follower's wake-up channel; the returned func
// removes it.
func (s *Supervisor) follow() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	s.followers[ch] = struct{}{}
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.followers, ch)
		s.mu.Unlock()
	}
}

// Events streams the history and, with follow, new events. The store is
// the only source: a follower registers first, then reads the store after
// its last seq on every wake-up, so it can neither miss an event nor see
// one twice, and a slow follower costs nothing but its own reads.
func (s *Supervisor) Events(ctx context.Context, after uint64, follow bool, emit func(api.Event) error) error {
	wake, stop := s.follow()
	defer stop()
	for {
		for {
			evs, err := s.st.Events(after, 512)
			if err != nil {
				return err
			}
			for _, e := range evs {
				if err := emit(wireEvent(e)); err != nil {
					return err
				}
				after = e.Seq
			}
			if len(evs) < 512 {
				break
			}
		}
		if !follow {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
		}
	}
}

func wireEvent(e store.Event) api.Event {
	return api.Event{Seq: e.Seq, Time: e.Time, Type: e.Type, TerminalID: e.TerminalID, Attrs: e.Attrs}
}
