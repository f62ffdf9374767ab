package vt

// Grid primitives with the semantics of tmux 3.3a's grid.c and
// grid-view.c, quirks included (for example, inserting as many characters
// as remain on the line moves nothing and clears nothing). The screen
// operations in write.go are built only from these, as screen-write.c is
// built from grid-view.c, so that every edge case falls out the same way.

func (s *Screen) markDirty(y int) { s.dirty[y>>6] |= 1 << (y & 63) }

// markDirtyRange marks rows y0 to y1 a word at a time: every scroll marks
// its whole region.
func (s *Screen) markDirtyRange(y0, y1 int) {
	for y := y0; y <= y1; {
		w, bit := y>>6, y&63
		n := min(64-bit, y1-y+1)
		s.dirty[w] |= (1<<n - 1) << bit
		y += n
	}
}

// takeLine returns an empty line for reuse, or a new one.
func (s *Screen) takeLine(bg color) *line {
	if n := len(s.spare); n > 0 {
		l := s.spare[n-1]
		s.spare = s.spare[:n-1]
		if int(l.w) == s.w {
			l.reset(s.blank(bg))
			return l
		}
	}
	return newLine(s.w, s.blank(bg))
}

// recycle keeps a line no longer in use for takeLine.
func (s *Screen) recycle(l *line) {
	if l != nil && int(l.w) == s.w && len(s.spare) < 4 {
		s.spare = append(s.spare, l)
	}
}

// emptyLine is grid_empty_line: blank cells with background bg, no wrap.
func (s *Screen) emptyLine(y int, bg color) {
	s.lines[y].reset(s.blank(bg))
	s.markDirty(y)
}

// clear is grid_clear over nx cells of ny rows from x, y. Whole rows are
// emptied (grid_clear_lines), which drops their wrap flag and that of the
// row above: it no longer continues onto them.
//
// Callers pass counts computed as tmux computes them; tmux's are unsigned,
// so a negative one is a huge count that wraps around. For whole rows it
// can pass grid_clear_lines' range check all the same: nothing is erased,
// but the row above still loses its wrap flag.
func (s *Screen) clear(x, y, nx, ny int, bg color) {
	if nx <= 0 || ny == 0 {
		return
	}
	if x == 0 && nx == s.w {
		if ny < 0 {
			if y > 0 && y+ny-1 >= -s.history.n {
				s.lines[y-1].wrapped = false
			}
			return
		}
		for yy := y; yy < y+ny; yy++ {
			s.emptyLine(yy, bg)
		}
		if y != 0 {
			s.lines[y-1].wrapped = false
		}
		return
	}
	if ny < 0 {
		return
	}
	end := min(x+nx, s.w)
	if x >= end {
		return
	}
	b := s.blank(bg)
	for yy := y; yy < y+ny; yy++ {
		l := s.lines[yy]
		l.fill(x, end, b)
		if bg != colorDefault {
			l.expand(end)
		}
		s.markDirty(yy)
	}
}

// moveLines is grid_move_lines: ny rows from py to dy; rows left behind
// are emptied with bg, and the rows above the destination and the source
// lose their wrap flag.
func (s *Screen) moveLines(dy, py, ny int, bg color) {
	if ny <= 0 || py == dy {
		return
	}
	// Rows overwritten by the move are reused for the rows it vacates.
	var freed []*line
	for y := dy; y < dy+ny; y++ {
		if y < py || y >= py+ny {
			freed = append(freed, s.lines[y])
		}
	}
	if dy != 0 {
		s.lines[dy-1].wrapped = false
	}
	copy(s.lines[dy:dy+ny], s.lines[py:py+ny])
	for y := py; y < py+ny; y++ {
		if y < dy || y >= dy+ny {
			s.lines[y] = freed[0]
			freed = freed[1:]
			s.emptyLine(y, bg)
		}
	}
	if py != 0 && (py < dy || py >= dy+ny) {
		s.lines[py-1].wrapped = false
	}
	s.markDirtyRange(min(dy, py), max(dy, py)+ny-1)
}

// moveCells is grid_move_cells on row y: nx cells from px to dx, the cells
// left behind erased with bg.
func (s *Screen) moveCells(y, dx, px, nx int, bg color) {
	if nx <= 0 || px == dx {
		return
	}
	l := s.lines[y]
	l.expand(px + nx)
	l.wrote(dx, nx)
	cs := l.cells
	copy(cs[dx:dx+nx], cs[px:px+nx])
	b := s.blank(bg)
	for x := px; x < px+nx; x++ {
		if x < dx || x >= dx+nx {
			cs[x] = b
		}
	}
	s.markDirty(y)
}

// scrollUp is grid_view_scroll_region_up. On the primary screen the row
// leaving the region's top goes to the scrollback, even for a region that
// does not start at the top (tmux's grid_scroll_history_region).
func (s *Screen) scrollUp(top, bottom int, bg color) {
	if s.altSaved != nil {
		s.moveLines(top, top+1, bottom-top, bg)
		return
	}
	gone := s.lines[top]
	copy(s.lines[top:bottom], s.lines[top+1:bottom+1])
	fresh := s.history.push(gone)
	if fresh == nil || len(fresh.cells) != s.w {
		fresh = s.takeLine(bg)
	}
	s.lines[bottom] = fresh
	s.emptyLine(bottom, bg)
	s.markDirtyRange(top, bottom)
}

// scrollDown is grid_view_scroll_region_down.
func (s *Screen) scrollDown(top, bottom int, bg color) {
	s.moveLines(top+1, top, bottom-top, bg)
}

// clearHistoryScroll is grid_view_clear_history, used when the whole
// primary screen is erased (tmux's scroll-on-clear, on by default): the rows
// down to the last one in use scroll into the scrollback, then the screen
// is blank with background bg.
func (s *Screen) clearHistoryScroll(bg color) {
	last := 0
	for y := 0; y < s.h; y++ {
		if s.lines[y].used != 0 { // tmux's cellused
			last = y + 1
		}
	}
	if last == 0 {
		s.clear(0, 0, s.w, s.h, bg)
		return
	}
	for i := 0; i < last; i++ {
		s.scrollUp(0, s.h-1, bg)
	}
	if last < s.h {
		s.clear(0, 0, s.w, s.h-last, bg)
	}
}
