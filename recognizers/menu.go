package recognizers

import (
	"strconv"
	"strings"
)

// MenuLayout is where a numbered menu's columns are: the highlight glyph,
// the "N." number and the label. Each agent and surface has its own; a
// row is an option row only in exactly its layout.
type MenuLayout struct {
	Glyph  rune
	GlyphX int
	NumX   int
	LabelX int
	// painted: the current row is painted across (reverse video), so
	// spaces before its number may carry the highlight. Elsewhere they
	// must be plain spaces.
	Painted bool
}

// OptionAt reports whether row y is an option row of the layout: spaces up
// to the number except for the glyph cell (the glyph or a space), then
// "N." and a space. It returns N and whether the glyph is drawn.
func (l MenuLayout) OptionAt(g *Grid, y int) (num int, glyph, ok bool) {
	if g.Blank(y) || g.First(y) > l.NumX {
		return 0, false, false
	}
	painted := false
	for x := 0; x < l.NumX; x++ {
		c := g.Cell(x, y)
		if g.BlankCell(c) {
			continue
		}
		if isSpaceCell(c) {
			painted = true
			continue
		}
		if x != l.GlyphX || g.Rune(x, y) != l.Glyph {
			return 0, false, false
		}
		glyph = true
	}
	if painted && (!glyph || !l.Painted) {
		return 0, false, false
	}
	num = NumberAt(g, y, l.NumX)
	return num, glyph, num > 0
}

// NumberAt parses "N. " at column x of row y (N in 1..9), or returns 0.
func NumberAt(g *Grid, y, x int) int {
	d := g.Rune(x, y)
	if d < '1' || d > '9' || g.Rune(x+1, y) != '.' || !g.SpaceAt(x+2, y) {
		return 0
	}
	return int(d - '0')
}

// Continuation reports whether row y continues a wrapped label: blank
// before the label column, text at it.
func (l MenuLayout) Continuation(g *Grid, y int) bool {
	return !g.Blank(y) && g.First(y) == l.LabelX
}

// CheckOptionNumbers proves a menu's options are numbered 1..n in screen
// order, without gaps or duplicates.
func CheckOptionNumbers(opts []Option) []Reason { return checkNumbers(numbersOf(opts), rowsOf(opts)) }

// checkNumbers proves rows are numbered 1..n in screen order, without
// gaps or duplicates.
func checkNumbers(nums []int, rows []int) []Reason {
	var out []Reason
	seen := [10]bool{}
	for i, n := range nums {
		if seen[n] {
			out = append(out, NewReason(ReasonDuplicateOption, "number "+strconv.Itoa(n)+" again on row "+strconv.Itoa(rows[i])))
			continue
		}
		seen[n] = true
		if n != i+1 {
			out = append(out, NewReason(ReasonOutOfOrderOption, "row "+strconv.Itoa(rows[i])+" is "+strconv.Itoa(n)+", want "+strconv.Itoa(i+1)))
		}
	}
	return out
}

// CutShortcut splits Codex's trailing " (k)" shortcut off a label.
func CutShortcut(label string) (string, string) {
	if !strings.HasSuffix(label, ")") {
		return label, ""
	}
	i := strings.LastIndex(label, " (")
	if i < 0 {
		return label, ""
	}
	key := label[i+2 : len(label)-1]
	if key == "" || strings.ContainsAny(key, " ()") || len(key) > 5 {
		return label, ""
	}
	return label[:i], key
}

// FreeTextLookalikes names each model-supplied option whose label reads
// as one of labels (a native or derived free-text row's): compared
// without case, surrounding spaces, a trailing "." or "…", and a
// " (Recommended)" suffix. Its digit submits the literal label, which a
// controller may take for the free-text answer.
func FreeTextLookalikes(opts []Option, labels []string) []Reason {
	var out []Reason
	for _, o := range opts {
		for _, l := range labels {
			if labelKey(o.Label) == labelKey(l) {
				out = append(out, NewReason(ReasonFreeTextLookalike, "row "+strconv.Itoa(o.Row)))
				break
			}
		}
	}
	return out
}

func labelKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSpace(strings.TrimSuffix(s, "(recommended)"))
	s = strings.TrimRight(s, ".…")
	return strings.Join(strings.Fields(s), " ")
}

// DigitKey is the key that selects row n of a menu.
func DigitKey(n int) []byte { return []byte{byte('0' + n)} }

func itoa(n int) string { return strconv.Itoa(n) }

func numbersOf(opts []Option) []int {
	out := make([]int, len(opts))
	for i, o := range opts {
		out[i] = o.Number
	}
	return out
}

func rowsOf(opts []Option) []int {
	out := make([]int, len(opts))
	for i, o := range opts {
		out[i] = o.Row
	}
	return out
}
