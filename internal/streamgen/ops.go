package streamgen

import "strings"

// opTable lists every operation with its weight. Text dominates, as in
// real output; each sequence family is frequent enough that seeds 1..300
// exercise all of them.
var opTable = []struct {
	weight int
	fam    Family
	kind   opKind
	fn     func(*gen)
}{
	{40, Printable, kindText, (*gen).printable},
	{8, Wide, kindText, (*gen).wide},
	{5, Combining, kindText, (*gen).combining},
	{3, Joiner, kindText, (*gen).joiner},
	{4, NarrowUTF8, kindText, (*gen).narrow},
	{2, Unprintable, kindText, (*gen).unprintable},
	{3, BrokenUTF8, kindText, (*gen).broken},

	{4, BS, kindSeq, func(g *gen) { g.str("\b") }},
	{4, HT, kindSeq, func(g *gen) { g.str("\t") }},
	{10, LF, kindSeq, func(g *gen) { g.str(strings.Repeat("\n", pick(g, 1, 1, 1, 2, g.h+1))) }},
	{2, VT, kindSeq, func(g *gen) { g.str("\v") }},
	{2, FF, kindSeq, func(g *gen) { g.str("\f") }},
	{8, CR, kindSeq, func(g *gen) { g.str(pick(g, "\r", "\r\n", "\r\n", "\n\r")) }},
	{2, SO, kindSeq, func(g *gen) { g.str("\x0e") }},
	{2, SI, kindSeq, func(g *gen) { g.str("\x0f") }},
	{2, OtherC0, kindSeq, func(g *gen) {
		g.str(pick(g, "\x00", "\a", "\x01", "\x05", "\x06", "\x10", "\x11", "\x19", "\x1c", "\x1f", "\x7f"))
	}},

	{3, CUU, kindSeq, func(g *gen) { g.csi(g.count(), "A") }},
	{3, CUD, kindSeq, func(g *gen) { g.csi(g.count(), "B") }},
	{3, CUF, kindSeq, func(g *gen) { g.csi(g.count(), "C") }},
	{3, CUB, kindSeq, func(g *gen) { g.csi(g.count(), "D") }},
	{2, CNL, kindSeq, func(g *gen) { g.csi(g.count(), "E") }},
	{2, CPL, kindSeq, func(g *gen) { g.csi(g.count(), "F") }},
	{3, CHA, kindSeq, func(g *gen) { g.csi(g.coord(g.w), "G") }},
	{6, CUP, kindSeq, func(g *gen) { g.csi(g.position(), "H") }},
	{2, HVP, kindSeq, func(g *gen) { g.csi(g.position(), "f") }},
	{3, VPA, kindSeq, func(g *gen) { g.csi(g.coord(g.h), "d") }},
	{2, HPA, kindSeq, func(g *gen) { g.csi(g.coord(g.w), "`") }},

	{3, ED, kindSeq, func(g *gen) { g.csi(pick(g, "", "0", "1", "2", "2", "3", "3;0", "3;1", "4"), "J") }},
	{5, EL, kindSeq, func(g *gen) { g.csi(pick(g, "", "0", "1", "2", "3"), "K") }},
	{3, ECH, kindSeq, func(g *gen) { g.csi(g.count(), "X") }},
	{3, ICH, kindSeq, func(g *gen) { g.csi(g.count(), "@") }},
	{3, DCH, kindSeq, func(g *gen) { g.csi(g.count(), "P") }},
	{3, IL, kindSeq, func(g *gen) { g.csi(g.count(), "L") }},
	{3, DL, kindSeq, func(g *gen) { g.csi(g.count(), "M") }},
	{2, SU, kindSeq, func(g *gen) { g.csi(g.count(), "S") }},
	{2, SD, kindSeq, func(g *gen) { g.csi(g.count(), "T") }},
	{3, REP, kindSeq, (*gen).rep},

	{3, DECSTBM, kindSeq, (*gen).decstbm},
	{2, IND, kindSeq, func(g *gen) { g.esc("D") }},
	{3, RI, kindSeq, func(g *gen) { g.esc("M") }},
	{2, NEL, kindSeq, func(g *gen) { g.esc("E") }},
	{2, DECSC, kindSeq, func(g *gen) { g.esc("7") }},
	{2, DECRC, kindSeq, func(g *gen) { g.esc("8") }},
	{2, HTS, kindSeq, func(g *gen) { g.esc("H") }},
	{2, TBC, kindSeq, func(g *gen) { g.csi(pick(g, "", "0", "3", "2"), "g") }},
	{2, CHT, kindSeq, func(g *gen) { g.csi(g.count(), "I") }},
	{2, CBT, kindSeq, func(g *gen) { g.csi(g.count(), "Z") }},

	{12, SGR, kindSeq, (*gen).sgr},
	{5, SGRColon, kindSeq, (*gen).sgrColon},
	{6, SGRExtended, kindSeq, (*gen).sgrExtended},

	{1, DECCKM, kindSeq, func(g *gen) { g.decset("1") }},
	{2, DECOM, kindSeq, func(g *gen) { g.decset("6") }},
	{2, DECAWM, kindSeq, func(g *gen) { g.decset("7") }},
	{2, DECTCEM, kindSeq, func(g *gen) { g.decset("25") }},
	{1, Alt47, kindSeq, func(g *gen) { g.decset("47") }},
	{1, Alt1047, kindSeq, func(g *gen) { g.decset("1047") }},
	{1, Save1048, kindSeq, func(g *gen) { g.decset("1048") }},
	{2, Alt1049, kindSeq, func(g *gen) { g.decset("1049") }},
	{1, BracketedPaste, kindSeq, func(g *gen) { g.decset("2004") }},
	{1, Mouse, kindSeq, func(g *gen) { g.decset(pick(g, "1000", "1001", "1002", "1003", "1005", "1006")) }},
	{1, Focus, kindSeq, func(g *gen) { g.decset("1004") }},
	{1, SyncUpdate, kindSeq, func(g *gen) { g.decset("2026") }},
	{2, IRM, kindSeq, func(g *gen) { g.csi(pick(g, "4", "4", "4;20", "20;4", "34"), pick(g, "h", "l")) }},
	{3, DECGraphics, kindSeq, (*gen).decGraphics},
	{1, RIS, kindSeq, func(g *gen) { g.esc("c") }},
	{1, DECSTR, kindSeq, func(g *gen) { g.csi("!", "p") }},

	{1, Title, kindSeq, (*gen).title},
	{2, Hyperlink, kindSeq, (*gen).hyperlink},
	{1, OtherOSC, kindSeq, func(g *gen) { g.str(pick(g, otherOSC...)) }},
	{3, UnknownCSI, kindSeq, func(g *gen) { g.str(pick(g, unknownCSI...)) }},
	{1, UnknownESC, kindSeq, func(g *gen) { g.str(pick(g, unknownESC...)) }},
	{2, Interrupted, kindSeq, func(g *gen) { g.str(pick(g, interrupted...)) }},
	{1, Oversized, kindSeq, (*gen).oversized},
	{1, DCS, kindSeq, (*gen).dcs},
	{1, APC, kindSeq, (*gen).apc},
	{1, PMSOS, kindSeq, (*gen).pmsos},
	{1, ScreenTitle, kindSeq, (*gen).screenTitle},
	{1, DECALN, kindSeq, func(g *gen) { g.esc("#8") }},
	{1, DECCOLM, kindSeq, func(g *gen) { g.decset("3") }},
	{1, SaveRestoreCSI, kindSeq, func(g *gen) { g.csi(pick(g, "", "", "1"), pick(g, "s", "u")) }},
	{4, WideEdit, kindSeq, (*gen).wideEdit},
	{4, PendingWrap, kindSeq, (*gen).pendingWrap},
}

