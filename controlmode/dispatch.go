package controlmode

import (
	"fmt"
)

// What the reader does with each decoded event, under the client lock:
// pane output to feeds, replies to waiting commands, notifications to
// the Events queue, and the notifications that invalidate a pane's
// screen to its feed.

// dispatch routes one decoded event (under c.mu, on the reader).
func (c *Client) dispatch(e Event) {
	switch e := e.(type) {
	case *Output:
		c.output(e.Pane, e.Data)
		return
	case *ExtendedOutput:
		c.output(e.Pane, e.Data)
		return
	case *Reply:
		c.reply(e)
		return
	case *Pause:
		if f := c.feeds[e.Pane]; f != nil {
			f.paused = true
			f.markStale("pause")
		}
	case *LayoutChange:
		c.layoutChanged(e)
	case *WindowClose:
		for _, f := range c.feeds {
			if f.window == e.Window {
				f.markStale("window closed")
			}
		}
	case *SessionChanged:
		if c.session != NoSession && c.session != e.Session {
			// Someone moved this client: output now comes for other panes.
			for _, f := range c.feeds {
				f.markStale("session changed")
			}
		}
		c.session = e.Session
	case *SubscriptionChanged:
		if e.Name == pidSubscription {
			c.panePID(e)
			return
		}
	case *Exit:
		c.exit = e
	case *Unknown:
		if e.Err == "guard outside a block" {
			// A block ended early: pane text that repeated a guard, or a
			// tmux bug. Replies may be cut; trust no screen.
			c.protoErr++
			c.log.Warn("controlmode: guard outside a block; re-seeding every pane", "line", e.Line)
			for _, f := range c.feeds {
				f.markStale("protocol")
			}
		} else {
			c.log.Debug("controlmode: unknown line", "line", e.Line, "err", e.Err)
		}
	case *Stray:
		c.log.Debug("controlmode: stray line", "line", e.Line)
	}
	c.queueEvent(e)
}

func (c *Client) output(p PaneID, data []byte) {
	f := c.feeds[p]
	if f == nil {
		c.unowned += int64(len(data))
		return
	}
	f.write(data, c.cfg.Backlog)
}

func (c *Client) reply(r *Reply) {
	if r.Tag == 0 {
		switch {
		case c.attach == nil && r.Guard.Flags == 0:
			c.attach = r
			close(c.attached)
		case r.Unexpected:
			c.protoErr++
			c.log.Warn("controlmode: reply nobody asked for", "guard", r.Guard.String(), "body", string(r.Body))
		}
		return
	}
	cl := c.calls[r.Tag]
	if cl == nil {
		return
	}
	if cl.add(r) {
		delete(c.calls, r.Tag)
		if cl.onDone != nil {
			cl.onDone(cl)
		}
		close(cl.done)
	}
}

func (c *Client) layoutChanged(e *LayoutChange) {
	present := map[PaneID]bool{}
	for _, g := range e.Panes {
		present[g.Pane] = true
		f := c.feeds[g.Pane]
		if f == nil {
			continue
		}
		if f.window != e.Window && f.st == feedLive {
			f.markStale("pane moved")
			continue
		}
		if f.st == feedLive && (g.Width != f.width || g.Height != f.height) {
			f.markStale("resize")
		}
	}
	for p, f := range c.feeds {
		if f.window == e.Window && !present[p] {
			f.markStale("pane left window")
		}
	}
}

func (c *Client) panePID(e *SubscriptionChanged) {
	var pid int
	if _, err := fmt.Sscan(e.Value, &pid); err != nil || e.Pane < 0 {
		return
	}
	// The first value tmux sends may already be the new pid: a followed
	// pane's seed also knows the pid it saw.
	old, had := c.pids[e.Pane]
	f := c.feeds[e.Pane]
	if !had && f != nil && f.pid != 0 {
		old, had = f.pid, true
	}
	c.pids[e.Pane] = pid
	if had && old != pid {
		c.queueEvent(&PaneRespawned{Pane: e.Pane, OldPID: old, NewPID: pid})
	}
	if f != nil && f.pid != 0 && f.pid != pid {
		f.markStale("respawn")
	}
}

// Events returns the notifications (everything but pane output and
// command replies, plus the client's own PaneRespawned and EventsLost),
// in order. A slow reader never stalls the client: past
// Config.EventQueue events are dropped and counted in an EventsLost. The
// channel is closed after the connection ends and the queue drains, or at
// Close.
func (c *Client) Events() <-chan Event {
	c.evOnce.Do(func() {
		c.evCh = make(chan Event)
		c.mu.Lock()
		c.evStart = true
		c.mu.Unlock()
		go c.pump()
	})
	return c.evCh
}

func (c *Client) queueEvent(e Event) {
	if len(c.events) >= c.cfg.EventQueue {
		c.lost++
		return
	}
	if c.lost > 0 {
		c.events = append(c.events, &EventsLost{Count: c.lost})
		c.lost = 0
	}
	c.events = append(c.events, e)
	signal(c.evWake)
}

func (c *Client) pump() {
	defer close(c.pumpDone)
	defer close(c.evCh)
	for {
		c.mu.Lock()
		for len(c.events) == 0 {
			ended := c.ended
			c.mu.Unlock()
			if ended {
				return
			}
			select {
			case <-c.evWake:
			case <-c.stop:
				return
			}
			c.mu.Lock()
		}
		e := c.events[0]
		c.events[0] = nil
		c.events = c.events[1:]
		c.mu.Unlock()
		select {
		case c.evCh <- e:
		case <-c.stop:
			return
		}
	}
}

// Stats are counters for diagnostics.
type Stats struct {
	UnownedBytes   int64 // output of panes nobody follows
	ProtocolErrors int   // guards outside blocks, unexpected replies
	PendingLines   int   // command lines awaiting replies
}

// Stats returns the client's counters.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{UnownedBytes: c.unowned, ProtocolErrors: c.protoErr, PendingLines: c.dec.Pending()}
}
