package vt

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// ErrCapture is wrapped by every error ParseCapture returns.
var ErrCapture = errors.New("vt: malformed capture")

// Capture is a screen read back from `tmux capture-pane -p -e -N`.
//
// tmux prints each row's cells up to the row's last used cell, skipping
// wide characters' padding cells, with SGR and SO/SI codes in between
// (grid_string_cells in grid.c). Two things are lost on the way, and
// Capture keeps what is needed to treat them honestly:
//
//   - Cells cleared with a background colour after the last written cell
//     (BCE) are not printed at all: Used says how many columns each row's
//     printed cells covered; Rows holds default blank cells beyond it.
//   - Padding cells are not printed, so a row where tmux's grid has a wide
//     character without its padding, or padding without its wide
//     character (erasing or shifting half of one leaves that behind), cannot
//     be laid out with certainty. Printed keeps the row exactly as tmux
//     printed it, cell after cell; Rows lays it out by character width, and
//     Overflow marks the rows whose cells did not fit the width.
type Capture struct {
	Rows     [][]Cell // height rows of exactly width cells
	Used     []int    // per row, columns covered by printed cells (<= width)
	Printed  [][]Cell // per row, the cells in the order printed; no padding cells
	Overflow []bool   // per row, printed cells were wider than the screen
}

// ParseCapture reads the output of `tmux capture-pane -p -e -N` for a pane
// of the given width and height rows (with -S, height counts the history
// lines too; the final newline is optional). It accepts exactly the
// vocabulary tmux 3.3a prints (grid_string_cells_code): anything else is an
// error wrapping ErrCapture, so a misread capture never passes silently.
//
// The pen carries across rows, as it does in tmux's output. Cells printed
// between SO and SI are DEC special graphics and get the glyph tmux shows
// on a UTF-8 terminal. Zero-width characters, and characters tmux joined
// to a zero width joiner, stay in the cell before them (see
// capturePen.row). A wide character's padding cell in Rows has its style.
func ParseCapture(data []byte, width, height int) (*Capture, error) {
	if width < 1 || height < 1 {
		return nil, fmt.Errorf("%w: size %dx%d", ErrCapture, width, height)
	}
	lines := splitRows(data)
	if len(lines) != height {
		return nil, fmt.Errorf("%w: %d rows, want %d", ErrCapture, len(lines), height)
	}
	c := &Capture{
		Rows:     make([][]Cell, height),
		Used:     make([]int, height),
		Printed:  make([][]Cell, height),
		Overflow: make([]bool, height),
	}
	var p capturePen
	for y, line := range lines {
		printed, err := p.row(line)
		if err != nil {
			return nil, fmt.Errorf("%w: row %d: %w", ErrCapture, y, err)
		}
		c.Printed[y] = printed
		c.Rows[y], c.Used[y], c.Overflow[y] = layoutRow(printed, width)
	}
	return c, nil
}

// splitRows splits on '\n'; one trailing newline ends the last row rather
// than starting an empty one.
func splitRows(data []byte) [][]byte {
	if len(data) > 0 && data[len(data)-1] == '\n' {
		data = data[:len(data)-1]
	}
	return bytes.Split(data, []byte{'\n'})
}

// layoutRow places printed cells by width and pads the row with default
// blanks. A cell that would cross the right edge is left out and the row
// marked as overflowing.
func layoutRow(printed []Cell, width int) (row []Cell, used int, overflow bool) {
	row = make([]Cell, 0, width)
	for _, cell := range printed {
		if used+int(cell.Width) > width {
			overflow = true
			break
		}
		row = append(row, cell)
		if cell.Width == 2 {
			row = append(row, Cell{Text: "", Width: 0, Style: cell.Style})
		}
		used += int(cell.Width)
	}
	for len(row) < width {
		row = append(row, Cell{Text: " ", Width: 1})
	}
	return row, used, overflow
}

// tmuxCellBytes is the size of a tmux cell's character data (UTF8_SIZE):
// screen_write_combine drops a mark that would not fit.
const tmuxCellBytes = 21

// capturePen is the running state of a capture, which carries across rows:
// the SGR pen and whether SO (DEC graphics) is in effect.
type capturePen struct {
	style   Style
	charset bool
}