// wideEdit writes a run of wide characters from some column, puts the
// cursor on the left or right half of one of them, and edits there: the
// places where terminals most often disagree about wide characters.
func (g *gen) wideEdit() {
	g.csi(g.coord(g.w), "G")
	n := 1 + g.r.IntN(4)
	for range n {
		g.str(pick(g, wideChars...))
	}
	switch g.r.IntN(3) {
	case 0:
		g.str(strings.Repeat("\b", 1+g.r.IntN(2*n)))
	case 1:
		g.csi(itoa(1+g.r.IntN(2*n)), "D")
	default:
		g.csi(g.coord(g.w), "G")
	}
	switch g.r.IntN(12) {
	case 0:
		g.bytes(asciiLetters[g.r.IntN(len(asciiLetters))])
	case 1:
		g.str(pick(g, narrowChars...))
	case 2:
		g.str(pick(g, wideChars...))
	case 3:
		g.str(pick(g, combiningMarks...))
	case 4:
		g.csi(g.count(), pick(g, "@", "P", "X"))
	case 5:
		g.csi(pick(g, "", "1", "2"), "K")
	case 6:
		g.csi(pick(g, "", "1"), "J")
	case 7:
		g.csi("4", "h")
		g.str(pick(g, "x", "é", "世"))
		g.csi("4", "l")
	case 8:
		g.str("\x1b(0q\x1b(B")
	case 9:
		g.str(pick(g, joinerSeqs...))
	case 10:
		g.csi(itoa(1+g.r.IntN(3)), "b")
	default:
		g.str("\x1b[?7l" + pick(g, wideChars...) + "\x1b[?7h")
	}
}

