package vt

import "slices"

// Styles are interned: a cell holds an index into Screen.styles, like
// tmux's extended cells keep colours out of the cell itself.
//
// Agent TUIs change colour every few cells, often to truecolour values a
// screen has never seen, so interning must be cheap for new styles too: a
// small direct-mapped cache finds recent pens, a miss appends a new entry
// (a pen may then appear twice in the table, which is harmless: styles are
// always compared by value, never by index), and once the table passes
// styleLimit it is rebuilt from the entries cells still use, in reused
// buffers. New styles thus cost amortised O(1) and no allocation, and the
// table stays within twice the live set.

const (
	minStyleLimit  = 4096
	styleCacheSize = 512 // a power of two
)

// styleCache keeps each pen beside its id, so that a lookup touches one
// cache line.
type styleCache [styleCacheSize]struct {
	pen pen
	id  uint32 // id+1; 0 is an empty slot
}

// hash takes a pointer: with a pen value, the compiler stores the fields
// one by one and reloads them as one 16-byte word, which the CPU cannot
// forward from the stores and stalls on (a few percent of agent redraws).
func (p *pen) hash() uint32 {
	x := uint64(p.fg) | uint64(p.bg)<<32
	y := uint64(p.us) | uint64(p.attr)<<32 | uint64(p.link)<<48
	h := x*0x9e3779b97f4a7c15 ^ y*0xc2b2ae3d27d4eb4f
	return uint32(h>>40) & (styleCacheSize - 1)
}

// intern returns an index of *p in the style table, adding it if needed.
// It takes a pointer for the reason hash does: a pen argument kept across
// the call to compactStyles is stored field by field and copied as one
// word.
func (s *Screen) intern(p *pen) uint32 {
	if p.isDefault() {
		return 0
	}
	e := &s.cache[p.hash()]
	if e.id != 0 && e.pen == *p {
		return e.id - 1
	}
	if len(s.styles) >= s.styleLimit {
		s.compactStyles()
	}
	id := uint32(len(s.styles))
	s.styles = append(s.styles, *p)
	e.pen, e.id = *p, id+1
	return id
}

// penStyle is the style index of the current pen.
func (s *Screen) penStyle() uint32 {
	if !s.penOK {
		s.refreshPen()
	}
	return s.penID
}

// refreshPen looks up the current pen's style index and the cells it
// gives.
func (s *Screen) refreshPen() {
	s.penID = s.intern(&s.pen)
	s.penExt = s.pen.needsGridExt()
	s.penASCII = mkcell(0, 1, s.penID)
	if s.penExt {
		s.penASCII.hi |= gridExtFlag
	}
	s.penOK = true
}

// penCell is a cell of the current pen, flagged when tmux would store it
// in extended form.
func (s *Screen) penCell(r rune, width int) cell {
	c := mkcell(r, width, s.penStyle())
	if s.penExt || width != 1 || r >= 0x80 {
		c.hi |= gridExtFlag
	}
	return c
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
		return clearedCell
	}
	p := pen{bg: bg}
	c := mkcell(' ', 1, s.intern(&p))
	c.hi |= clearedFlag
	if bg&colorKind == colorRGB {
		c.hi |= gridExtFlag
	}
	return c
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

// compactStyles rebuilds the style table from the entries cells use and
// renumbers every cell; links are compacted along with them.
func (s *Screen) compactStyles() {
	remap := slices.Grow(s.remap[:0], len(s.styles))[:len(s.styles)]
	clear(remap) // new id + 1; 0 is not yet seen
	next := append(s.spareStyles[:0], pen{})
	var linkRemap map[uint16]uint16
	var links []link
	if len(s.links) > 1 {
		linkRemap, links = map[uint16]uint16{0: 0}, []link{{}}
	}
	keep := func(p pen) pen {
		if p.link != 0 && linkRemap != nil {
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
			if old == 0 {
				continue
			}
			if remap[old] == 0 {
				next = append(next, keep(s.styles[old]))
				remap[old] = uint32(len(next) - 1 + 1)
			}
			c.setStyle(remap[old] - 1)
		}
	})
	// Pens held outside cells keep their links.
	s.pen = keep(s.pen)
	s.saved.pen = keep(s.saved.pen)
	s.alt.pen = keep(s.alt.pen)
	if linkRemap != nil {
		s.links = links
		s.linkIdx = make(map[link]uint16, len(links))
		for i, l := range links[1:] {
			s.linkIdx[l] = uint16(i + 1)
		}
	}
	s.remap = remap
	s.spareStyles, s.styles = s.styles, next
	s.styleGen++ // every StyleID handed out so far is void
	s.cache = styleCache{}
	s.views = [len(s.views)]styleViewEntry{}
	s.penOK = false
	// The next compaction comes after at least as many new styles as it
	// has cells to walk (screen and scrollback), so the walk costs O(1) per
	// new style.
	cells := s.w * (s.h + len(s.altSaved) + s.history.n)
	s.styleLimit = 2*len(next) + max(minStyleLimit, cells)
	if cap(s.styles) < s.styleLimit {
		// Grow once to the limit rather than by appends in between.
		s.styles = append(make([]pen, 0, s.styleLimit+s.styleLimit/4), s.styles...)
	}
}