// row parses one capture row into its printed cells.
//
// Where a cell ends is not in the capture; tmux's grid decides it, and row
// follows tmux's rules: a zero-width character always joins the cell
// before it; after a zero width joiner, the next character joins too if it
// went through screen_write_cell (anything but plain ASCII, which tmux
// collects separately unless in DEC graphics, insert or no-wrap mode) and
// fits in the cell's 21 bytes. An SGR or SO/SI code proves a cell boundary:
// tmux prints codes only between cells. What stays ambiguous (plain ASCII
// after a joiner in insert or no-wrap mode, a joined character dropped for
// lack of room) is left to the comparison; see oracle_compare_test.go.
func (p *capturePen) row(line []byte) ([]Cell, error) {
	var cells []Cell
	joinNext := false
	lastBytes := 0 // size of the last cell's data in tmux (before DEC graphics glyphs)
	for i := 0; i < len(line); {
		b := line[i]
		switch {
		case b == 0x1b:
			n, err := p.sgr(line[i:])
			if err != nil {
				return nil, fmt.Errorf("byte %d: %w", i, err)
			}
			i += n
			joinNext = false
			continue
		case b == 0x0e || b == 0x0f:
			p.charset = b == 0x0e
			i++
			joinNext = false
			continue
		case b < 0x20 || b == 0x7f:
			return nil, fmt.Errorf("byte %d: control byte %#02x", i, b)
		}
		r, size := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && size <= 1 {
			return nil, fmt.Errorf("byte %d: invalid UTF-8", i)
		}
		text := string(line[i : i+size])
		i += size
		w := runeWidth(r)
		if p.charset && r < 0x80 && acsGlyph[r] != "" {
			// tmux draws every ASCII byte of a DEC graphics cell as its
			// glyph, joined ones included.
			text = acsGlyph[r]
		}
		last := len(cells) - 1
		joins := w == 0 || joinNext && (r >= 0x80 || p.charset) &&
			last >= 0 && lastBytes+size <= tmuxCellBytes
		joinNext = false
		if joins {
			if last < 0 {
				return nil, fmt.Errorf("byte %d: %U joins no cell", i-size, r)
			}
			cells[last].Text += text
			lastBytes += size
			joinNext = r == zeroWidthJoiner
			continue
		}
		if w < 0 {
			return nil, fmt.Errorf("byte %d: %U is not printable", i-size, r)
		}
		cells = append(cells, Cell{Text: text, Width: uint8(w), Style: p.style})
		lastBytes = size
	}
	return cells, nil
}

const zeroWidthJoiner = '\u200d'

// sgr parses one `ESC [ params m` at the start of b and applies it to the
// pen. It returns the bytes consumed.
func (p *capturePen) sgr(b []byte) (int, error) {
	if len(b) < 2 || b[1] != '[' {
		return 0, errors.New("escape is not CSI")
	}
	end := 2
	for end < len(b) && (b[end] >= '0' && b[end] <= '9' || b[end] == ';' || b[end] == ':') {
		end++
	}
	if end == len(b) || b[end] != 'm' {
		return 0, fmt.Errorf("unterminated or non-SGR sequence %q", clip(b[:min(end+1, len(b))]))
	}
	params, err := splitParams(b[2:end])
	if err != nil {
		return 0, fmt.Errorf("SGR %q: %w", b[:end+1], err)
	}
	if err := p.apply(params); err != nil {
		return 0, fmt.Errorf("SGR %q: %w", b[:end+1], err)
	}
	return end + 1, nil
}

func clip(b []byte) []byte {
	if len(b) > 32 {
		return b[:32]
	}
	return b
}

// sgrParam is one ;-separated parameter: a code and an optional :sub-code.
type sgrParam struct {
	code, sub int
	hasSub    bool
}