// pendingWrap fills a row to its last column, ending in a pending wrap,
// with narrow or wide characters; what follows is the next operation.
func (g *gen) pendingWrap() {
	k := 1 + g.r.IntN(min(g.w, 4))
	g.csi(itoa(g.w-k+1), "G")
	for k > 0 {
		if k >= 2 && g.chance(1, 3) {
			g.str(pick(g, wideChars...))
			k -= 2
		} else {
			g.bytes(asciiLetters[g.r.IntN(len(asciiLetters))])
			k--
		}
	}
}

// position returns CUP/HVP parameters in every form: none, row only,
// column only, both, one too many.
func (g *gen) position() string {
	row, col := g.coord(g.h), g.coord(g.w)
	switch g.r.IntN(10) {
	case 0:
		return ""
	case 1:
		return row
	case 2:
		return ";" + col
	case 3:
		return row + ";" + col + ";" + g.count()
	default:
		return row + ";" + col
	}
}

// rep repeats the last character, often right after printing one (REP
// only repeats an ASCII character printed just before it).
func (g *gen) rep() {
	if g.chance(2, 3) {
		g.bytes(asciiLetters[g.r.IntN(len(asciiLetters))])
	}
	g.csi(g.count(), "b")
}

func (g *gen) decstbm() {
	top, bottom := g.coord(g.h), g.coord(g.h)
	switch g.r.IntN(8) {
	case 0:
		g.csi("", "r")
	case 1:
		g.csi(top, "r")
	case 2:
		g.csi(";"+bottom, "r")
	default:
		g.csi(top+";"+bottom, "r")
	}
}

// decset sets or resets a private mode, sometimes together with another.
func (g *gen) decset(mode string) {
	params := "?" + mode
	if g.chance(1, 6) {
		params += ";" + pick(g, "25", "7", "1", "2004", "12")
	}
	g.csi(params, pick(g, "h", "l"))
}

func (g *gen) decGraphics() {
	g.str(pick(g, "\x1b(0", "\x1b(0", "\x1b(B", "\x1b)0", "\x1b)B", "\x1b(A", "\x1b(1", "\x1b*0", "\x1b(<", "\x1b(%5"))
	if g.chance(2, 3) {
		for range 1 + g.r.IntN(6) {
			g.bytes("lqkxmjtuvwn`afg~{|}+,-.0ABC "[g.r.IntN(28)])
		}
	}
}

