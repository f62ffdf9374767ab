package supervisor

import (
	"context"
	"fmt"
	"strconv"

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

// stateEvents compares what was recorded of a terminal with what it is
// now and returns the events that say what changed.
func stateEvents(old, now store.Terminal, isNew bool) []store.Event {
	var evs []store.Event
	if isNew {
		return []store.Event{{Type: api.EventTerminalAdded, TerminalID: now.ID, Attrs: merge(placeAttrs(now), processAttrs(now), stateAttrs(now))}}
	}
	if processAttrsChanged(old, now) {
		evs = append(evs, store.Event{Type: api.EventTerminalProcess, TerminalID: now.ID, Attrs: processAttrs(now)})
	}
	if stateChanged(old, now) {
		a := stateAttrs(now)
		a["from_screen_state"] = old.Screen
		evs = append(evs, store.Event{Type: api.EventTerminalState, TerminalID: now.ID, Attrs: a})
	}
	return evs
}

func placeAttrs(t store.Terminal) map[string]string {
	return map[string]string{"pane_id": t.Pane, "session": t.Session, "window": t.Window}
}

func processAttrs(t store.Terminal) map[string]string {
	return map[string]string{"agent": t.Agent, "version": t.Version, "replica": strconv.FormatBool(t.Replica),
		"pid": strconv.Itoa(t.PID), "command": t.Command}
}

func processAttrsChanged(a, b store.Terminal) bool {
	return a.Agent != b.Agent || a.Version != b.Version || a.Replica != b.Replica || a.PID != b.PID || a.Command != b.Command
}

func stateAttrs(t store.Terminal) map[string]string {
	m := map[string]string{"screen_state": t.Screen, "composer": t.Composer,
		"native_identity_state": t.Identity, "durable_activity_state": t.Durable, "activity_state": t.Activity}
	if t.Interact != "" {
		m["interaction_kind"], m["interaction_state"] = t.Interact, t.InterState
	}
	return m
}

func stateChanged(a, b store.Terminal) bool {
	return a.Screen != b.Screen || a.Composer != b.Composer || a.Identity != b.Identity ||
		a.Durable != b.Durable || a.Activity != b.Activity || a.Interact != b.Interact || a.InterState != b.InterState
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
