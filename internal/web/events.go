package web

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// hub follows the daemon's event stream once and tells every open page
// that something changed. A page learns only which terminal changed (no
// event's fields): it reads the new state through its own requests.
type hub struct {
	mu   sync.Mutex
	subs map[chan string]struct{}
}

func newHub() *hub { return &hub{subs: map[chan string]struct{}{}} }

func (h *hub) subscribe() (chan string, func()) {
	ch := make(chan string, 1)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs, ch)
		h.mu.Unlock()
	}
}

// publish tells every page that terminal id changed. A page that has a
// notice waiting gets the newer one instead: it reloads everything it
// shows on any notice, so coalescing loses nothing.
func (h *hub) publish(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- id:
		default:
			select {
			case <-ch:
			default:
			}
			select {
			case ch <- id:
			default:
			}
		}
	}
}

// follow streams the daemon's events into the hub until ctx ends,
// starting after the newest one, and reconnects after a daemon restart.
func (h *hub) follow(ctx context.Context, b Backend, lg *slog.Logger) {
	var after uint64
	if hl, err := b.Health(ctx); err == nil {
		after = hl.LastEvent
	}
	for ctx.Err() == nil {
		err := b.Events(ctx, after, func(e api.Event) error {
			after = e.Seq
			h.publish(e.TerminalID)
			return nil
		})
		if ctx.Err() != nil {
			return
		}
		lg.Warn("web: the daemon's event stream ended; reconnecting", "err", err)
		h.publish("") // pages re-read: they will show the daemon's state
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		if hl, err := b.Health(ctx); err == nil && hl.LastEvent < after {
			after = 0 // a new store: its sequence starts over
		}
	}
}

// keepalive is how often an idle event stream sends a comment, so
// proxies and phones keep the connection.
const keepalive = 20 * time.Second

// serveEvents is GET /events: Server-Sent Events, one "change" per
// notice, with the terminal's id.
func (h *hub) serveEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch, done := h.subscribe()
	defer done()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 1000\n\n")
	fl.Flush()
	tick := time.NewTicker(keepalive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case id := <-ch:
			data, _ := json.Marshal(map[string]string{"terminal_id": id})
			if _, err := fmt.Fprintf(w, "event: change\ndata: %s\n\n", data); err != nil {
				return
			}
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keepalive\n\n"); err != nil {
				return
			}
		}
		fl.Flush()
	}
}
