package controlmode

import "strconv"

// PaneID is a tmux pane id (%N). It is never reused within one server's
// lifetime. NoPane (-1) stands for "-" in notifications.
type PaneID int

// WindowID is a tmux window id (@N). NoWindow (-1) stands for "-".
type WindowID int

// SessionID is a tmux session id ($N). NoSession (-1) stands for "-".
type SessionID int

// The "none" values of the ids.
const (
	NoPane    PaneID    = -1
	NoWindow  WindowID  = -1
	NoSession SessionID = -1
)

func (p PaneID) String() string    { return idString('%', int(p)) }
func (w WindowID) String() string  { return idString('@', int(w)) }
func (s SessionID) String() string { return idString('$', int(s)) }

func idString(sigil byte, n int) string {
	if n < 0 {
		return "-"
	}
	return string(sigil) + strconv.Itoa(n)
}

// ParsePaneID parses "%N".
func ParsePaneID(s string) (PaneID, error) {
	n, ok := parseID([]byte(s), '%')
	if !ok {
		return NoPane, errorf("%w: pane id %q", ErrSyntax, s)
	}
	return PaneID(n), nil
}

// ParseWindowID parses "@N".
func ParseWindowID(s string) (WindowID, error) {
	n, ok := parseID([]byte(s), '@')
	if !ok {
		return NoWindow, errorf("%w: window id %q", ErrSyntax, s)
	}
	return WindowID(n), nil
}

// ParseSessionID parses "$N".
func ParseSessionID(s string) (SessionID, error) {
	n, ok := parseID([]byte(s), '$')
	if !ok {
		return NoSession, errorf("%w: session id %q", ErrSyntax, s)
	}
	return SessionID(n), nil
}

// parseID parses sigil followed by a decimal u_int; "-" gives -1.
func parseID(b []byte, sigil byte) (int, bool) {
	if len(b) == 1 && b[0] == '-' {
		return -1, true
	}
	if len(b) < 2 || b[0] != sigil {
		return 0, false
	}
	n, ok := parseUint(b[1:], 1<<32-1)
	return int(n), ok
}

// parseUint parses a non-empty run of decimal digits no larger than max.
func parseUint(b []byte, max uint64) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if n > (max-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}
