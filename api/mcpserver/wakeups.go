package mcpserver

import (
	"context"
	"encoding/json"
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
// that are not wake-ups. The monitors' own events are named by their last
// dot-separated part (interaction_required, interaction_manual_required,
// done), whatever their prefix; a managed Turn that settled (turn.state
// done, failed or cancelled) is done; and until the monitors exist, a
// terminal whose interaction becomes pending (or manual_required) is the
// interaction_required (or manual) wake-up.
func wakeKind(e api.Event) string {
	last := e.Type[strings.LastIndexByte(e.Type, '.')+1:]
	switch last {
	case WakeInteractionRequired, WakeInteractionManual, WakeDone:
		return last
	}
	if e.Type == api.EventTurnState {
		switch e.Attrs["state"] {
		case "done", "failed", "cancelled":
			return WakeDone // Fields["state"] says which
		}
		return ""
	}
	if e.Type != api.EventTerminalState && e.Type != api.EventTerminalAdded {
		return ""
	}
	switch e.Attrs["interaction_state"] {
	case "pending":
		return WakeInteractionRequired
	case "manual_required":
		return WakeInteractionManual
	}
	return ""
}

// wakeupFeed keeps the ring and decides what is news.
type wakeupFeed struct {
	mu   sync.Mutex
	ring []Wakeup
	// shown is the interaction (kind and state) a terminal's last
	// screen-derived wake-up was for: a terminal.state event that only
	// changes another axis (composer, durable activity) is no news.
	shown map[string]string
	after uint64
}

func newWakeupFeed() *wakeupFeed { return &wakeupFeed{shown: map[string]string{}} }

// add records e and returns the wake-up to announce, if it is one.
func (f *wakeupFeed) add(e api.Event) (Wakeup, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after = max(f.after, e.Seq)
	if e.Type == api.EventTerminalRemoved {
		delete(f.shown, e.TerminalID)
		return Wakeup{}, false
	}
	kind := wakeKind(e)
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
			if w.Fields == nil {
				w.Fields = map[string]string{}
			}
			w.Fields[k] = v
		}
	}
	f.ring = append(f.ring, w)
	if len(f.ring) > wakeupRing {
		f.ring = append(f.ring[:0], f.ring[len(f.ring)-wakeupRing:]...)
	}
	return w, true
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
	defer cl.Close()
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
