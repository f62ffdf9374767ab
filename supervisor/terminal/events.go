package terminal

import (
	"strconv"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// RemovedEvent is the event of a terminal that is gone.
func RemovedEvent(t store.Terminal, reason string) store.Event {
	return store.Event{Type: api.EventTerminalRemoved, TerminalID: t.ID,
		Attrs: merge(placeAttrs(t), map[string]string{"reason": reason, "agent": t.Agent})}
}

// StateEvents compares what was recorded of a terminal with what it is
// now and returns the events that say what changed.
func StateEvents(old, now store.Terminal, isNew bool) []store.Event {
	var evs []store.Event
	if isNew {
		return []store.Event{{Type: api.EventTerminalAdded, TerminalID: now.ID, Attrs: merge(placeAttrs(now), processAttrs(now), stateAttrs(now))}}
	}
	if processAttrsChanged(old, now) {
		evs = append(evs, store.Event{Type: api.EventTerminalProcess, TerminalID: now.ID, Attrs: processAttrs(now)})
	}
	if stateChanged(old, now) {
		a := stateAttrs(now)
		a["from_screen_state"] = string(old.Screen)
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
	m := map[string]string{"screen_state": string(t.Screen), "composer": string(t.Composer),
		"native_identity_state": string(t.Identity), "durable_activity_state": string(t.Durable), "activity_state": string(t.Activity)}
	if t.Interact != "" {
		m["interaction_kind"], m["interaction_state"] = string(t.Interact), string(t.InterState)
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
