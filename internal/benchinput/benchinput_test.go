package benchinput

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// scan walks an agent stream the way a terminal would, without any screen:
// it counts printed characters, wide ones among them, and the cells printed
// between SGR changes.
type scan struct {
	glyphs, wide int
	sgrs         int
	runs         []int // cells printed between two SGRs on the same row
	seqs         map[string]int
	maxCol       int // the highest column reached on any row (1-based)
}

// isWide classifies the generator's wide ranges independently of its code.
func isWide(c rune) bool {
	return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x1f300 && c <= 0x1faff)
}

func scanAgent(t *testing.T, b []byte) scan {
	t.Helper()
	sc := scan{seqs: map[string]int{}}
	col, run := 0, -1 // run < 0: no SGR yet on this row
	for i := 0; i < len(b); {
		if b[i] == 0x1b {
			if i+1 >= len(b) || b[i+1] != '[' {
				t.Fatalf("offset %d: escape other than CSI", i)
			}
			j := i + 2
			for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
				j++
			}
			if j >= len(b) {
				t.Fatalf("offset %d: unterminated CSI", i)
			}
			seq := string(b[i : j+1])
			switch final := b[j]; {
			case final == 'm':
				sc.sgrs++
				if run >= 0 {
					sc.runs = append(sc.runs, run)
				}
				run = 0
				switch {
				case strings.Contains(seq, "38;5;"), strings.Contains(seq, "48;5;"):
					sc.seqs["sgr256"]++
				}
				switch {
				case strings.Contains(seq, "38;2;"), strings.Contains(seq, "48;2;"):
					sc.seqs["sgrRGB"]++
				}
				switch seq {
				case "\x1b[1m":
					sc.seqs["bold"]++
				case "\x1b[3m":
					sc.seqs["italic"]++
				case "\x1b[0m", "\x1b[m":
					sc.seqs["reset"]++
				}
			case final == 'H':
				sc.seqs["cup"]++
				col, run = 0, -1
			case seq == "\x1b[K":
				sc.seqs["el"]++
			case seq == "\x1b[?25l":
				sc.seqs["hide"]++
			case seq == "\x1b[?25h":
				sc.seqs["show"]++
			case seq == "\x1b[2J":
				sc.seqs["ed"]++
			default:
				t.Fatalf("offset %d: unexpected sequence %q", i, seq)
			}
			i = j + 1
			continue
		}
		if b[i] < 0x20 || b[i] == 0x7f {
			t.Fatalf("offset %d: control character %#x", i, b[i])
		}
		c, size := utf8.DecodeRune(b[i:])
		if c == utf8.RuneError {
			t.Fatalf("offset %d: invalid UTF-8", i)
		}
		w := 1
		if isWide(c) {
			w = 2
			sc.wide++
		}
		if c >= 0x2500 && c <= 0x257f {
			sc.seqs["box"]++
		}
		sc.glyphs++
		col += w
		if run >= 0 {
			run += w
		}
		sc.maxCol = max(sc.maxCol, col)
		i += size
	}
	return sc
}

func TestAgent(t *testing.T) {
	b := Agent(2 << 20)
	if len(b) > 2<<20 || len(b) < 2<<20-64 {
		t.Fatalf("len = %d, want just under %d", len(b), 2<<20)
	}
	if !utf8.Valid(b) {
		t.Fatal("agent stream is not valid UTF-8")
	}
	sc := scanAgent(t, b)
	frac := float64(sc.wide) / float64(sc.glyphs)
	t.Logf("%d bytes: %d characters, %.2f%% wide, %d SGRs, %v", len(b), sc.glyphs, 100*frac, sc.sgrs, sc.seqs)
	if frac < WideFraction-0.01 || frac > WideFraction+0.01 {
		t.Errorf("wide characters: %.2f%%, want %.0f%% ± 1", 100*frac, 100*WideFraction)
	}
	for _, k := range []string{"cup", "el", "hide", "show", "bold", "italic", "reset", "sgr256", "sgrRGB", "box"} {
		if sc.seqs[k] == 0 {
			t.Errorf("the stream has no %s", k)
		}
	}
	if sc.maxCol > Width {
		t.Errorf("a row reaches column %d, past the screen's %d", sc.maxCol, Width)
	}
	// A CUP per row: 40 per frame, plus the cursor placement at its end.
	frames := sc.seqs["hide"]
	if got := sc.seqs["cup"]; got < frames*(Height+1)-Height-1 {
		t.Errorf("%d CUPs for %d frames, want %d per frame", got, frames, Height+1)
	}
	// SGR changes every 3 to 8 cells: every run between two SGRs on a row
	// is 3..8 cells, except that the last one before a row ends may be
	// shorter (or the row's last SGR was followed by a CUP).
	short := 0
	for _, n := range sc.runs {
		if n > 8 {
			t.Fatalf("%d cells between two SGRs", n)
		}
		if n < 3 {
			short++
		}
	}
	if short > len(sc.runs)/10 {
		t.Errorf("%d of %d SGR runs are under 3 cells", short, len(sc.runs))
	}
}

