package vt

// mode is the set of terminal modes tmux keeps per screen (MODE_*).
type mode uint32

const (
	modeCursor            mode = 1 << iota // DECTCEM: cursor visible
	modeInsert                             // IRM
	modeAppCursor                          // DECCKM
	modeAppKeypad                          // DECKPAM
	modeWrap                               // DECAWM
	modeMouseStandard                      // 1000
	modeMouseButton                        // 1002
	modeCursorBlink                        // 12
	modeMouseUTF8                          // 1005
	modeMouseSGR                           // 1006
	modeBracketPaste                       // 2004
	modeFocus                              // 1004
	modeMouseAll                           // 1003
	modeOrigin                             // DECOM
	modeKeysExtended                       // CSI > 4 ; n m
	modeCursorVeryVisible                  // SM/RM 34 (inverted)
)

const modeAllMouse = modeMouseStandard | modeMouseButton | modeMouseAll

// Modes is the terminal mode state that matters to a person or a program
// reading the pane.
type Modes struct {
	CursorVisible  bool
	Insert         bool
	AppCursor      bool
	AppKeypad      bool
	Wrap           bool
	Origin         bool
	BracketedPaste bool
	FocusEvents    bool
	MouseStandard  bool // 1000
	MouseButton    bool // 1002
	MouseAll       bool // 1003
	MouseUTF8      bool // 1005
	MouseSGR       bool // 1006
}

// Modes returns the current modes.
func (s *Screen) Modes() Modes {
	m := s.mode
	return Modes{
		CursorVisible: m&modeCursor != 0, Insert: m&modeInsert != 0,
		AppCursor: m&modeAppCursor != 0, AppKeypad: m&modeAppKeypad != 0,
		Wrap: m&modeWrap != 0, Origin: m&modeOrigin != 0,
		BracketedPaste: m&modeBracketPaste != 0, FocusEvents: m&modeFocus != 0,
		MouseStandard: m&modeMouseStandard != 0, MouseButton: m&modeMouseButton != 0,
		MouseAll: m&modeMouseAll != 0, MouseUTF8: m&modeMouseUTF8 != 0,
		MouseSGR: m&modeMouseSGR != 0,
	}
}

// charsetState is G0/G1 designation and which one is shifted in. Only the
// DEC special graphics set is known; any other designation means ASCII.
type charsetState struct {
	g0, g1 bool // designated as DEC special graphics
	shift  bool // SO: G1 is in use
}

func (c charsetState) active() bool {
	if c.shift {
		return c.g1
	}
	return c.g0
}

// savedState is what DECSC saves (tmux's input_save_state).
type savedState struct {
	pen     pen
	charset charsetState
	cx, cy  int
	origin  bool
}

// altState is what entering the alternate screen saves: the pen always,
// the cursor only for 1049, and that cursor stays valid until a reset.
type altState struct {
	pen    pen
	cx, cy int
	valid  bool
}

func (s *Screen) saveCursor() {
	s.saved = savedState{pen: s.pen, charset: s.charset, cx: s.cx, cy: s.cy, origin: s.mode&modeOrigin != 0}
}

func (s *Screen) restoreCursor() {
	s.setPen(s.saved.pen)
	s.charset = s.saved.charset
	if s.saved.origin {
		s.mode |= modeOrigin
	} else {
		s.mode &^= modeOrigin
	}
	s.cursorMove(s.saved.cx, s.saved.cy, false)
}

// alternateOn is screen_alternate_on: the primary grid is set aside and
// the screen cleared; cursor saves the cursor position too (1049).
func (s *Screen) alternateOn(cursor bool) {
	if s.altSaved != nil {
		return
	}
	saved := make([]*line, s.h)
	for y := range saved {
		saved[y] = s.lines[y]
		s.lines[y] = s.takeLine(colorDefault)
	}
	s.altSaved, s.altLost = saved, false
	if cursor {
		s.alt.cx, s.alt.cy, s.alt.valid = s.cx, s.cy, true
	}
	s.alt.pen = s.pen
	s.markDirtyRange(0, s.h-1)
}

