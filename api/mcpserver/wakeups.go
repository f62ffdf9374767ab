package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
)

// WakeupsURI is the resource whose updates wake the host: its content is
// the most recent wake-ups, newest last.
const WakeupsURI = "akk://wakeups"

// Wake-up kinds.
const (
	WakeInteractionRequired = "interaction_required"
	WakeInteractionManual   = "interaction_manual_required"
	WakeDone                = "done"
	// WakeHandoff: a person switched a managed Turn's conversation; the
	// Turn's status shows the decision.
	WakeHandoff = "handoff_required"
)

// wakeupRing bounds the resource: a host that wants more history asks
// status, not us.
const wakeupRing = 64

// Wakeup is one signal to the host. It carries ids and states, never
// authority: acting on it needs a fresh status (DESIGN invariant 7).
type Wakeup struct {
	Seq        uint64    `json:"seq"`
	Time       time.Time `json:"time"`
	Kind       string    `json:"kind"`
	Event      string    `json:"event"`
	TerminalID string    `json:"terminal_id,omitempty"`
	// Fields copies only the allowed attrs of the daemon event
	// (forwardAttrs): never paths, routes, commands or text.
	Fields map[string]string `json:"fields,omitempty"`
}

// WakeupsResource is the content of akk://wakeups.
type WakeupsResource struct {
	V       int      `json:"v"`
	Note    string   `json:"note"`
	Wakeups []Wakeup `json:"wakeups"`
}

const wakeupsNote = "Wake-up signals only: call agent_knock_knock_status for the subject before acting."

// forwardAttrs are the daemon event attrs a wake-up may carry.
var forwardAttrs = []string{"turn_id", "watch_id", "session_id", "notification_id", "interaction_id",
	"interaction_kind", "interaction_state", "screen_state", "activity_state", "state", "reason", "agent"}

// wakeKind classifies a daemon event: the wake-up kind, or "" for events
// that are not wake-ups. Events named by a wake-up kind as their last
// dot-separated part (interaction_required, interaction_manual_required,
// done) are that kind, whatever their prefix. A managed Turn that settled
// (turn.state done, failed or cancelled) is done; its turn.settled, which
// follows for the same end, is not a second wake-up. A Watch that ended by
// itself (watch.settled: settled, invalidated or expired) is done; one
// stopped by unwatch is not news to anybody. The daemon's monitors put
// their interaction notifications on callback routes, not in the event
// stream, so a terminal whose interaction becomes pending (or
// manual_required) is the interaction_required (or manual) wake-up.
func wakeKind(e api.Event) string {
	last := e.Type[strings.LastIndexByte(e.Type, '.')+1:]
	switch last {
	case WakeInteractionRequired, WakeInteractionManual, WakeDone:
		return last
	}
	switch e.Type {
	case api.EventTurnHandoff:
		return WakeHandoff
	case api.EventTurnState:
		switch e.Attrs["state"] {
		case "done", "failed", "cancelled":
			return WakeDone // Fields["state"] says which
		}
		return ""
	case api.EventWatchSettled:
		if e.Attrs["state"] == watchStopped {
			return ""
		}
		return WakeDone
	case api.EventTerminalState, api.EventTerminalAdded:
		switch e.Attrs["interaction_state"] {
		case "pending":
			return WakeInteractionRequired
		case "manual_required":
			return WakeInteractionManual
		}
	}
	return ""
}

// watchStopped is the state of a Watch ended by unwatch.
const watchStopped = "stopped"

// wakeupFeed keeps the ring and decides what is news.
type wakeupFeed struct {
	mu   sync.Mutex
	ring []Wakeup
	// shown is the interaction (kind and state) a terminal's last
	// screen-derived wake-up was for: a terminal.state event that only
	// changes another axis (composer, durable activity) is no news.
	shown map[string]string
	// turns and watches are the managed Turn and the Watches of each
	// terminal, from their created and end events: a terminal's
	// interaction wake-up names them, so that a host can answer by
	// turn_id (the only way to reject) without a list first.
	turns   map[string]string
	watches map[string][]string
	after   uint64
}

func newWakeupFeed() *wakeupFeed {
	return &wakeupFeed{shown: map[string]string{}, turns: map[string]string{}, watches: map[string][]string{}}
}

// track follows which Turn and Watches each terminal has.
func (f *wakeupFeed) track(e api.Event) {
	term := e.TerminalID
	switch e.Type {
	case api.EventTerminalRemoved:
		delete(f.shown, term)
		delete(f.turns, term)
		delete(f.watches, term)
	case api.EventTurnCreated:
		f.turns[term] = e.Attrs["turn_id"]
	case api.EventTurnState, api.EventTurnSettled:
		// A Turn ends with a final state, or with management closed (its
		// state stays what it was; the reason says closed).
		switch {
		case e.Type == api.EventTurnSettled, e.Attrs["reason"] == "closed",
			wakeKind(e) == WakeDone:
			if f.turns[term] == e.Attrs["turn_id"] {
				delete(f.turns, term)
			}
		}
	case api.EventWatchCreated:
		if id := e.Attrs["watch_id"]; !slices.Contains(f.watches[term], id) {
			f.watches[term] = append(f.watches[term], id)
		}
	case api.EventWatchSettled:
		f.watches[term] = slices.DeleteFunc(f.watches[term], func(id string) bool { return id == e.Attrs["watch_id"] })
		if len(f.watches[term]) == 0 {
			delete(f.watches, term)
		}
	}
}

