package controlmode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/vt"
)

// Seed is a pane's screen as tmux holds it, taken by one command line so
// that no pane output falls between its parts (research §6: two separate
// writes raced 40 times out of 40). It is what a vt screen is loaded from.
type Seed struct {
	Pane   PaneID
	Window WindowID
	// Capture is capture-pane -p -e -N: Height lines, each ending "\n",
	// with SGR sequences (tmux's pen carries across line ends).
	Capture []byte
	// SavedCapture is capture-pane -a (the normal screen saved while the
	// alternate screen is on, in the same format); nil when Alt is false.
	SavedCapture     []byte
	Width, Height    int
	CursorX, CursorY int // 0-based; CursorX == Width is the pending-wrap state
	CursorVisible    bool
	Alt              bool
	// SavedX, SavedY: the cursor saved when the alternate screen was
	// entered; -1 when Alt is false.
	SavedX, SavedY int
	// ScrollTop, ScrollBottom: the scroll region, 0-based inclusive.
	ScrollTop, ScrollBottom int
	Insert, Origin, Wrap    bool
	AppCursor, AppKeypad    bool
	// Mouse reporting modes (1000, 1002, 1003, 1005, 1006).
	MouseStandard, MouseButton, MouseAll, MouseUTF8, MouseSGR bool
	// Pending is the unfinished escape sequence tmux's parser holds
	// (capture-pane -P), decoded; it must be fed to the parser after the
	// screen is loaded.
	Pending []byte
	InMode  bool // the pane shows copy or view mode (the capture is of the pane's own screen)
	PID     int  // pane_pid at the time of the seed
	Dead    bool // the pane's process has exited (remain-on-exit)
}

// seedFormat is the display-message format of a seed, one value per
// field of seedFields, space-separated (all are numbers or ids).
var seedFields = []string{
	"pane_id", "window_id", "pane_width", "pane_height", "cursor_x", "cursor_y",
	"cursor_flag", "alternate_on", "alternate_saved_x", "alternate_saved_y",
	"scroll_region_upper", "scroll_region_lower", "insert_flag", "origin_flag",
	"wrap_flag", "keypad_cursor_flag", "keypad_flag", "pane_in_mode", "pane_pid", "pane_dead",
	"mouse_standard_flag", "mouse_button_flag", "mouse_all_flag", "mouse_utf8_flag", "mouse_sgr_flag",
}

var seedFormat = func() string {
	parts := make([]string, len(seedFields))
	for i, f := range seedFields {
		parts[i] = "#{" + f + "}"
	}
	return strings.Join(parts, " ")
}()

// seedCmds is the seed line: [continue a paused pane ;] the screen, the
// saved normal screen (when the alternate one is on), the pending input,
// and cursor and modes, all in one pass of tmux's command queue.
func seedCmds(pane PaneID, resume bool) []Cmd {
	t := pane.String()
	var cmds []Cmd
	if resume {
		cmds = append(cmds, Cmd{"refresh-client", "-A", t + ":continue"})
	}
	return append(cmds,
		Cmd{"capture-pane", "-p", "-e", "-N", "-t", t},
		Cmd{"capture-pane", "-p", "-e", "-N", "-a", "-q", "-t", t},
		Cmd{"capture-pane", "-p", "-P", "-C", "-t", t},
		Cmd{"display-message", "-p", "-t", t, seedFormat},
	)
}

// Seed takes pane's screen from tmux (see Seed). A pane that does not
// exist gives an error wrapping ErrPaneGone.
func (c *Client) Seed(ctx context.Context, pane PaneID) (*Seed, error) {
	rs, err := c.Exec(ctx, seedCmds(pane, false)...)
	if err != nil {
		if isPaneGone(err) {
			return nil, fmt.Errorf("%w: %v: %w", ErrPaneGone, pane, err)
		}
		return nil, err
	}
	return parseSeed(pane, rs)
}

