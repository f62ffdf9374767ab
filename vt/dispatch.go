package vt

// The Screen is the parser's performer: these methods give controls and
// escape sequences their meaning, with tmux 3.3a's tables
// (input_esc_table, input_csi_table): a sequence tmux does not know is
// ignored here too, even where xterm would act (CHT, DECSTR, 1048, 2026).

func (s *Screen) execute(b byte) {
	switch b {
	case '\b':
		s.backspace()
	case '\t':
		s.tab()
	case '\n', '\v', '\f':
		s.lineFeed(false, s.pen.bg)
	case '\r':
		s.carriageReturn()
	case 0x0e: // SO
		s.charset.shift = true
	case 0x0f: // SI
		s.charset.shift = false
	}
}

// tab moves to the next tab stop, or the last column, never wrapping.
func (s *Screen) tab() {
	if s.cx >= s.w-1 {
		return
	}
	for {
		s.cx++
		if s.tabs[s.cx] || s.cx >= s.w-1 {
			return
		}
	}
}

func (s *Screen) escDispatch(final byte, interm []byte) bool {
	if len(interm) == 1 {
		switch {
		case final == '0' && interm[0] == '(':
			s.charset.g0 = true
		case final == '0' && interm[0] == ')':
			s.charset.g1 = true
		case final == 'B' && interm[0] == '(':
			s.charset.g0 = false
		case final == 'B' && interm[0] == ')':
			s.charset.g1 = false
		case final == '8' && interm[0] == '#':
			s.alignmentTest()
		default:
			return false
		}
		return true
	}
	if len(interm) != 0 {
		return false
	}
	switch final {
	case '7':
		s.saveCursor()
	case '8':
		s.restoreCursor()
	case '=':
		s.mode |= modeAppKeypad
	case '>':
		s.mode &^= modeAppKeypad
	case 'D':
		s.lineFeed(false, s.pen.bg)
	case 'E':
		s.carriageReturn()
		s.lineFeed(false, s.pen.bg)
	case 'H':
		if s.cx < s.w {
			s.tabs[s.cx] = true
		}
	case 'M':
		s.reverseIndex(s.pen.bg)
	case '\\':
		// ST: the string it ends was closed by the ESC already.
	case 'c':
		s.fullReset()
	default:
		return false
	}
	return true
}

// fullReset is RIS: input_reset_cell, then screen_write_reset. tmux keeps
// the DECSC origin flag and the 1049 saved cursor across it.
func (s *Screen) fullReset() {
	s.setPen(pen{})
	s.charset = charsetState{}
	s.saved = savedState{origin: s.saved.origin}
	s.hardReset()
}
