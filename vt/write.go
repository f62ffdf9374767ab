package vt

// Screen operations, one per terminal operation, with the semantics of tmux
// 3.3a's screen-write.c.

// setCursor is screen_write_set_cursor: -1 leaves a coordinate alone; x may
// reach the width (pending wrap).
func (s *Screen) setCursor(x, y int) {
	if x != -1 {
		if x > s.w {
			x = s.w - 1
		}
		s.cx = x
	}
	if y != -1 {
		if y > s.h-1 {
			y = s.h - 1
		}
		s.cy = y
	}
}

// cursorMove is screen_write_cursormove; origin applies DECOM.
func (s *Screen) cursorMove(x, y int, origin bool) {
	if origin && y != -1 && s.mode&modeOrigin != 0 {
		if y > s.rlower-s.rupper {
			y = s.rlower
		} else {
			y += s.rupper
		}
	}
	if x != -1 && x > s.w-1 {
		x = s.w - 1
	}
	if y != -1 && y > s.h-1 {
		y = s.h - 1
	}
	s.setCursor(x, y)
}

func (s *Screen) cursorUp(n int) {
	n = max(n, 1)
	cx, cy := s.cx, s.cy
	if cy < s.rupper {
		n = min(n, cy)
	} else {
		n = min(n, cy-s.rupper)
	}
	if cx == s.w {
		cx--
	}
	s.setCursor(cx, cy-n)
}

func (s *Screen) cursorDown(n int) {
	n = max(n, 1)
	cx, cy := s.cx, s.cy
	if cy > s.rlower {
		n = min(n, s.h-1-cy)
	} else {
		n = min(n, s.rlower-cy)
	}
	if cx == s.w {
		cx--
	} else if n == 0 {
		return
	}
	s.setCursor(cx, cy+n)
}

// cursorRight is screen_write_cursorright. From the pending-wrap column
// tmux's unsigned limit does not clamp, and the move lands on the last
// column.
func (s *Screen) cursorRight(n int) {
	n = max(n, 1)
	if lim := s.w - 1 - s.cx; lim >= 0 && n > lim {
		n = lim
	}
	if n == 0 {
		return
	}
	s.setCursor(s.cx+n, s.cy)
}

func (s *Screen) cursorLeft(n int) {
	n = min(max(n, 1), s.cx)
	if n == 0 {
		return
	}
	s.setCursor(s.cx-n, s.cy)
}

// backspace moves left, or to the end of the previous row when this row
// is the continuation of a wrapped one.
func (s *Screen) backspace() {
	cx, cy := s.cx, s.cy
	if cx == 0 {
		if cy == 0 {
			return
		}
		if s.lines[cy-1].wrapped {
			cy--
			cx = s.w - 1
		}
	} else {
		cx--
	}
	s.setCursor(cx, cy)
}

func (s *Screen) carriageReturn() { s.setCursor(0, -1) }

// lineFeed is screen_write_linefeed; wrapped marks the row as soft-wrapped.
func (s *Screen) lineFeed(wrapped bool, bg color) {
	if wrapped {
		s.lines[s.cy].wrapped = true
	}
	if s.cy == s.rlower {
		s.scrollUp(s.rupper, s.rlower, bg)
	} else if s.cy < s.h-1 {
		s.setCursor(-1, s.cy+1)
	}
}

func (s *Screen) reverseIndex(bg color) {
	if s.cy == s.rupper {
		s.scrollDown(s.rupper, s.rlower, bg)
	} else if s.cy > 0 {
		s.setCursor(-1, s.cy-1)
	}
}

func (s *Screen) setScrollRegion(top, bottom int) {
	top, bottom = min(top, s.h-1), min(bottom, s.h-1)
	if top >= bottom {
		return
	}
	s.setCursor(0, 0)
	s.rupper, s.rlower = top, bottom
}

// scrollRegionUp is SU (screen_write_scrollup): n lines, at most the
// region's height.
func (s *Screen) scrollRegionUp(n int, bg color) {
	for i := s.regionLines(n); i > 0; i-- {
		s.scrollUp(s.rupper, s.rlower, bg)
	}
}

// scrollRegionDown is SD (screen_write_scrolldown).
func (s *Screen) scrollRegionDown(n int, bg color) {
	for i := s.regionLines(n); i > 0; i-- {
		s.scrollDown(s.rupper, s.rlower, bg)
	}
}

// regionLines clamps a scroll count as tmux does: 0 means 1, and no more
// than the region holds.
func (s *Screen) regionLines(n int) int {
	if n == 0 {
		return 1
	}
	return min(n, s.rlower-s.rupper+1)
}

// insertCharacters is screen_write_insertcharacter + grid_view_insert_cells.
func (s *Screen) insertCharacters(n int, bg color) {
	n = min(max(n, 1), s.w-s.cx)
	if n <= 0 || s.cx > s.w-1 {
		return
	}
	if s.cx >= s.w-1 {
		s.clear(s.cx, s.cy, 1, 1, bg)
		return
	}
	s.moveCells(s.cy, s.cx+n, s.cx, s.w-s.cx-n, bg)
}

