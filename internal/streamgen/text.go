package streamgen

// Text operations: printable ASCII, UTF-8 of every width, and broken UTF-8.

const asciiLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
const asciiPunct = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// Character pools. Widths are glibc's wcwidth in C.UTF-8, which tmux 3.3a
// uses; the comparison, not this list, decides who is right.
var (
	wideChars = []string{
		"世", "界", "中", "文", "漢", "字", "한", "국", "あ", "カ", "Ａ", "ｚ", "　", "〜",
		"🎉", "😀", "👍", "🚀", "🦀", "🏽", "⌚", "☕", "♈", "🀄",
	}
	combiningMarks = []string{
		"\u0301", "\u0308", "\u0327", "\u20dd", "\u0489", "\u05b0", "\u093f", "\u0e31",
		"\ufe0f", "\ufe0e", "\u200b", "\u1160", "\U000e0020", "\U000e0101",
	}
	narrowChars = []string{
		"é", "ß", "Ω", "ж", "щ", "ñ", "─", "│", "┌", "┘", "→", "€", "£", "°", "±", "·", "…",
		"✓", "★", "☺", "\u00ad", "\ue000", "ℕ", "ﬁ", "ǅ",
	}
	unprintableChars = []string{
		"\u0085", "\u009b", "\u0378", "\u0530", "\U000e0080", "\U000ffffe", "\U0010ffff",
		"\U0003134b", "\ufdd0",
	}
	brokenUTF8 = []string{
		"\x80", "\xbf", "\xc3(", "\xc3", "\xe4\xb8", "\xe4\xb8A", "\xf0\x9f\x8e", "\xc0\xaf",
		"\xe0\x80\xaf", "\xf5\x80\x80\x80", "\xff", "\xfe", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xe4\n", "\xe4\xb8\x1b[1m\x96", "\xc3\x1b7\xa9", "\xe4\xb8\xe4\xb8\x96", "A\xffB\xc3(C",
	}
	joinerSeqs = []string{
		"👨\u200d👩\u200d👧", "👩\u200d💻", "a\u200db", "\u200d", "\u200dx", "🏳\ufe0f\u200d🌈",
		"x\u200d\r", "世\u200d界", "e\u200d\u0301",
	}
)

// printable writes a run of printable ASCII: a word, a line, or a long run
// that wraps.
func (g *gen) printable() {
	n := pick(g, 1, 2, 3, 5, 8, 13, g.w, g.w+1, 2*g.w+3)
	for range n {
		if g.chance(1, 6) {
			g.bytes(asciiPunct[g.r.IntN(len(asciiPunct))])
		} else {
			g.bytes(asciiLetters[g.r.IntN(len(asciiLetters))])
		}
	}
}

func (g *gen) wide() {
	for range 1 + g.r.IntN(4) {
		g.str(pick(g, wideChars...))
		if g.chance(1, 3) {
			g.bytes(asciiLetters[g.r.IntN(len(asciiLetters))])
		}
	}
}

// combining writes marks after a base, after a wide base, or on their own
// (they then join whatever is left of the cursor, or vanish at column 0).
func (g *gen) combining() {
	switch g.r.IntN(3) {
	case 0:
		g.bytes(asciiLetters[g.r.IntN(len(asciiLetters))])
	case 1:
		g.str(pick(g, wideChars...))
	}
	for range 1 + g.r.IntN(3) {
		g.str(pick(g, combiningMarks...))
	}
	if g.chance(1, 20) {
		// Enough marks to overflow tmux's 21-byte cell.
		for range 8 {
			g.str("\u0301")
		}
	}
}

func (g *gen) joiner()      { g.str(pick(g, joinerSeqs...)) }
func (g *gen) narrow()      { g.str(pick(g, narrowChars...)) }
func (g *gen) unprintable() { g.str(pick(g, unprintableChars...)) }
func (g *gen) broken()      { g.str(pick(g, brokenUTF8...)) }

// CharacterPools returns the non-ASCII characters the generator draws from,
// for tests that check each of them (a width table, for one).
func CharacterPools() []string {
	var out []string
	for _, pool := range [][]string{wideChars, combiningMarks, narrowChars, unprintableChars, joinerSeqs} {
		out = append(out, pool...)
	}
	return out
}
