package vt

// CSI sequences, keyed like tmux 3.3a's input_csi_table: a final byte and
// at most one intermediate or private marker.

func (s *Screen) csiDispatch(final byte, interm []byte, ps *params) bool {
	if final == 'm' && len(interm) == 0 {
		// SGR first: most sequences are. In place, and without comparing
		// the pen before and after: a copy compared right after its
		// fields were stored one by one stalls the CPU, and an unchanged
		// pen is found again in the style cache anyway.
		s.pen.sgr(ps)
		s.penOK = false
		return true
	}
	var im byte // the one intermediate or private marker tmux's table knows
	switch len(interm) {
	case 0:
	case 1:
		im = interm[0]
	default:
		return false
	}
	if im != 0 {
		return s.csiMarked(final, im, ps)
	}
	bg := s.pen.bg
	n := ps.get(0, 1, 1)
	switch final {
	case '@':
		if n != -1 {
			s.insertCharacters(n, bg)
		}
	case 'A':
		if n != -1 {
			s.cursorUp(n)
		}
	case 'B':
		if n != -1 {
			s.cursorDown(n)
		}
	case 'C':
		if n != -1 {
			s.cursorRight(n)
		}
	case 'D':
		if n != -1 {
			s.cursorLeft(n)
		}
	case 'E':
		if n != -1 {
			s.carriageReturn()
			s.cursorDown(n)
		}
	case 'F':
		if n != -1 {
			s.carriageReturn()
			s.cursorUp(n)
		}
	case 'G', '`':
		if n != -1 {
			s.cursorMove(n-1, -1, true)
		}
	case 'H', 'f':
		if m := ps.get(1, 1, 1); n != -1 && m != -1 {
			s.cursorMove(m-1, n-1, true)
		}
	case 'J':
		s.eraseDisplay(ps)
	case 'K':
		s.eraseInLine(ps.get(0, 0, 0), bg)
	case 'L':
		if n != -1 {
			s.insertLines(n, bg)
		}
	case 'M':
		if n != -1 {
			s.deleteLines(n, bg)
		}
	case 'P':
		if n != -1 {
			s.deleteCharacters(n, bg)
		}
	case 'S':
		if n != -1 {
			s.scrollRegionUp(n, bg)
		}
	case 'T':
		if n != -1 {
			s.scrollRegionDown(n, bg)
		}
	case 'X':
		if n != -1 {
			s.eraseCharacters(n, bg)
		}
	case 'Z':
		if n != -1 {
			s.backTab(n)
		}
	case 'b':
		if n != -1 {
			s.repeat(n)
		}
	case 'd':
		if n != -1 {
			s.cursorMove(-1, n-1, true)
		}
	case 'g':
		s.clearTabs(ps.get(0, 0, 0))
	case 'h':
		s.setModes(ps, true)
	case 'l':
		s.setModes(ps, false)
	case 'm':
		// Handled above.
	case 'r':
		if m := ps.get(1, 1, s.h); n != -1 && m != -1 {
			s.setScrollRegion(n-1, m-1)
		}
	case 's':
		s.saveCursor()
	case 'u':
		s.restoreCursor()
	case 't':
		s.windowOps(ps)
	case 'c', 'n':
		// DA and DSR: replies, which tmux gives.
	default:
		return false
	}
	return true
}

// csiMarked handles sequences with a private marker or intermediate.
func (s *Screen) csiMarked(final, im byte, ps *params) bool {
	switch {
	case im == '?' && final == 'h':
		s.setPrivateModes(ps, true)
	case im == '?' && final == 'l':
		s.setPrivateModes(ps, false)
	case im == '>' && final == 'm':
		n, m := ps.get(0, 0, 0), ps.get(1, 0, 0)
		if n == 0 || (n == 4 && m == 0) {
			s.mode &^= modeKeysExtended
		} else if n == 4 && (m == 1 || m == 2) {
			s.mode |= modeKeysExtended
		}
	case im == '>' && final == 'n':
		if ps.get(0, 0, 0) == 4 {
			s.mode &^= modeKeysExtended
		}
	case im == '>' && (final == 'c' || final == 'q'):
		// Secondary and extended device attributes: replies.
	case im == ' ' && final == 'q':
		// DECSCUSR: the cursor's shape, which a screen model does not keep.
	default:
		return false
	}
	return true
}

func (s *Screen) eraseDisplay(ps *params) {
	bg := s.pen.bg
	switch ps.get(0, 0, 0) {
	case 0:
		s.eraseBelow(bg)
	case 1:
		s.eraseAbove(bg)
	case 2:
		s.eraseScreen(bg)
	case 3:
		if ps.get(1, 0, 0) == 0 {
			s.clearScrollback()
		}
	}
}

func (s *Screen) eraseInLine(which int, bg color) {
	switch which {
	case 0:
		s.eraseLineRight(bg)
	case 1:
		s.eraseLineLeft(bg)
	case 2:
		s.eraseLine(bg)
	}
}

// backTab is CBT: back n tab stops, stopping at column 0.
func (s *Screen) backTab(n int) {
	cx := min(s.cx, s.w-1)
	for ; cx > 0 && n > 0; n-- {
		for {
			cx--
			if cx == 0 || s.tabs[cx] {
				break
			}
		}
	}
	s.cx = cx
}

func (s *Screen) clearTabs(which int) {
	switch which {
	case 0:
		if s.cx < s.w {
			s.tabs[s.cx] = false
		}
	case 3:
		for i := range s.tabs {
			s.tabs[i] = false
		}
	}
}

// windowOps is input_csi_dispatch_winops: of the window operations only
// the title stack (22 and 23 with 0 or 2) changes the screen; the walk over
// the parameters follows tmux's, arguments and early stops included.
func (s *Screen) windowOps(ps *params) {
	for m := 0; ; m++ {
		n := ps.get(m, 0, -1)
		switch n {
		case -1:
			return
		case 3, 4, 8:
			m++
			if ps.get(m, 0, -1) == -1 {
				return
			}
			fallthrough
		case 9, 10:
			m++
			if ps.get(m, 0, -1) == -1 {
				return
			}
		case 22, 23:
			m++
			switch ps.get(m, 0, -1) {
			case -1:
				return
			case 0, 2:
				if n == 22 {
					s.pushTitle()
				} else {
					s.popTitle()
				}
			}
		}
	}
}
