package supervisor

import (
	"context"
	"fmt"
	"strings"

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
	mine := s.ownedBy(api.ControllerFrom(ctx))
	for {
		for {
			evs, err := s.st.Events(after, 512)
			if err != nil {
				return err
			}
			for _, e := range evs {
				after = e.Seq
				if !mine(e) {
					continue
				}
				if err := emit(wireEvent(e)); err != nil {
					return err
				}
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

// ownedBy is the filter of an event stream for controller: an MCP host
// (mcp:…) is told of its own owner's Turns and Watches only (every other
// event, a terminal's included, is everyone's); a person and the CLI are
// told of all. Each subject's owner is read once per stream.
func (s *Supervisor) ownedBy(controller string) func(store.Event) bool {
	if !strings.HasPrefix(controller, "mcp:") {
		return func(store.Event) bool { return true }
	}
	owner := api.Owner(controller)
	owners := map[string]string{}
	ownerOf := func(subject string) string {
		if o, ok := owners[subject]; ok {
			return o
		}
		o := ""
		if strings.HasPrefix(subject, "turn_") {
			if t, err := s.st.Turn(subject); err == nil {
				o = t.Controller
			}
		} else if w, err := s.st.Watch(subject); err == nil {
			o = w.Controller
		}
		owners[subject] = o
		return o
	}
	return func(e store.Event) bool {
		for _, k := range []string{"turn_id", "watch_id"} {
			if id := e.Attrs[k]; id != "" && ownerOf(id) != owner {
				return false
			}
		}
		return true
	}
}

func wireEvent(e store.Event) api.Event {
	return api.Event{Seq: e.Seq, Time: e.Time, Type: e.Type, TerminalID: e.TerminalID, Attrs: e.Attrs}
}
