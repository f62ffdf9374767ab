package recognizers

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/vt"
)

// An agent's status result (Recognition.Status) is read the same way
// whatever draws it: rows of "Name:" at one column, each value at the
// column two or three past the longest name's colon, in two groups with
// one blank row between. What a version draws is its StatusLayout: the
// row names in the order its recordings show them, which of them a
// recording leaves out or wraps, their styles, and what akk carries of
// each value. Where the rows sit (Claude's modal panel, Codex's card in
// the history) is each agent's (its screen package's status.go).
//
// A row whose name the layout does not list, a name out of order or
// twice, a row the recordings always show missing, a second blank row, a
// continuation row under a value no recording shows wrapped, a value off
// its column or in another style: no result (nil), never a partial one.

// Bounds of a status result: a longer one gives no result, never a cut.
const (
	MaxStatusFields = 32
	MaxStatusName   = 40  // runes; every layout's names are within it (TestStatusLayoutBounds)
	maxStatusValue  = 200 // runes of a value carried
	maxStatusWraps  = 8   // continuation rows of one value
	MaxStatusRows   = 64  // rows from a result's first to its last
)

// StatusLayout is how one version draws its status rows.
type StatusLayout struct {
	Rows  []StatusRow // in the order they are drawn
	NameX int         // the names' column
	// gap is the columns between the longest name's colon and the
	// values' column: the values' column follows the longest name drawn,
	// not a fixed column (Claude Code 2.1.267 puts them at 31 with its
	// "Managed settings (remote):" row, at 25 without it).
	Gap int
	// name is the style of a name and its colon; values are the styles
	// a value's cells may have; placeholder a placeholder value's.
	Name        vt.Style
	Values      []vt.Style
	Placeholder vt.Style
}

// StatusRow is one row a version's status result may show.
type StatusRow struct {
	Name  string // as drawn, without its colon
	Group int    // 0 above the blank row, 1 below it
	// optional: a recording of the version shows the result without it.
	Optional bool
	// wraps: a recording shows its value wrapped onto rows of its own at
	// the values' column, a word that would not fit starting the next
	// row; the rows are joined with one space.
	Wraps bool
	// path: its value is a path, which the agent breaks wherever the row
	// ends when it does not fit (status-cwd120): a row filled to the
	// limit goes on on the next row with nothing in between; a row that
	// ends short of it is a word wrap, as for wraps.
	Path bool
	// link: its value's cells may carry an OSC 8 link (the text drawn is
	// the value; the link's target is not read).
	Link bool
	// placeholder is the value drawn in the layout's placeholder style
	// when there is none (Claude's "/rename to add a name").
	Placeholder string
	// carry says whether akk carries a value drawn in the row; nil
	// carries every value. A value not carried is Redacted.
	Carry func(value string) bool
}

// CarryNever withholds the row's value whatever it is.
func CarryNever(string) bool { return false }

// CarryOneOf carries exactly the values listed (the non-secret values
// the recordings show): any other value is withheld, as it may be a
// credential.
func CarryOneOf(vals ...string) func(string) bool {
	return func(v string) bool { return slices.Contains(vals, v) }
}