func (g *gen) sgr() {
	codes := []string{
		"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "22", "23", "24", "25", "27",
		"28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "39", "40", "41", "42", "43",
		"44", "45", "46", "47", "49", "53", "55", "59", "90", "91", "92", "93", "94", "95",
		"96", "97", "100", "101", "102", "103", "104", "105", "106", "107", "", "10", "20",
		"26", "50", "51", "60", "73",
	}
	n := g.r.IntN(5)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = pick(g, codes...)
	}
	g.csi(strings.Join(parts, ";"), "m")
}

func (g *gen) sgrColon() {
	forms := []string{
		"4:0", "4:1", "4:2", "4:3", "4:4", "4:5", "4:6", "4:", "4:3:1",
		"38:5:" + g.colourIndex(), "48:5:" + g.colourIndex(), "58:5:" + g.colourIndex(),
		"38:2::" + g.rgb(":"), "38:2:" + g.rgb(":"), "38:2:0:" + g.rgb(":"),
		"48:2::" + g.rgb(":"), "58:2::" + g.rgb(":"), "58:2:" + g.rgb(":"),
		"38:2::300:1:1", "38:5", "38:2::1:2", "1:2", "38:5:1:2:3:4:5:6:7:8", "0:1",
	}
	s := pick(g, forms...)
	if g.chance(1, 3) {
		s = pick(g, "1;", "0;", "31;", "4;") + s + pick(g, "", ";7", ";39")
	}
	g.csi(s, "m")
}

func (g *gen) sgrExtended() {
	var s string
	switch g.r.IntN(6) {
	case 0, 1:
		s = pick(g, "38", "48", "58") + ";5;" + g.colourIndex()
	case 2, 3:
		s = pick(g, "38", "48", "58") + ";2;" + g.rgb(";")
	case 4:
		s = pick(g, "38;5", "48;5", "38;2;1;2", "38;2;256;0;0;1", "48;5;300;4", "38;5;;1", "58;2;;1;2;3")
	default:
		s = "1;38;5;" + g.colourIndex() + ";48;2;" + g.rgb(";") + ";4"
	}
	g.csi(s, "m")
}

func (g *gen) colourIndex() string {
	switch g.r.IntN(10) {
	case 0:
		return ""
	case 1:
		return "256"
	case 2, 3, 4:
		return itoa(g.r.IntN(16))
	default:
		return itoa(g.r.IntN(256))
	}
}

func (g *gen) rgb(sep string) string {
	c := func() string {
		if g.chance(1, 30) {
			return pick(g, "", "256")
		}
		return itoa(g.r.IntN(256))
	}
	return c() + sep + c() + sep + c()
}

func (g *gen) title() {
	g.str(pick(g, "\x1b]0;", "\x1b]2;"))
	g.str(pick(g, "", "shell", "vim — a.go", "世界", "x|y", "long title with spaces"))
	g.str(pick(g, "\a", "\x1b\\"))
}

func (g *gen) hyperlink() {
	g.str("\x1b]8;" + pick(g, "", "id=a", "id=b:x=1") + ";https://example.com/" + itoa(g.r.IntN(5)))
	g.st()
	if g.chance(3, 4) {
		g.printable()
		g.str("\x1b]8;;")
		g.st()
	}
}

func (g *gen) oversized() {
	switch g.r.IntN(4) {
	case 0: // around tmux's 24-parameter limit
		n := pick(g, 22, 23, 24, 25, 40)
		g.csi(strings.Repeat("1;", n-1)+"4", "m")
	case 1: // around the 63-byte parameter buffer
		g.csi(strings.Repeat("0", pick(g, 55, 60, 61, 62, 63, 64, 70))+"5", pick(g, "C", "B", "m"))
	case 2: // above INT_MAX
		g.csi(pick(g, "2147483647", "2147483648", "99999999999"), pick(g, "A", "C", "L", "m"))
	default: // too many intermediates
		g.str(pick(g, "\x1b[1 !\"#p", "\x1b(((0", "\x1b[ !\"q", "\x1b[?1$ h"))
	}
}

