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
// one blank row between. What a version draws is its statusLayout: the
// row names in the order its recordings show them, which of them a
// recording leaves out or wraps, their styles, and what akk carries of
// each value. Where the rows sit (Claude's modal panel, Codex's card in
// the history) is claude_status.go's and codex_status.go's.
//
// A row whose name the layout does not list, a name out of order or
// twice, a row the recordings always show missing, a second blank row, a
// continuation row under a value no recording shows wrapped, a value off
// its column or in another style: no result (nil), never a partial one.

// Bounds of a status result: a longer one gives no result, never a cut.
const (
	maxStatusFields = 32
	maxStatusName   = 40  // runes; every layout's names are within it (TestStatusLayoutBounds)
	maxStatusValue  = 200 // runes of a value carried
	maxStatusWraps  = 8   // continuation rows of one value
	maxStatusRows   = 64  // rows from a result's first to its last
)

// statusLayout is how one version draws its status rows.
type statusLayout struct {
	rows  []statusRow // in the order they are drawn
	nameX int         // the names' column
	// gap is the columns between the longest name's colon and the
	// values' column: the values' column follows the longest name drawn,
	// not a fixed column (Claude Code 2.1.267 puts them at 31 with its
	// "Managed settings (remote):" row, at 25 without it).
	gap int
	// name is the style of a name and its colon; values are the styles
	// a value's cells may have; placeholder a placeholder value's.
	name        vt.Style
	values      []vt.Style
	placeholder vt.Style
}

// statusRow is one row a version's status result may show.
type statusRow struct {
	name  string // as drawn, without its colon
	group int    // 0 above the blank row, 1 below it
	// optional: a recording of the version shows the result without it.
	optional bool
	// wraps: a recording shows its value wrapped onto rows of its own at
	// the values' column, a word that would not fit starting the next
	// row; the rows are joined with one space.
	wraps bool
	// path: its value is a path, which the agent breaks wherever the row
	// ends when it does not fit (status-cwd120): a row filled to the
	// limit goes on on the next row with nothing in between; a row that
	// ends short of it is a word wrap, as for wraps.
	path bool
	// link: its value's cells may carry an OSC 8 link (the text drawn is
	// the value; the link's target is not read).
	link bool
	// placeholder is the value drawn in the layout's placeholder style
	// when there is none (Claude's "/rename to add a name").
	placeholder string
	// carry says whether akk carries a value drawn in the row; nil
	// carries every value. A value not carried is Redacted.
	carry func(value string) bool
}

// carryNever withholds the row's value whatever it is.
func carryNever(string) bool { return false }

// carryOneOf carries exactly the values listed (the non-secret values
// the recordings show): any other value is withheld, as it may be a
// credential.
func carryOneOf(vals ...string) func(string) bool {
	return func(v string) bool { return slices.Contains(vals, v) }
}

// carryOrigin carries an http or https origin, "scheme://host[:port]"
// with an optional "/", as the recordings show; a URL with user
// information, a path, a query or a fragment could carry a credential
// and is withheld.
func carryOrigin(v string) bool {
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
	y, row int // row: index in statusLayout.rows; lineBlank, lineWrap
}

const (
	lineBlank = -1
	lineWrap  = -2
)