func splitParams(s []byte) ([]sgrParam, error) {
	if len(s) == 0 {
		return nil, errors.New("empty parameter list")
	}
	var out []sgrParam
	for len(s) > 0 {
		field := s
		if i := bytes.IndexByte(s, ';'); i >= 0 {
			field, s = s[:i], s[i+1:]
			if len(s) == 0 {
				return nil, errors.New("trailing ';'")
			}
		} else {
			s = nil
		}
		var p sgrParam
		var err error
		if i := bytes.IndexByte(field, ':'); i >= 0 {
			p.hasSub = true
			if p.code, err = number(field[:i]); err == nil {
				p.sub, err = number(field[i+1:])
			}
		} else {
			p.code, err = number(field)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// number parses a decimal of 1 to 3 digits: tmux prints nothing longer.
func number(s []byte) (int, error) {
	if len(s) == 0 || len(s) > 3 {
		return 0, fmt.Errorf("bad number %q", s)
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("bad number %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// apply runs the parameters of one SGR sequence in order.
func (p *capturePen) apply(params []sgrParam) error {
	for i := 0; i < len(params); i++ {
		q := params[i]
		if q.hasSub {
			if err := p.applySub(q); err != nil {
				return err
			}
			continue
		}
		switch c := q.code; {
		case c == 38 || c == 48 || c == 58:
			col, n, low, err := extendedColour(params[i+1:])
			if err != nil {
				return fmt.Errorf("%d: %w", c, err)
			}
			p.setExtended(c, col, low)
			i += n
		case c <= 9:
			if err := p.applyAttr(c); err != nil {
				return err
			}
		case c >= 30 && c <= 37:
			p.setFg(tcell.PaletteColor(c-30), false)
		case c == 39:
			p.setFg(tcell.ColorDefault, false)
		case c >= 40 && c <= 47:
			p.setBg(tcell.PaletteColor(c-40), false)
		case c == 49:
			p.setBg(tcell.ColorDefault, false)
		case c >= 90 && c <= 97:
			p.setFg(tcell.PaletteColor(c-90+8), false)
		case c >= 100 && c <= 107:
			p.setBg(tcell.PaletteColor(c-100+8), false)
		default:
			return fmt.Errorf("code %d is not in tmux's capture vocabulary", c)
		}
	}
	return nil
}

// applyAttr handles the single-digit attribute codes tmux prints.
func (p *capturePen) applyAttr(c int) error {
	s := &p.style
	switch c {
	case 0:
		*s = Style{} // SO/SI state is separate: tmux keeps it across a reset
	case 1:
		s.Style = s.Style.Bold(true)
	case 2:
		s.Style = s.Style.Dim(true)
	case 3:
		s.Style = s.Style.Italic(true)
	case 4:
		s.Style = s.Style.Underline(tcell.UnderlineStyleSolid)
	case 5:
		s.Style = s.Style.Blink(true)
	case 7:
		s.Style = s.Style.Reverse(true)
	case 8:
		s.Ext |= Invisible
	case 9:
		s.Style = s.Style.StrikeThrough(true)
	default:
		return fmt.Errorf("code %d is not in tmux's capture vocabulary", c)
	}
	return nil
}

// applySub handles codes tmux prints as tens:units (grid_string_cells_code
// writes every attribute code >= 10 that way): 4:2..4:5 are underline
// styles and 5:3 is its rendering of 53, overline.
func (p *capturePen) applySub(q sgrParam) error {
	s := &p.style
	switch {
	case q.code == 4 && q.sub >= 2 && q.sub <= 5:
		s.Style = s.Style.Underline(underlineStyles[q.sub])
	case q.code == 5 && q.sub == 3:
		s.Ext |= Overline
	default:
		return fmt.Errorf("code %d:%d is not in tmux's capture vocabulary", q.code, q.sub)
	}
	return nil
}

var underlineStyles = [...]tcell.UnderlineStyle{
	2: tcell.UnderlineStyleDouble,
	3: tcell.UnderlineStyleCurly,
	4: tcell.UnderlineStyleDotted,
	5: tcell.UnderlineStyleDashed,
}

// extendedColour reads the parameters after 38/48/58: `5;n` or `2;r;g;b`.
// It returns the colour, how many parameters it used, and whether it is a
// palette colour 0-15 given by index (see FgIndexed).
func extendedColour(rest []sgrParam) (col tcell.Color, used int, lowIndex bool, err error) {
	plain := func(n int) bool {
		if len(rest) < n {
			return false
		}
		for _, q := range rest[:n] {
			if q.hasSub || q.code > 255 {
				return false
			}
		}
		return true
	}
	switch {
	case plain(2) && rest[0].code == 5:
		return tcell.PaletteColor(rest[1].code), 2, rest[1].code < 16, nil
	case plain(4) && rest[0].code == 2:
		return tcell.NewRGBColor(int32(rest[1].code), int32(rest[2].code), int32(rest[3].code)), 4, false, nil
	}
	return 0, 0, false, errors.New("want 5;n or 2;r;g;b")
}

// setExtended applies 38/48/58 with an indexed (5;n) or RGB colour; low
// marks an index below 16.
func (p *capturePen) setExtended(code int, col tcell.Color, low bool) {
	switch code {
	case 38:
		p.setFg(col, low)
	case 48:
		p.setBg(col, low)
	default:
		p.style.Style = p.style.Style.Underline(col)
	}
}

// setFg sets the foreground. low marks a palette colour 0-15 given in the
// 38;5;n form, which tmux keeps apart from 30-37/90-97.
func (p *capturePen) setFg(col tcell.Color, low bool) {
	p.style.Style = p.style.Style.Foreground(col)
	p.style.Ext &^= FgIndexed
	if low {
		p.style.Ext |= FgIndexed
	}
}

// setBg is setFg for the background.
func (p *capturePen) setBg(col tcell.Color, low bool) {
	p.style.Style = p.style.Style.Background(col)
	p.style.Ext &^= BgIndexed
	if low {
		p.style.Ext |= BgIndexed
	}
}
