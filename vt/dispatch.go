package vt

import (
	"bytes"
	"unicode/utf8"
)

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

func (s *Screen) csiDispatch(final byte, interm []byte, ps *params) bool {
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
		p := s.pen
		p.sgr(ps)
		s.setPen(p)
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

// oscDispatch handles OSC 0/2 (title) and OSC 8 (hyperlink); tmux 3.3a has
// no hyperlinks, so links never change what tmux shows, only what akk keeps.
func (s *Screen) oscDispatch(data []byte) {
	if len(data) == 0 || data[0] < '0' || data[0] > '9' {
		return
	}
	option := 0
	i := 0
	for i < len(data) && data[i] >= '0' && data[i] <= '9' && option < 1<<20 {
		option = option*10 + int(data[i]-'0')
		i++
	}
	if i < len(data) && data[i] == ';' {
		i++
	}
	arg := data[i:]
	switch option {
	case 0, 2:
		s.setTitle(arg)
	case 8:
		s.setLink(arg)
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

// maxTitles bounds the title stack (tmux's is unbounded; xterm keeps 10).
const maxTitles = 32

func (s *Screen) pushTitle() {
	if len(s.titles) == maxTitles {
		s.titles = append(s.titles[:0], s.titles[1:]...)
	}
	s.titles = append(s.titles, s.title)
}

func (s *Screen) popTitle() {
	if n := len(s.titles); n > 0 {
		s.setTitle([]byte(s.titles[n-1]))
		s.titles = s.titles[:n-1]
	}
}

// apcDispatch takes an APC string as the title, as tmux does (screen's
// convention).
func (s *Screen) apcDispatch(data []byte) { s.setTitle(data) }

// setTitle is screen_set_title: a title that is not valid, printable UTF-8
// (tmux's utf8_isvalid) leaves the old one.
func (s *Screen) setTitle(t []byte) {
	if titleValid(t) {
		s.title = string(t)
	}
}

func titleValid(t []byte) bool {
	for i := 0; i < len(t); {
		size := leadSize(t[i])
		if size == 0 {
			if t[i] < 0x20 || t[i] > 0x7e {
				return false
			}
			i++
			continue
		}
		if i+size > len(t) {
			return false
		}
		var d utf8Decoder
		ok := false
		for _, b := range t[i : i+size] {
			_, _, ok = d.add(b)
		}
		if !ok {
			return false
		}
		i += size
	}
	return true
}

// setLink parses "params;uri" of OSC 8; an empty uri ends the link.
func (s *Screen) setLink(arg []byte) {
	semi := bytes.IndexByte(arg, ';')
	if semi < 0 {
		return
	}
	var l link
	if uri := arg[semi+1:]; len(uri) > 0 && utf8.Valid(uri) {
		l.uri = string(uri)
		for _, kv := range bytes.Split(arg[:semi], []byte(":")) {
			if id, ok := bytes.CutPrefix(kv, []byte("id=")); ok && utf8.Valid(id) {
				l.id = string(id)
			}
		}
	}
	p := s.pen
	p.link = s.internLink(l)
	s.setPen(p)
}