// alternateOff is screen_alternate_off. Even outside the alternate screen,
// 1049 restores the cursor and pen saved by the last 1049 entry.
func (s *Screen) alternateOff(cursor bool) {
	if cursor && s.alt.valid {
		s.cx, s.cy = s.alt.cx, s.alt.cy
		s.setPen(s.alt.pen)
	}
	if saved := s.altSaved; saved != nil {
		s.altSaved = nil
		if len(saved) == s.h && int(saved[0].w) == s.w && !s.altLost {
			for y := range saved {
				s.recycle(s.lines[y])
				s.lines[y] = saved[y]
			}
			s.markDirtyRange(0, s.h-1)
		} else {
			s.restoreResized(saved)
		}
	}
	s.cx = min(s.cx, s.w-1)
	s.cy = min(s.cy, s.h-1)
}

// restoreResized ends the alternate screen of a pane whose size changed
// since the normal screen was saved, or whose saved screen lost cells
// (altLost). tmux keeps the saved grid at the size it was saved at;
// leaving, it puts that grid back at that size (the cursor restored into
// it), then resizes the screen to the current size as any resize of the
// normal screen does: rows below the cursor dropped, rows pushed into or
// pulled back from the history, every row reflowed to the new width
// (screen_alternate_off, screen_resize_y, grid_reflow).
//
// The model does the same for the height and truncates or extends rows to
// the width, which is close but not tmux's result: it does not reflow, it
// may not hold the history rows tmux pulls back, and a seeded saved screen
// comes without its width and wrapped rows (seedSaved). So the screen is
// marked Diverged: its owner takes a new one from tmux.
func (s *Screen) restoreResized(saved []*line) {
	w, h := s.w, s.h
	for _, l := range s.lines {
		s.recycle(l)
	}
	s.lines, s.h = saved, len(saved)
	s.cy = min(s.cy, s.h-1)
	s.resizeHeight(h)
	for _, l := range s.lines {
		if int(l.w) != w {
			l.setWidth(w)
		}
	}
	s.rupper, s.rlower = 0, h-1
	s.markDirtyRange(0, h-1)
	s.diverged = true
}

// Diverged reports that the screen took a step it can only approximate
// and no longer equals tmux's view of the pane: the program left the
// alternate screen after the pane changed size (see restoreResized). A
// caller that needs an exact screen takes a new one from tmux (a seed).
func (s *Screen) Diverged() bool { return s.diverged }

// setModes is SM/RM: IRM and the inverted "very visible cursor" 34.
func (s *Screen) setModes(ps *params, on bool) {
	for i := 0; i < ps.n; i++ {
		switch ps.get(i, 0, -1) {
		case 4:
			s.setMode(modeInsert, on)
		case 34:
			s.setMode(modeCursorVeryVisible, !on)
		}
	}
}

func (s *Screen) setMode(m mode, on bool) {
	if on {
		s.mode |= m
	} else {
		s.mode &^= m
	}
}

// setPrivateModes is DECSET/DECRST.
func (s *Screen) setPrivateModes(ps *params, on bool) {
	for i := 0; i < ps.n; i++ {
		switch ps.get(i, 0, -1) {
		case 1:
			s.setMode(modeAppCursor, on)
		case 3: // DECCOLM: tmux only clears and homes, either way
			s.cursorMove(0, 0, true)
			s.eraseScreen(s.pen.bg)
		case 6:
			s.setMode(modeOrigin, on)
			s.cursorMove(0, 0, true)
		case 7:
			s.setMode(modeWrap, on)
		case 12:
			s.setMode(modeCursorBlink, on)
		case 25:
			s.setMode(modeCursor, on)
		case 1000:
			s.setMouse(modeMouseStandard, on)
		case 1002:
			s.setMouse(modeMouseButton, on)
		case 1003:
			s.setMouse(modeMouseAll, on)
		case 1001:
			if !on {
				s.mode &^= modeAllMouse
			}
		case 1004:
			s.setMode(modeFocus, on)
		case 1005:
			s.setMode(modeMouseUTF8, on)
		case 1006:
			s.setMode(modeMouseSGR, on)
		case 47, 1047:
			s.altScreen(on, false)
		case 1049:
			s.altScreen(on, true)
		case 2004:
			s.setMode(modeBracketPaste, on)
		}
	}
}

// setMouse selects one mouse tracking mode; resetting any of them resets
// all, as in tmux.
func (s *Screen) setMouse(m mode, on bool) {
	s.mode &^= modeAllMouse
	if on {
		s.mode |= m
	}
}

func (s *Screen) altScreen(on, cursor bool) {
	if on {
		s.alternateOn(cursor)
	} else {
		s.alternateOff(cursor)
	}
}
