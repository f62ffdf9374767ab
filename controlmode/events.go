package controlmode

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Event is one thing the decoder read from tmux: pane output, a command
// reply, or a notification. The concrete types are the structs below; each
// prints as one line (the format of testdata/decoder).
type Event interface {
	fmt.Stringer
	event()
}

// Guard is the three fields of a %begin/%end/%error line. tmux repeats
// them exactly on the line that ends the block.
type Guard struct {
	Time   int64  // seconds since the epoch, as the server's clock says
	Number uint64 // command number, counted across the whole server
	Flags  uint64 // 1 for commands from this control client, 0 otherwise
}

func (g Guard) String() string { return fmt.Sprintf("%d %d %d", g.Time, g.Number, g.Flags) }

// Output is %output: pane bytes, unescaped, in order. Data is raw bytes
// (not necessarily UTF-8; a rune or escape sequence may be split across
// events). From a Decoder, Data is valid until its next Feed/FeedLine.
type Output struct {
	Pane PaneID
	Data []byte
}

// ExtendedOutput is %extended-output, sent instead of %output once the
// client set pause-after: Age is how long tmux held the data.
type ExtendedOutput struct {
	Pane PaneID
	Age  time.Duration
	Data []byte
}

// Reply is one %begin ... %end/%error block. Body is every line between
// the guards, each with its "\n"; an empty block has an empty Body.
type Reply struct {
	Guard  Guard
	Body   []byte
	Failed bool // ended with %error
	// Tag, Index and Last place the block in the Expectation it answers:
	// Index is the block's position in its command line and Last is set on
	// the block that completes the line (an %error completes it early:
	// tmux skips the rest of a failed line). Blocks with flags 0 (the
	// implicit attach command, hooks) answer no expectation: Tag 0.
	Tag   uint64
	Index int
	Last  bool
	// Unexpected: a block with flags 1 that no expectation was waiting for.
	Unexpected bool
}

// Lines splits Body into lines without their "\n".
func (r *Reply) Lines() []string {
	if len(r.Body) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(r.Body), "\n"), "\n")
}

// Pause is %pause: tmux stopped sending the pane's output to this client
// and discarded what it held. The pane must be re-seeded.
type Pause struct{ Pane PaneID }

// Continue is %continue: output resumes from now (there is a gap).
type Continue struct{ Pane PaneID }

// PaneModeChanged is %pane-mode-changed (copy mode, view mode entered or
// left).
type PaneModeChanged struct{ Pane PaneID }

// WindowPaneChanged is %window-pane-changed: the window's active pane.
type WindowPaneChanged struct {
	Window WindowID
	Pane   PaneID
}

// WindowAdd is %window-add (Unlinked: %unlinked-window-add, a window not
// in the attached session).
type WindowAdd struct {
	Window   WindowID
	Unlinked bool
}

// WindowClose is %window-close or %unlinked-window-close. tmux 3.3a
// usually reports a window of the attached session closing as unlinked:
// treat both as "window gone".
type WindowClose struct {
	Window   WindowID
	Unlinked bool
}

// WindowRenamed is %window-renamed or %unlinked-window-renamed.
type WindowRenamed struct {
	Window   WindowID
	Name     string
	Unlinked bool
}

// SessionChanged is %session-changed: this client is now attached to
// Session.
type SessionChanged struct {
	Session SessionID
	Name    string
}

// ClientSessionChanged is %client-session-changed: another client moved.
type ClientSessionChanged struct {
	Client  string
	Session SessionID
	Name    string
}

// ClientDetached is %client-detached (another client).
type ClientDetached struct{ Client string }

// SessionRenamed is %session-renamed ($id and new name in 3.3a).
type SessionRenamed struct {
	Session SessionID
	Name    string
}

// SessionsChanged is %sessions-changed (a session was created or closed).
type SessionsChanged struct{}

// SessionWindowChanged is %session-window-changed: a session's current
// window.
type SessionWindowChanged struct {
	Session SessionID
	Window  WindowID
}

// LayoutChange is %layout-change; Panes is the geometry of every pane in
// VisibleLayout, falling back to Layout for panes hidden by a zoom.
type LayoutChange struct {
	Window        WindowID
	Layout        string
	VisibleLayout string
	Flags         string
	Panes         []PaneGeometry
}

// PaneGeometry is one leaf of a layout.
type PaneGeometry struct {
	Pane          PaneID
	Width, Height int
	X, Y          int
}

// SubscriptionChanged is %subscription-changed (refresh-client -B). Window,
// WindowIndex and Pane are -1 where tmux wrote "-".
type SubscriptionChanged struct {
	Name        string
	Session     SessionID
	Window      WindowID
	WindowIndex int
	Pane        PaneID
	Value       string
}

// Exit is %exit: the connection ends. Reason is empty or tmux's message
// ("detached", "too far behind", ...).
type Exit struct{ Reason string }

// Unknown is a %-line the decoder does not know (newer tmux adds
// notifications: that is not an error) or a known one it could not parse
// (Err says why).
type Unknown struct {
	Line string
	Err  string
}