// parse reads rows top to end-1 as the whole result, within columns left
// to right-1 (a box's inside); a value must end before column limit. It
// returns nil unless every row is one the layout knows, in its place.
func (l *statusLayout) parse(g *grid, top, end, left, right, limit int) *StatusPanel {
	defer g.enter("statusLayout.parse")()
	if end-top > maxStatusRows || end <= top {
		return nil
	}
	lines := make([]statusLine, 0, end-top)
	widest, fields, blanks, last, wraps := 0, 0, 0, -1, 0
	var seen uint64
	for y := top; y < end; y++ {
		switch f := firstIn(g, y, left, right); {
		case f < 0:
			if blanks++; blanks > 1 || last < 0 {
				return nil
			}
			lines = append(lines, statusLine{y, lineBlank})
		case f == l.nameX:
			i := l.named(g, y, right)
			if i <= last || l.rows[i].group != blanks {
				return nil // unknown, twice, out of order, or in the other group
			}
			if fields++; fields > maxStatusFields {
				return nil
			}
			last, wraps, seen = i, 0, seen|1<<i
			widest = max(widest, displayWidth(l.rows[i].name)+1)
			lines = append(lines, statusLine{y, i})
		case f > l.nameX && last >= 0 && (l.rows[last].wraps || l.rows[last].path) && lines[len(lines)-1].row != lineBlank:
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
	for i, r := range l.rows {
		if !r.optional && seen&(1<<i) == 0 {
			return nil
		}
	}
	vx := l.nameX + widest + l.gap
	out := &StatusPanel{Fields: make([]StatusField, 0, fields)}
	for k := 0; k < len(lines); k++ {
		ln := lines[k]
		if ln.row == lineBlank {
			continue
		}
		r := &l.rows[ln.row]
		nx := l.nameX + displayWidth(r.name) + 1 // past the colon
		if !g.styled(ln.y, l.nameX, nx, l.name) || firstIn(g, ln.y, nx, vx) >= 0 || firstIn(g, ln.y, vx, vx+1) != vx {
			return nil
		}
		value, ok := l.value(g, ln.y, vx, right, limit, r)
		if !ok {
			return nil
		}
		shown := value // the last row's text
		for ; k+1 < len(lines) && lines[k+1].row == lineWrap; k++ {
			y := lines[k+1].y
			if firstIn(g, y, left, right) != vx {
				return nil
			}
			next, ok := l.value(g, y, vx, right, limit, r)
			if !ok {
				return nil
			}
			if r.path && vx+displayWidth(shown) == limit {
				value, shown = value+next, next // broken where the row ended
				continue
			}
			word, _, _ := strings.Cut(next, " ")
			if vx+displayWidth(shown)+1+displayWidth(word) <= limit {
				return nil // the word would have fit: not a wrap
			}
			value, shown = value+" "+next, next
		}
		f := StatusField{Name: r.name}
		if r.carry == nil || r.carry(value) {
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
func (l *statusLayout) named(g *grid, y, right int) int {
	for i := range l.rows {
		if ok, at, _ := g.textAt(y, l.nameX, l.rows[i].name); ok && at < right && g.ch(at, y) == ':' {
			return i
		}
	}
	return -1
}

// value returns row y's value text from column vx, every cell of it in
// one of the values' styles (or all of it in the placeholder style and
// equal to r's placeholder), ending before column limit.
func (l *statusLayout) value(g *grid, y, vx, right, limit int, r *statusRow) (string, bool) {
	end := lastIn(g, y, vx, right)
	if end < 0 || end >= limit {
		return "", false
	}
	text := g.text(y, vx, end+1)
	valued, ph := true, r.placeholder != "" && text == r.placeholder
	vals, phs := newStyleSet(l.values), g.match(l.placeholder)
	for x := vx; x <= end && (valued || ph); x++ {
		c := g.cell(x, y)
		if g.blankCell(c) {
			continue
		}
		if valued && !g.inSet(&vals, c) {
			valued = r.link && slices.Contains(l.values, g.styleOf(c).WithoutLink())
		}
		ph = ph && g.is(&phs, c)
	}
	return text, valued || ph
}

// firstIn returns the first column of x0..x1-1 of row y showing
// something, or -1.
func firstIn(g *grid, y, x0, x1 int) int {
	if g.blank(y) {
		return -1
	}
	for x := max(x0, g.first(y)); x < min(x1, g.last(y)+1); x++ {
		if !g.blankCell(g.cell(x, y)) {
			return x
		}
	}
	return -1
}

// lastIn returns the last column of x0..x1-1 of row y showing
// something, or -1.
func lastIn(g *grid, y, x0, x1 int) int {
	if g.blank(y) {
		return -1
	}
	for x := min(x1, g.last(y)+1) - 1; x >= max(x0, g.first(y)); x-- {
		if !g.blankCell(g.cell(x, y)) {
			return x
		}
	}
	return -1
}