// CarryOrigin carries an http or https origin, "scheme://host[:port]"
// with an optional "/", as the recordings show; a URL with user
// information, a path, a query or a fragment could carry a credential
// and is withheld.
func CarryOrigin(v string) bool {
	rest, ok := strings.CutPrefix(v, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(v, "https://"); !ok {
			return false
		}
	}
	rest = strings.TrimSuffix(rest, "/")
	host, port, hasPort := strings.Cut(rest, ":")
	if host == "" || hasPort && port == "" {
		return false
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	for _, r := range port {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// statusLine is a row of the result: a named row, the blank row, or a
// value's continuation.
type statusLine struct {
	y, row int // row: index in StatusLayout.Rows; lineBlank, lineWrap
}

const (
	lineBlank = -1
	lineWrap  = -2
)

// Parse reads rows top to end-1 as the whole result, within columns left
// to right-1 (a box's inside); a value must end before column limit. It
// returns nil unless every row is one the layout knows, in its place.
func (l *StatusLayout) Parse(g *Grid, top, end, left, right, limit int) *StatusPanel {
	defer g.Enter("statusLayout.parse")()
	if end-top > MaxStatusRows || end <= top {
		return nil
	}
	lines := make([]statusLine, 0, end-top)
	widest, fields, blanks, last, wraps := 0, 0, 0, -1, 0
	var seen uint64
	for y := top; y < end; y++ {
		switch f := FirstIn(g, y, left, right); {
		case f < 0:
			if blanks++; blanks > 1 || last < 0 {
				return nil
			}
			lines = append(lines, statusLine{y, lineBlank})
		case f == l.NameX:
			i := l.named(g, y, right)
			if i <= last || l.Rows[i].Group != blanks {
				return nil // unknown, twice, out of order, or in the other group
			}
			if fields++; fields > MaxStatusFields {
				return nil
			}
			last, wraps, seen = i, 0, seen|1<<i
			widest = max(widest, DisplayWidth(l.Rows[i].Name)+1)
			lines = append(lines, statusLine{y, i})
		case f > l.NameX && last >= 0 && (l.Rows[last].Wraps || l.Rows[last].Path) && lines[len(lines)-1].row != lineBlank:
			if wraps++; wraps > maxStatusWraps {
				return nil
			}
			lines = append(lines, statusLine{y, lineWrap})
		default:
			return nil
		}
	}
	if blanks != 1 || lines[len(lines)-1].row == lineBlank {
		return nil
	}
	for i, r := range l.Rows {
		if !r.Optional && seen&(1<<i) == 0 {
			return nil
		}
	}
	vx := l.NameX + widest + l.Gap
	out := &StatusPanel{Fields: make([]StatusField, 0, fields)}
	for k := 0; k < len(lines); k++ {
		ln := lines[k]
		if ln.row == lineBlank {
			continue
		}
		r := &l.Rows[ln.row]
		nx := l.NameX + DisplayWidth(r.Name) + 1 // past the colon
		if !g.Styled(ln.y, l.NameX, nx, l.Name) || FirstIn(g, ln.y, nx, vx) >= 0 || FirstIn(g, ln.y, vx, vx+1) != vx {
			return nil
		}
		value, ok := l.value(g, ln.y, vx, right, limit, r)
		if !ok {
			return nil
		}
		shown := value // the last row's text
		for ; k+1 < len(lines) && lines[k+1].row == lineWrap; k++ {
			y := lines[k+1].y
			if FirstIn(g, y, left, right) != vx {
				return nil
			}
			next, ok := l.value(g, y, vx, right, limit, r)
			if !ok {
				return nil
			}
			if r.Path && vx+DisplayWidth(shown) == limit {
				value, shown = value+next, next // broken where the row ended
				continue
			}
			word, _, _ := strings.Cut(next, " ")
			if vx+DisplayWidth(shown)+1+DisplayWidth(word) <= limit {
				return nil // the word would have fit: not a wrap
			}
			value, shown = value+" "+next, next
		}
		f := StatusField{Name: r.Name}
		if r.Carry == nil || r.Carry(value) {
			if utf8.RuneCountInString(value) > maxStatusValue {
				return nil
			}
			f.Value = value
		} else {
			f.Redacted = true
		}
		out.Fields = append(out.Fields, f)
	}
	return out
}

// named returns the index of the layout's row named on row y ("Name:"
// at the names' column, inside right), or -1.
func (l *StatusLayout) named(g *Grid, y, right int) int {
	for i := range l.Rows {
		if ok, at, _ := g.TextAt(y, l.NameX, l.Rows[i].Name); ok && at < right && g.Rune(at, y) == ':' {
			return i
		}
	}
	return -1
}

// value returns row y's value text from column vx, every cell of it in
// one of the values' styles (or all of it in the placeholder style and
// equal to r's placeholder), ending before column limit.
func (l *StatusLayout) value(g *Grid, y, vx, right, limit int, r *StatusRow) (string, bool) {
	end := LastIn(g, y, vx, right)
	if end < 0 || end >= limit {
		return "", false
	}
	text := g.Text(y, vx, end+1)
	valued, ph := true, r.Placeholder != "" && text == r.Placeholder
	vals, phs := NewStyleSet(l.Values), g.Match(l.Placeholder)
	for x := vx; x <= end && (valued || ph); x++ {
		c := g.Cell(x, y)
		if g.BlankCell(c) {
			continue
		}
		if valued && !g.InSet(&vals, c) {
			valued = r.Link && slices.Contains(l.Values, g.StyleOf(c).WithoutLink())
		}
		ph = ph && g.Matches(&phs, c)
	}
	return text, valued || ph
}

// FirstIn returns the first column of x0..x1-1 of row y showing
// something, or -1.
func FirstIn(g *Grid, y, x0, x1 int) int {
	if g.Blank(y) {
		return -1
	}
	for x := max(x0, g.First(y)); x < min(x1, g.Last(y)+1); x++ {
		if !g.BlankCell(g.Cell(x, y)) {
			return x
		}
	}
	return -1
}

// LastIn returns the last column of x0..x1-1 of row y showing
// something, or -1.
func LastIn(g *Grid, y, x0, x1 int) int {
	if g.Blank(y) {
		return -1
	}
	for x := min(x1, g.Last(y)+1) - 1; x >= max(x0, g.First(y)); x-- {
		if !g.BlankCell(g.Cell(x, y)) {
			return x
		}
	}
	return -1
}
