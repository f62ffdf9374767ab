package vt

// Styles are interned: a cell holds a 32-bit index into Screen.styles, like
// tmux's extended cells keep colours out of the cell itself. The table only
// grows while new renditions appear; once it passes styleLimit it is
// rebuilt from the styles that cells still use, so a stream of ever-new
// colours costs amortised O(1) per style and bounded memory.

const minStyleLimit = 4096

// intern returns the index of p, adding it if it is new.
func (s *Screen) intern(p pen) uint32 {
	if id, ok := s.styleIdx[p]; ok {
		return id
	}
	if len(s.styles) >= s.styleLimit || len(s.styles) > maxStyleIndex {
		s.compactStyles()
	}
	id := uint32(len(s.styles))
	s.styles = append(s.styles, p)
	s.styleIdx[p] = id
	return id
}

// penStyle is the style index of the current pen.
func (s *Screen) penStyle() uint32 {
	if !s.penOK {
		s.penID = s.intern(s.pen)
		s.penOK = true
	}
	return s.penID
}

// setPen changes the pen; the style index is looked up on the next print.
func (s *Screen) setPen(p pen) {
	if p != s.pen {
		s.pen = p
		s.penOK = false
	}
}

// blank returns an erased cell with background bg (tmux's
// grid_cleared_cell).
func (s *Screen) blank(bg color) cell {
	if bg == colorDefault {
		return blankCell
	}
	if bg != s.blankBg {
		s.blankID = s.intern(pen{bg: bg})
		s.blankBg = bg
	}
	return mkcell(' ', 1, s.blankID)
}

// internLink returns the index of an OSC 8 link, 0 for none.
func (s *Screen) internLink(l link) uint16 {
	if l == (link{}) {
		return 0
	}
	if id, ok := s.linkIdx[l]; ok {
		return id
	}
	if len(s.links) >= 1<<16-1 {
		s.compactStyles()
		if len(s.links) >= 1<<16-1 {
			return 0 // every link is live: drop the new one rather than alias another
		}
	}
	id := uint16(len(s.links))
	s.links = append(s.links, l)
	s.linkIdx[l] = id
	return id
}

// forEachLine calls f for every line that holds cells: the screen, the
// saved primary screen and the scrollback.
func (s *Screen) forEachLine(f func(*line)) {
	for _, l := range s.lines {
		f(l)
	}
	for _, l := range s.altSaved {
		f(l)
	}
	for i := 0; i < s.history.n; i++ {
		f(s.history.at(i))
	}
}

// compactStyles rebuilds the style and link tables from what is still in
// use and renumbers every cell.
func (s *Screen) compactStyles() {
	remap := make(map[uint32]uint32)
	styles := []pen{{}}
	remap[0] = 0
	linkRemap := map[uint16]uint16{0: 0}
	links := []link{{}}
	keep := func(p pen) pen {
		if p.link != 0 {
			nl, ok := linkRemap[p.link]
			if !ok {
				nl = uint16(len(links))
				links = append(links, s.links[p.link])
				linkRemap[p.link] = nl
			}
			p.link = nl
		}
		return p
	}
	s.forEachLine(func(l *line) {
		for i := range l.cells {
			c := &l.cells[i]
			old := c.style()
			id, ok := remap[old]
			if !ok {
				id = uint32(len(styles))
				styles = append(styles, keep(s.styles[old]))
				remap[old] = id
			}
			c.setStyle(id)
		}
	})
	// Pens held outside cells keep their links.
	s.pen = keep(s.pen)
	s.saved.pen = keep(s.saved.pen)
	s.alt.pen = keep(s.alt.pen)

	s.styles = styles
	s.styleIdx = make(map[pen]uint32, len(styles))
	for i, p := range styles {
		if _, dup := s.styleIdx[p]; !dup {
			s.styleIdx[p] = uint32(i)
		}
	}
	s.links = links
	s.linkIdx = make(map[link]uint16, len(links))
	for i, l := range links[1:] {
		s.linkIdx[l] = uint16(i + 1)
	}
	s.penOK = false
	s.blankBg = colorDefault
	s.styleLimit = max(minStyleLimit, 2*len(styles))
}
