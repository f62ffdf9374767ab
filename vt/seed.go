package vt

import (
	"fmt"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// Seed is what tmux can tell about a pane's screen at one instant: a
// capture and the cursor and mode state queried on the same command line
// (see controlmode). State tmux cannot report (the SGR pen, DECSC, charsets,
// tab stops) starts at its default.
type Seed struct {
	Capture          []byte // capture-pane -p -e -N
	Width, Height    int
	CursorX, CursorY int // CursorX may equal Width: pending wrap
	CursorVisible    bool
	Alt              bool // the capture shows the alternate screen
	// SavedCapture is the normal screen under the alternate one
	// (capture-pane -a), in the Capture format; with Alt only. Without
	// it the normal screen starts blank.
	SavedCapture []byte
	// SavedX, SavedY: the cursor saved on entering the alternate screen
	// (1049), -1 when none.
	SavedX, SavedY                int
	ScrollTop, ScrollBottom       int
	Insert, Origin, Wrap          bool
	AppCursor, AppKeypad          bool
	BracketedPaste, FocusEvents   bool
	MouseStandard, MouseButton    bool
	MouseAll, MouseUTF8, MouseSGR bool
	Pending                       []byte // capture-pane -p -P: an unfinished escape sequence
	Options                       Options
}

// NewFromSeed builds a screen equal to tmux's view of a pane.
func NewFromSeed(seed Seed) (*Screen, error) {
	if seed.Width < 1 || seed.Height < 1 {
		return nil, fmt.Errorf("vt: seed size %dx%d", seed.Width, seed.Height)
	}
	c, err := ParseCapture(seed.Capture, seed.Width, seed.Height)
	if err != nil {
		return nil, fmt.Errorf("vt: seed: %w", err)
	}
	s := New(seed.Width, seed.Height, seed.Options)
	if seed.Alt {
		s.alternateOn(false)
		if err := s.seedSaved(seed.SavedCapture); err != nil {
			return nil, fmt.Errorf("vt: seed: saved screen: %w", err)
		}
		// A cursor saved beyond the pane's width: the saved grid is wider
		// than the pane, and capture-pane -a cut its rows.
		s.altLost = s.altLost || seed.SavedX > seed.Width
		if seed.SavedX >= 0 && seed.SavedY >= 0 {
			s.alt.cx, s.alt.cy, s.alt.valid = seed.SavedX, seed.SavedY, true
		}
	}
	s.load(c)
	top, bottom := seed.ScrollTop, seed.ScrollBottom
	if top >= 0 && bottom < seed.Height && top < bottom {
		s.rupper, s.rlower = top, bottom
	}
	for _, m := range [...]struct {
		on bool
		m  mode
	}{
		{seed.CursorVisible, modeCursor}, {seed.Insert, modeInsert}, {seed.Origin, modeOrigin},
		{seed.Wrap, modeWrap}, {seed.AppCursor, modeAppCursor}, {seed.AppKeypad, modeAppKeypad},
		{seed.BracketedPaste, modeBracketPaste}, {seed.FocusEvents, modeFocus},
		{seed.MouseStandard, modeMouseStandard}, {seed.MouseButton, modeMouseButton},
		{seed.MouseAll, modeMouseAll}, {seed.MouseUTF8, modeMouseUTF8}, {seed.MouseSGR, modeMouseSGR},
	} {
		s.setMode(m.m, m.on)
	}
	s.SetCursor(seed.CursorX, seed.CursorY)
	s.ClearDirty()
	s.Write(seed.Pending)
	return s, nil
}

// load stores a parsed capture on the active screen.
func (s *Screen) load(c *Capture) {
	for y, row := range c.Rows {
		for x, cl := range row {
			if cl.Width != 0 {
				s.SetCell(x, y, cl)
			}
		}
	}
}

// seedSaved replaces the normal screen saved under the alternate one with
// its capture (capture-pane -a; empty: it stays blank). tmux keeps that
// grid at the size the pane had when the alternate screen was entered, so
// the capture has its own number of rows, whatever the pane's height now,
// and tmux prints at most the pane's current width of each row. The saved
// screen gets the capture's rows at the current width; a cell that does
// not fit is lost (altLost). Leaving the alternate screen at another
// height, or with cells lost, marks the screen Diverged (restoreResized).
//
// tmux reports neither the saved grid's width nor its wrapped rows: a
// saved grid of the pane's height but narrower than the pane, whose rows
// wrapped, is restored as captured where tmux joins the wrapped rows. Only
// a comparison with tmux (controlmode's Check) finds that difference.
func (s *Screen) seedSaved(capture []byte) error {
	if len(capture) == 0 {
		return nil
	}
	rows := len(splitRows(capture))
	c, err := ParseCapture(capture, s.w, rows)
	if err != nil {
		return err
	}
	saved := make([]*line, rows)
	for y := range saved {
		saved[y] = newLine(s.w, blankCell)
		for x, cl := range c.Rows[y] {
			if cl.Width != 0 {
				s.putCell(saved[y], x, cl)
			}
		}
		s.altLost = s.altLost || c.Overflow[y]
	}
	s.altSaved = saved
	return nil
}

// SetCell stores c at x, y of the visible screen (used to load a captured
// screen). A Width-2 cell also makes x+1 its padding cell; a cell wider
// than what is left of the row is not stored.
func (s *Screen) SetCell(x, y int, c Cell) {
	if y >= 0 && y < s.h && s.putCell(s.lines[y], x, c) {
		s.markDirty(y)
	}
}

// putCell is SetCell on line l; it reports whether c was stored.
func (s *Screen) putCell(l *line, x int, c Cell) bool {
	w := int(c.Width)
	if x < 0 || w < 1 || w > 2 || x+w > int(l.w) {
		return false
	}
	p := penFromStyle(c.Style)
	if c.Link != "" {
		p.link = s.internLink(link{uri: c.Link})
	}
	r, size := utf8.DecodeRuneInString(c.Text)
	if size == 0 {
		r = ' '
	}
	l.set(x, mkcell(r, w, s.intern(&p)))
	if size < len(c.Text) {
		l.setText(x, c.Text)
	}
	if w == 2 {
		l.set(x+1, padCell)
	}
	return true
}

// SetCursor moves the cursor; x may equal the width (pending wrap).
func (s *Screen) SetCursor(x, y int) {
	s.cx = min(max(x, 0), s.w)
	s.cy = min(max(y, 0), s.h-1)
}

// penFromStyle is the inverse of pen.style (links aside: tcell offers no
// way to read them back).
func penFromStyle(st Style) pen {
	fg, bg, a := st.Decompose()
	p := pen{
		fg: colorFromTcell(fg, st.Ext&FgIndexed != 0),
		bg: colorFromTcell(bg, st.Ext&BgIndexed != 0),
		us: colorFromTcell(st.GetUnderlineColor(), true),
	}
	for _, m := range [...]struct {
		t tcell.AttrMask
		a attr
	}{{tcell.AttrBold, attrBold}, {tcell.AttrDim, attrDim}, {tcell.AttrItalic, attrItalic},
		{tcell.AttrBlink, attrBlink}, {tcell.AttrReverse, attrReverse}, {tcell.AttrStrikeThrough, attrStrike}} {
		if a&m.t != 0 {
			p.attr |= m.a
		}
	}
	p.attr = p.attr.withUnderline(st.GetUnderlineStyle())
	if st.Ext&Invisible != 0 {
		p.attr |= attrHidden
	}
	if st.Ext&Overline != 0 {
		p.attr |= attrOverline
	}
	return p
}

func colorFromTcell(c tcell.Color, indexed bool) color {
	switch {
	case c == tcell.ColorDefault || !c.Valid():
		return colorDefault
	case c.IsRGB():
		r, g, b := c.RGB()
		return colorRGB | color(r)<<16 | color(g)<<8 | color(b)
	}
	n := color(c &^ tcell.ColorValid & 0xff)
	if n < 16 && !indexed {
		return colorPalette | n
	}
	return color256 | n
}

// ClearDirty forgets which rows changed.
func (s *Screen) ClearDirty() {
	for i := range s.dirty {
		s.dirty[i] = 0
	}
}

// Dirty reports whether row y changed since the last ClearDirty.
func (s *Screen) Dirty(y int) bool {
	return y >= 0 && y < s.h && s.dirty[y>>6]&(1<<(y&63)) != 0
}