// deleteCharacters is screen_write_deletecharacter + grid_view_delete_cells.
func (s *Screen) deleteCharacters(n int, bg color) {
	n = min(max(n, 1), s.w-s.cx)
	if n <= 0 || s.cx > s.w-1 {
		return
	}
	px := s.cx
	s.moveCells(s.cy, px, px+n, s.w-px-n, bg)
	// grid_view_delete_cells then clears from w-n; its count is computed
	// in unsigned arithmetic and only matters when nothing moved.
	if cnt := px + n - (s.w - n); cnt > 0 {
		s.clear(s.w-n, s.cy, cnt, 1, bg)
	}
}

// eraseCharacters is screen_write_clearcharacter.
func (s *Screen) eraseCharacters(n int, bg color) {
	n = min(max(n, 1), s.w-s.cx)
	if n <= 0 || s.cx > s.w-1 {
		return
	}
	s.clear(s.cx, s.cy, n, 1, bg)
}

func (s *Screen) insertLines(n int, bg color) {
	n = max(n, 1)
	cy := s.cy
	if cy < s.rupper || cy > s.rlower {
		n = min(n, s.h-cy)
		if n == 0 {
			return
		}
		s.moveLines(cy+n, cy, s.h-cy-n, bg)
		return
	}
	n = min(n, s.rlower+1-cy)
	if n == 0 {
		return
	}
	n2 := s.rlower + 1 - cy - n
	s.moveLines(s.rlower+1-n2, cy, n2, bg)
	s.clear(0, cy+n2, s.w, n-n2, bg)
}

func (s *Screen) deleteLines(n int, bg color) {
	n = max(n, 1)
	cy := s.cy
	if cy < s.rupper || cy > s.rlower {
		n = min(n, s.h-cy)
		if n == 0 {
			return
		}
		s.moveLines(cy, cy+n, s.h-cy-n, bg)
		s.clear(0, s.h-n, s.w, cy+n-(s.h-n), bg)
		return
	}
	n = min(n, s.rlower+1-cy)
	if n == 0 {
		return
	}
	n2 := s.rlower + 1 - cy - n
	s.moveLines(cy, cy+n, n2, bg)
	s.clear(0, cy+n2, s.w, n-n2, bg)
}

func (s *Screen) eraseLine(bg color) { s.clear(0, s.cy, s.w, 1, bg) }

func (s *Screen) eraseLineRight(bg color) {
	if s.cx == 0 {
		s.eraseLine(bg)
		return
	}
	if s.cx > s.w-1 {
		return
	}
	s.clear(s.cx, s.cy, s.w-s.cx, 1, bg)
}

func (s *Screen) eraseLineLeft(bg color) {
	if s.cx >= s.w-1 {
		s.eraseLine(bg)
		return
	}
	s.clear(0, s.cy, s.cx+1, 1, bg)
}

func (s *Screen) eraseBelow(bg color) {
	if s.cx == 0 && s.cy == 0 && s.altSaved == nil {
		s.clearHistoryScroll(bg)
		return
	}
	if s.cx <= s.w-1 {
		s.clear(s.cx, s.cy, s.w-s.cx, 1, bg)
	}
	s.clear(0, s.cy+1, s.w, s.h-(s.cy+1), bg)
}

func (s *Screen) eraseAbove(bg color) {
	if s.cy > 0 {
		s.clear(0, 0, s.w, s.cy, bg)
	}
	if s.cx > s.w-1 {
		s.clear(0, s.cy, s.w, 1, bg)
	} else {
		s.clear(0, s.cy, s.cx+1, 1, bg)
	}
}

func (s *Screen) eraseScreen(bg color) {
	if s.altSaved == nil {
		s.clearHistoryScroll(bg)
		return
	}
	s.clear(0, 0, s.w, s.h, bg)
}

func (s *Screen) clearScrollback() { s.history.clear() }

// alignmentTest is DECALN: the screen full of E, the scroll region reset.
func (s *Screen) alignmentTest() {
	e := mkcell('E', 1, 0)
	for y := 0; y < s.h; y++ {
		s.lines[y].fill(0, s.w, e)
		s.lines[y].wrote(0, s.w)
		s.markDirty(y)
	}
	s.setCursor(0, 0)
	s.rupper, s.rlower = 0, s.h-1
}

// hardReset is RIS after the input layer's own reset: tabs, scroll region,
// modes, a cleared screen. tmux does not leave the alternate screen.
func (s *Screen) hardReset() {
	s.resetTabs()
	s.setScrollRegion(0, s.h-1)
	s.mode = modeCursor | modeWrap
	s.eraseScreen(colorDefault)
	s.setCursor(0, 0)
}
