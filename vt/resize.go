package vt

// Resize changes the screen size the way tmux 3.3a's screen_resize does for
// height: shrinking first drops blank rows below the cursor, then pushes
// rows from the top into the scrollback (or, on the alternate screen,
// deletes them); growing pulls rows back from the scrollback before adding
// blank rows. The scroll region is reset.
//
// Width changes truncate or extend rows; tmux also reflows wrapped lines,
// which this model does not emulate: after a resize, callers re-seed the
// screen from tmux (see controlmode), which is exact.
//
// The normal screen saved under the alternate one keeps its own size, as
// tmux's saved grid does; leaving the alternate screen fits it to the
// size then current (restoreResized).
func (s *Screen) Resize(width, height int) {
	width, height = max(width, 1), max(height, 1)
	if width != s.w {
		s.resizeWidth(width)
	}
	if height != s.h {
		s.resizeHeight(height)
	}
	s.rupper, s.rlower = 0, s.h-1
	s.cx = min(s.cx, s.w)
	s.cy = min(s.cy, s.h-1)
	s.dirty = make([]uint64, (s.h+63)/64)
	s.markDirtyRange(0, s.h-1)
}

func (s *Screen) resizeWidth(width int) {
	for _, l := range s.lines {
		l.setWidth(width)
	}
	s.w = width
	s.spare = s.spare[:0]
	s.resetTabs()
	if s.cx > width {
		s.cx = width - 1
	}
}

// setWidth truncates or extends a row; a wide character cut in half by
// the new edge becomes a blank.
func (l *line) setWidth(width int) {
	cells := make([]cell, cellsFor(width))
	n := copy(cells, l.cells[:min(int(l.w), width)])
	for i := n; i < len(cells); i++ {
		cells[i] = blankCell
	}
	if width < int(l.w) && cells[width-1].isWide() {
		cells[width-1] = blankCell
	}
	l.cells, l.w = cells, int32(width)
	l.used, l.size = min(l.used, int32(width)), min(l.size, int32(width))
}

func (s *Screen) resizeHeight(height int) {
	old := s.h
	primary := s.altSaved == nil
	if height < old {
		needed := old - height
		if avail := min(old-1-s.cy, needed); avail > 0 {
			s.lines = s.lines[:old-avail]
			needed -= avail
		}
		if needed > 0 {
			top := s.lines[:needed]
			if primary {
				for _, l := range top {
					if ev := s.history.push(l); ev != nil && ev != l {
						s.recycle(ev)
					}
				}
			}
			s.lines = s.lines[needed:]
			s.cy = max(s.cy-needed, 0)
		}
		s.lines = s.lines[:height:height]
	} else {
		needed := height - old
		var pulled []*line
		for primary && len(pulled) < needed {
			l := s.history.popNewest()
			if l == nil {
				break
			}
			if int(l.w) != s.w {
				l.setWidth(s.w)
			}
			pulled = append(pulled, l)
		}
		lines := make([]*line, 0, height)
		for i := len(pulled) - 1; i >= 0; i-- {
			lines = append(lines, pulled[i])
		}
		lines = append(lines, s.lines...)
		for len(lines) < height {
			lines = append(lines, newLine(s.w, blankCell))
		}
		s.lines = lines
		s.cy += len(pulled)
	}
	s.h = height
}