func TestLog(t *testing.T) {
	b := Log(1 << 20)
	if len(b) > 1<<20 || len(b) < 1<<20-4*Width {
		t.Fatalf("len = %d, want just under %d", len(b), 1<<20)
	}
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		t.Fatal("log does not end with CRLF")
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\r\n"), "\r\n")
	long := 0
	for i, l := range lines {
		for j := 0; j < len(l); j++ {
			if l[j] < 0x20 || l[j] >= 0x7f {
				t.Fatalf("line %d: byte %#x at %d", i, l[j], j)
			}
		}
		if len(l) == 0 {
			t.Fatalf("line %d is empty", i)
		}
		if len(l) > Width {
			long++
		}
	}
	t.Logf("%d lines, %d longer than %d columns", len(lines), long, Width)
	if long == 0 || long > len(lines)/15 {
		t.Errorf("%d of %d lines wrap, want about 1 in 30", long, len(lines))
	}
}

func TestDeterministicPrefixes(t *testing.T) {
	for name, gen := range map[string]func(int) []byte{"agent": Agent, "log": Log} {
		a := gen(300_000)
		if !bytes.Equal(a, gen(300_000)) {
			t.Errorf("%s: two calls differ", name)
		}
		// Many budgets, so that some end on a token too big to fit
		// followed by smaller ones that would.
		for n := 1_000; n < 300_000; n += 7_919 {
			if b := gen(n); !bytes.HasPrefix(a, b) || len(b) > n {
				t.Fatalf("%s(%d) (%d bytes) is not a prefix of %s(300000) within budget", name, n, len(b), name)
			}
		}
		if len(gen(0)) != 0 {
			t.Errorf("%s(0) is not empty", name)
		}
	}
}

func TestChunks(t *testing.T) {
	data := Agent(1 << 20)
	for _, mode := range Cuts {
		chunks := Chunks(data, 4096, mode)
		if !bytes.Equal(bytes.Join(chunks, nil), data) {
			t.Fatalf("%v: chunks do not reassemble to the input", mode)
		}
		splitRunes, minLen, maxLen := 0, len(data), 0
		for i, c := range chunks {
			if len(c) == 0 {
				t.Fatalf("%v: chunk %d is empty", mode, i)
			}
			if i < len(chunks)-1 {
				minLen, maxLen = min(minLen, len(c)), max(maxLen, len(c))
			}
			if !utf8.Valid(c) {
				splitRunes++
			}
		}
		t.Logf("%v: %d chunks of %d..%d bytes, %d split a rune", mode, len(chunks), minLen, maxLen, splitRunes)
		if minLen < 2048-3 || maxLen > 6144 {
			t.Errorf("%v: chunk lengths %d..%d, want about 2048..6144", mode, minLen, maxLen)
		}
		switch mode {
		case RuneBoundary:
			if splitRunes > 0 {
				t.Errorf("utf8 mode: %d chunks split a rune", splitRunes)
			}
		case AnyByte:
			// About a fifth of the agent stream's bytes are in multi-byte
			// runes, so random cuts must split some.
			if splitRunes == 0 {
				t.Error("bytes mode never split a rune")
			}
		}
		if !equalChunks(chunks, Chunks(data, 4096, mode)) {
			t.Errorf("%v: two calls cut differently", mode)
		}
	}
	if !bytes.Equal(bytes.Join(Chunks(data[:10], 4096, AnyByte), nil), data[:10]) {
		t.Error("short input")
	}
	if len(Chunks(nil, 4096, RuneBoundary)) != 0 {
		t.Error("empty input gives chunks")
	}
}

func equalChunks(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