// Stray is a line outside any block that is not a notification, such as
// "-: Bad file descriptor" after load-buffer - in 3.3a. It is logged and
// otherwise ignored.
type Stray struct{ Line string }

func (*Output) event()               {}
func (*ExtendedOutput) event()       {}
func (*Reply) event()                {}
func (*Pause) event()                {}
func (*Continue) event()             {}
func (*PaneModeChanged) event()      {}
func (*WindowPaneChanged) event()    {}
func (*WindowAdd) event()            {}
func (*WindowClose) event()          {}
func (*WindowRenamed) event()        {}
func (*SessionChanged) event()       {}
func (*ClientSessionChanged) event() {}
func (*ClientDetached) event()       {}
func (*SessionRenamed) event()       {}
func (*SessionsChanged) event()      {}
func (*SessionWindowChanged) event() {}
func (*LayoutChange) event()         {}
func (*SubscriptionChanged) event()  {}
func (*Exit) event()                 {}
func (*Unknown) event()              {}
func (*Stray) event()                {}

func (e *Output) String() string { return fmt.Sprintf("output %v %q", e.Pane, e.Data) }
func (e *ExtendedOutput) String() string {
	return fmt.Sprintf("extended-output %v age=%v %q", e.Pane, e.Age, e.Data)
}
func (e *Reply) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "reply %v", e.Guard)
	if e.Failed {
		b.WriteString(" error")
	} else {
		b.WriteString(" end")
	}
	fmt.Fprintf(&b, " tag=%d index=%d", e.Tag, e.Index)
	if e.Last {
		b.WriteString(" last")
	}
	if e.Unexpected {
		b.WriteString(" unexpected")
	}
	fmt.Fprintf(&b, " body=%q", e.Body)
	return b.String()
}
func (e *Pause) String() string           { return "pause " + e.Pane.String() }
func (e *Continue) String() string        { return "continue " + e.Pane.String() }
func (e *PaneModeChanged) String() string { return "pane-mode-changed " + e.Pane.String() }
func (e *WindowPaneChanged) String() string {
	return fmt.Sprintf("window-pane-changed %v %v", e.Window, e.Pane)
}
func (e *WindowAdd) String() string { return unlinked(e.Unlinked) + "window-add " + e.Window.String() }
func (e *WindowClose) String() string {
	return unlinked(e.Unlinked) + "window-close " + e.Window.String()
}
func (e *WindowRenamed) String() string {
	return fmt.Sprintf("%swindow-renamed %v %q", unlinked(e.Unlinked), e.Window, e.Name)
}
func (e *SessionChanged) String() string {
	return fmt.Sprintf("session-changed %v %q", e.Session, e.Name)
}
func (e *ClientSessionChanged) String() string {
	return fmt.Sprintf("client-session-changed %q %v %q", e.Client, e.Session, e.Name)
}
func (e *ClientDetached) String() string { return fmt.Sprintf("client-detached %q", e.Client) }
func (e *SessionRenamed) String() string {
	return fmt.Sprintf("session-renamed %v %q", e.Session, e.Name)
}
func (e *SessionsChanged) String() string { return "sessions-changed" }
func (e *SessionWindowChanged) String() string {
	return fmt.Sprintf("session-window-changed %v %v", e.Session, e.Window)
}
func (e *LayoutChange) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "layout-change %v %q %q flags=%q panes=[", e.Window, e.Layout, e.VisibleLayout, e.Flags)
	for i, p := range e.Panes {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%v:%dx%d+%d+%d", p.Pane, p.Width, p.Height, p.X, p.Y)
	}
	b.WriteByte(']')
	return b.String()
}
func (e *SubscriptionChanged) String() string {
	idx := "-"
	if e.WindowIndex >= 0 {
		idx = strconv.Itoa(e.WindowIndex)
	}
	return fmt.Sprintf("subscription-changed %q %v %v %s %v %q", e.Name, e.Session, e.Window, idx, e.Pane, e.Value)
}
func (e *Exit) String() string { return fmt.Sprintf("exit %q", e.Reason) }
func (e *Unknown) String() string {
	if e.Err != "" {
		return fmt.Sprintf("unknown %q err=%q", e.Line, e.Err)
	}
	return fmt.Sprintf("unknown %q", e.Line)
}
func (e *Stray) String() string { return fmt.Sprintf("stray %q", e.Line) }

func unlinked(u bool) string {
	if u {
		return "unlinked-"
	}
	return ""
}

// PaneRespawned is the client's own event: the pane's pid changed
// (respawn-pane, which tmux does not announce). It is noticed through a
// pane_pid subscription, which tmux polls about once a second.
type PaneRespawned struct {
	Pane           PaneID
	OldPID, NewPID int
}

// EventsLost is the client's own event: Count notifications were dropped
// because the Events reader fell behind.
type EventsLost struct{ Count int }

func (*PaneRespawned) event() {}
func (*EventsLost) event()    {}

func (e *PaneRespawned) String() string {
	return fmt.Sprintf("pane-respawned %v %d -> %d", e.Pane, e.OldPID, e.NewPID)
}
func (e *EventsLost) String() string { return fmt.Sprintf("events-lost %d", e.Count) }