func (g *gen) dcs() {
	body := pick(g, "1$r0m", "q#0;2;0;0;0#0~~@@", "+q544e", "tmux;\x1b\x1b[31mX", "0;1|17/ab",
		"foo\x1b[31mbar", "$qm", "\a\x18\x1a", "1;2;3abc")
	g.str("\x1bP" + body)
	if g.chance(9, 10) {
		g.str("\x1b\\")
	} // else: unterminated, it swallows everything up to the next ESC \.
}

func (g *gen) apc() {
	g.str("\x1b_" + pick(g, "Gf=100;AAAA", "title", "x\ay", ""))
	if g.chance(9, 10) {
		g.str("\x1b\\")
	}
}

func (g *gen) pmsos() {
	g.str(pick(g, "\x1b^", "\x1bX") + pick(g, "privacy", "a\ab", "\x1b[31mX"))
	g.str("\x1b\\")
}

func (g *gen) screenTitle() {
	g.str("\x1bk" + pick(g, "name", "", "bel\aname", "世界"))
	g.str("\x1b\\")
}

var otherOSC = []string{
	"\x1b]4;1;rgb:ff/00/00\a", "\x1b]10;?\a", "\x1b]11;#000000\x1b\\", "\x1b]52;c;aGk=\a",
	"\x1b]104\a", "\x1b]133;A\a", "\x1b]777;notify;a;b\a", "\x1b]1337;SetMark\a",
	"\x1b]12;red\a", "\x1b]9;hi\a", "\x1b]1;icon\a", "\x1b]3;x=y\a", "\x1b]L\a", "\x1b]\a",
	"\x1b]112\a", "\x1b]0", // the last one is unterminated: text continues the OSC
}

var unknownCSI = []string{
	"\x1b[c", "\x1b[0c", "\x1b[>c", "\x1b[>0c", "\x1b[5n", "\x1b[6n", "\x1b[?6n", "\x1b[?25$p",
	"\x1b[2$p", "\x1b[>q", "\x1b[>0q", "\x1b[2 q", "\x1b[ q", "\x1b[22;0t", "\x1b[23;0t",
	"\x1b[18t", "\x1b[14t", "\x1b[8;24;80t", "\x1b[>4;1m", "\x1b[>4;2m", "\x1b[>4n", "\x1b[>1u",
	"\x1b[<u", "\x1b[=1;1u", "\x1b[?u", "\x1b[5x", "\x1b[?5W", "\x1b[1;2y", "\x1b[?2J",
	"\x1b[?1K", "\x1b[?1;2;3$y", "\x1b[3y", "\x1b[12h", "\x1b[?12h", "\x1b[?12l", "\x1b[?5h",
	"\x1b[?9h", "\x1b[?1015h", "\x1b[?2027h", "\x1b[?69h", "\x1b[?1049s", "\x1b[ @", "\x1b[ A",
	"\x1b[20h", "\x1b[?2026$p", "\x1b[>5;1t", "\x1b[1;2:3H", "\x1b[2:1J", "\x1b[=c",
}

var unknownESC = []string{
	"\x1bZ", "\x1b#3", "\x1b#4", "\x1b#5", "\x1b#6", "\x1b%G", "\x1b%@", "\x1b n", "\x1b F",
	"\x1b=", "\x1b>", "\x1bN", "\x1bO", "\x1bV", "\x1bW", "\x1bl", "\x1bm", "\x1b6", "\x1b9",
	"\x1bF", "\x1b\\", "\x1b\x7fD", "\x1b\xc3\xa9", "\x1b\x80M",
}

var interrupted = []string{
	"\x1b[3\x18A", "\x1b[3\x1aB", "\x1b[1;\x1b[2J", "\x1b[2\nA", "\x1b[5\bD", "\x1b]0;ti\x18tle",
	"\x1b(\x18", "\x1b\x18", "\x1b[?\x1b[1m", "\x1b]8;;u\x1b[31m", "\x1bP1$r\x18abc\x1b\\",
	"\x1b[1\x7f;2H", "\x1b[2\r3C", "\x1b#\x1b8", "\x1b[4\x00m",
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