// parseSeed builds a Seed from the four replies of seedCmds.
func parseSeed(pane PaneID, rs []*Reply) (*Seed, error) {
	if len(rs) != 4 {
		return nil, fmt.Errorf("%w: seed of %v: %d replies, want 4", ErrProtocol, pane, len(rs))
	}
	s := &Seed{}
	if err := s.parseModes(rs[3].Body); err != nil {
		return nil, fmt.Errorf("seed of %v: %w", pane, err)
	}
	if s.Pane != pane {
		return nil, fmt.Errorf("%w: seed of %v describes %v", ErrProtocol, pane, s.Pane)
	}
	s.Capture = rs[0].Body
	if n := bytes.Count(s.Capture, []byte("\n")); n != s.Height {
		return nil, fmt.Errorf("%w: seed of %v: capture has %d lines, pane is %d high", ErrProtocol, pane, n, s.Height)
	}
	if s.Alt {
		s.SavedCapture = rs[1].Body
	}
	s.Pending = UnescapeC(bytes.TrimSuffix(rs[2].Body, []byte("\n")))
	return s, nil
}

// parseModes reads the display-message line of seedFormat.
func (s *Seed) parseModes(body []byte) error {
	f := strings.Fields(strings.TrimSuffix(string(body), "\n"))
	if len(f) != len(seedFields) {
		return fmt.Errorf("%w: modes line %q", ErrProtocol, body)
	}
	var err error
	pane, e1 := ParsePaneID(f[0])
	win, e2 := ParseWindowID(f[1])
	if err = errors.Join(e1, e2); err != nil {
		return err
	}
	n := make([]int64, len(f))
	for i := 2; i < len(f); i++ {
		if n[i], err = strconv.ParseInt(f[i], 10, 64); err != nil {
			return fmt.Errorf("%w: %s=%q", ErrProtocol, seedFields[i], f[i])
		}
	}
	saved := func(v int64) int {
		if v == 1<<32-1 { // tmux's UINT_MAX: nothing saved
			return -1
		}
		return int(v)
	}
	*s = Seed{
		Pane: pane, Window: win, Width: int(n[2]), Height: int(n[3]),
		CursorX: int(n[4]), CursorY: int(n[5]), CursorVisible: n[6] != 0, Alt: n[7] != 0,
		SavedX: saved(n[8]), SavedY: saved(n[9]), ScrollTop: int(n[10]), ScrollBottom: int(n[11]),
		Insert: n[12] != 0, Origin: n[13] != 0, Wrap: n[14] != 0, AppCursor: n[15] != 0,
		AppKeypad: n[16] != 0, InMode: n[17] != 0, PID: int(n[18]), Dead: n[19] != 0,
		MouseStandard: n[20] != 0, MouseButton: n[21] != 0, MouseAll: n[22] != 0,
		MouseUTF8: n[23] != 0, MouseSGR: n[24] != 0,
	}
	if s.Width < 1 || s.Height < 1 {
		return fmt.Errorf("%w: pane size %dx%d", ErrProtocol, s.Width, s.Height)
	}
	return nil
}

// VT converts the seed for vt.NewFromSeed. tmux 3.3a cannot report
// bracketed paste, focus events, the SGR pen, the DECSC saved cursor,
// charsets or tab stops: they start at their defaults.
func (s *Seed) VT(opts vt.Options) vt.Seed {
	return vt.Seed{
		Capture: s.Capture, Width: s.Width, Height: s.Height,
		CursorX: s.CursorX, CursorY: s.CursorY, CursorVisible: s.CursorVisible, Alt: s.Alt,
		SavedCapture: s.SavedCapture, SavedX: s.SavedX, SavedY: s.SavedY,
		ScrollTop: s.ScrollTop, ScrollBottom: s.ScrollBottom,
		Insert: s.Insert, Origin: s.Origin, Wrap: s.Wrap, AppCursor: s.AppCursor, AppKeypad: s.AppKeypad,
		MouseStandard: s.MouseStandard, MouseButton: s.MouseButton, MouseAll: s.MouseAll,
		MouseUTF8: s.MouseUTF8, MouseSGR: s.MouseSGR,
		Pending: s.Pending, Options: opts,
	}
}

// Screen builds a vt screen equal to tmux's view of the pane.
func (s *Seed) Screen(opts vt.Options) (*vt.Screen, error) {
	scr, err := vt.NewFromSeed(s.VT(opts))
	if err != nil {
		return nil, fmt.Errorf("controlmode: seed of %v: %w", s.Pane, err)
	}
	return scr, nil
}

// SeedScreen takes pane's screen from tmux and returns it as a vt screen
// (Seed, then Seed.Screen).
func (c *Client) SeedScreen(ctx context.Context, pane PaneID, opts vt.Options) (*vt.Screen, error) {
	s, err := c.Seed(ctx, pane)
	if err != nil {
		return nil, err
	}
	return s.Screen(opts)
}