// add records e and returns the wake-up to announce, if it is one.
func (f *wakeupFeed) add(e api.Event) (Wakeup, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after = max(f.after, e.Seq)
	kind := wakeKind(e)
	// The subjects the event ends are still named in its own wake-up.
	turn, watches := f.turns[e.TerminalID], f.watches[e.TerminalID]
	f.track(e)
	if e.Type == api.EventTerminalState || e.Type == api.EventTerminalAdded {
		key := e.Attrs["interaction_kind"] + "/" + e.Attrs["interaction_state"]
		old := f.shown[e.TerminalID]
		f.shown[e.TerminalID] = key
		if key == old {
			return Wakeup{}, false
		}
	}
	if kind == "" {
		return Wakeup{}, false
	}
	w := Wakeup{Seq: e.Seq, Time: e.Time, Kind: kind, Event: e.Type, TerminalID: e.TerminalID}
	for _, k := range forwardAttrs {
		if v, ok := e.Attrs[k]; ok {
			w.setField(k, v)
		}
	}
	if kind == WakeInteractionRequired || kind == WakeInteractionManual {
		// Only when the event did not name its subject: a monitor's own
		// event knows better than this feed's bookkeeping.
		if _, ok := e.Attrs["turn_id"]; !ok && turn != "" {
			w.setField("turn_id", turn)
		}
		if _, ok := e.Attrs["watch_id"]; !ok && len(watches) == 1 {
			w.setField("watch_id", watches[0])
		}
	}
	f.ring = append(f.ring, w)
	if len(f.ring) > wakeupRing {
		f.ring = append(f.ring[:0], f.ring[len(f.ring)-wakeupRing:]...)
	}
	return w, true
}

func (w *Wakeup) setField(k, v string) {
	if w.Fields == nil {
		w.Fields = map[string]string{}
	}
	w.Fields[k] = v
}

func (f *wakeupFeed) snapshot() WakeupsResource {
	f.mu.Lock()
	defer f.mu.Unlock()
	return WakeupsResource{V: api.SchemaVersion, Note: wakeupsNote, Wakeups: append([]Wakeup{}, f.ring...)}
}

func (f *wakeupFeed) last() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.after
}

func (s *Server) addResources() {
	s.srv.AddResource(&mcp.Resource{URI: WakeupsURI, Name: "wakeups", MIMEType: "application/json",
		Description: "The latest wake-ups (an agent needs an answer or approval, a task is done). Subscribe to be " +
			"notified; the content carries ids only. " + wakeupsNote},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			b, err := json.Marshal(s.wakeups.snapshot())
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				{URI: WakeupsURI, MIMEType: "application/json", Text: string(b)}}}, nil
		})
}

// FollowEvents follows the daemon's events until ctx ends and announces
// each wake-up: a resource update of akk://wakeups to its subscribers and
// a log message to sessions that asked for log messages. It starts after
// the daemon's latest event (history is not news) and reconnects, from
// the last event it saw, when the daemon restarts.
func (s *Server) FollowEvents(ctx context.Context) {
	cl := api.NewClient(s.opts.Socket)
	if s.opts.Client != nil {
		// Another machine's daemon: its event log through the same
		// transport (one host's: several have no common order).
		cl = s.opts.Client.As("")
	}
	defer cl.Close()
	if s.opts.Owner != "" && api.ValidOwnerName(s.opts.Owner) {
		// A named host is told of its own Turns and Watches only (the
		// daemon filters the stream by the controller's owner).
		cl.SetController("mcp:" + s.opts.Owner + api.OwnerSep + "wakeups")
	}
	first := true
	for ctx.Err() == nil {
		if first {
			if h, err := cl.Health(ctx); err == nil {
				s.wakeups.mu.Lock()
				s.wakeups.after = max(s.wakeups.after, h.LastEvent)
				s.wakeups.mu.Unlock()
				first = false
			}
		}
		if !first {
			err := cl.Events(ctx, s.wakeups.last(), true, func(e api.Event) error {
				if w, ok := s.wakeups.add(e); ok {
					s.announce(ctx, w)
				}
				return nil
			})
			if err != nil {
				s.lg.Debug("mcp: events", "err", err)
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

func (s *Server) announce(ctx context.Context, w Wakeup) {
	if err := s.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: WakeupsURI}); err != nil {
		s.lg.Debug("mcp: resource updated", "err", err)
	}
	for ss := range s.srv.Sessions() {
		//lint:ignore SA1019 logging is deprecated from protocol 2026-07-28 on; older hosts still read it.
		err := ss.Log(ctx, &mcp.LoggingMessageParams{Level: "notice", Logger: "akk", Data: w})
		if err != nil {
			s.lg.Debug("mcp: log", "err", err)
		}
	}
}
