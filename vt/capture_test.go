package vt

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// st builds an expected Style from tcell setters and Ext flags.
func st(ts tcell.Style, ext ExtAttr) Style { return Style{Style: ts, Ext: ext} }

var ts = tcell.StyleDefault

// printedText joins a row's printed cells' text.
func printedText(cells []Cell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.Text)
	}
	return b.String()
}

// cellWant is an expected laid-out cell at (x, y).
type cellWant struct {
	x, y  int
	text  string
	width uint8
	style Style
}

func checkCapture(t *testing.T, c *Capture, rows []string, used []int, cells []cellWant) {
	t.Helper()
	for y, want := range rows {
		if got := printedText(c.Printed[y]); got != want {
			t.Errorf("row %d printed %+q, want %+q", y, got, want)
		}
	}
	for y, want := range used {
		if c.Used[y] != want {
			t.Errorf("row %d used %d, want %d", y, c.Used[y], want)
		}
	}
	for _, w := range cells {
		got := c.Rows[w.y][w.x]
		want := Cell{Text: w.text, Width: w.width, Style: w.style}
		if got != want {
			t.Errorf("cell x%d y%d = %s, want %s", w.x, w.y, cellString(got), cellString(want))
		}
	}
	if t.Failed() {
		t.Logf("capture:\n%s", dumpRows(c.Rows))
	}
}

// TestParseCapture reads captures written the way tmux 3.3a prints them
// (the examples in research/tmux-control-mode.md section 7 among them).
func TestParseCapture(t *testing.T) {
	for _, tc := range []struct {
		name   string
		w, h   int
		in     string
		rows   []string
		used   []int
		cells  []cellWant
		overfl []bool
	}{{
		name: "colours kept apart",
		w:    14, h: 2,
		in:   "\x1b[38;5;1mA\x1b[39m \x1b[31mB\x1b[39m \x1b[38;2;1;2;3mC\x1b[39m \x1b[1m\x1b[31mD\x1b[0m\x1b[39m\x1b[49m E \x1b[44mF\n\x1b[49m\n",
		rows: []string{"A B C D E F", ""},
		used: []int{11, 0},
		cells: []cellWant{
			{0, 0, "A", 1, st(ts.Foreground(tcell.PaletteColor(1)), FgIndexed)},
			{1, 0, " ", 1, DefaultStyle},
			{2, 0, "B", 1, st(ts.Foreground(tcell.PaletteColor(1)), 0)},
			{4, 0, "C", 1, st(ts.Foreground(tcell.NewRGBColor(1, 2, 3)), 0)},
			{6, 0, "D", 1, st(ts.Foreground(tcell.PaletteColor(1)).Bold(true), 0)},
			{10, 0, "F", 1, st(ts.Background(tcell.PaletteColor(4)), 0)},
			{11, 0, " ", 1, DefaultStyle},
		},
	}, {
		name: "attributes and the overline quirk",
		w:    20, h: 1,
		in:   "\x1b[1;2;3;4;5;7;8;9;5:3mX\x1b[0m\x1b[39m\x1b[49mY\x1b[4:3mZ\x1b[0m\x1b[39m\x1b[49m\x1b[4:2mU\x1b[4:4mV\x1b[4:5mW\x1b[4m\x1b[58;5;196mu\x1b[0m\x1b[39m\x1b[49m\x1b[4m\x1b[58;2;1;2;3mr",
		rows: []string{"XYZUVWur"},
		cells: []cellWant{
			{0, 0, "X", 1, st(ts.Bold(true).Dim(true).Italic(true).Underline(tcell.UnderlineStyleSolid).
				Blink(true).Reverse(true).StrikeThrough(true), Invisible|Overline)},
			{1, 0, "Y", 1, DefaultStyle},
			{2, 0, "Z", 1, st(ts.Underline(tcell.UnderlineStyleCurly), 0)},
			{3, 0, "U", 1, st(ts.Underline(tcell.UnderlineStyleDouble), 0)},
			{4, 0, "V", 1, st(ts.Underline(tcell.UnderlineStyleDotted), 0)},
			{5, 0, "W", 1, st(ts.Underline(tcell.UnderlineStyleDashed), 0)},
			{6, 0, "u", 1, st(ts.Underline(tcell.UnderlineStyleSolid).Underline(tcell.PaletteColor(196)), 0)},
			{7, 0, "r", 1, st(ts.Underline(tcell.UnderlineStyleSolid).Underline(tcell.NewRGBColor(1, 2, 3)), 0)},
		},
	}, {
		name: "bright and 256 backgrounds",
		w:    4, h: 1,
		in:   "\x1b[92m\x1b[105ma\x1b[48;5;3mb\x1b[48;5;200mc\x1b[48;2;200;100;50md",
		rows: []string{"abcd"},
		cells: []cellWant{
			{0, 0, "a", 1, st(ts.Foreground(tcell.PaletteColor(10)).Background(tcell.PaletteColor(13)), 0)},
			{1, 0, "b", 1, st(ts.Foreground(tcell.PaletteColor(10)).Background(tcell.PaletteColor(3)), BgIndexed)},
			{2, 0, "c", 1, st(ts.Foreground(tcell.PaletteColor(10)).Background(tcell.PaletteColor(200)), 0)},
			{3, 0, "d", 1, st(ts.Foreground(tcell.PaletteColor(10)).Background(tcell.NewRGBColor(200, 100, 50)), 0)},
		},
	}, {
		name: "pen carries over rows",
		w:    3, h: 3,
		in:   "a\x1b[31mb\nc\n\x1b[39md\n",
		rows: []string{"ab", "c", "d"},
		cells: []cellWant{
			{1, 0, "b", 1, st(ts.Foreground(tcell.PaletteColor(1)), 0)},
			{0, 1, "c", 1, st(ts.Foreground(tcell.PaletteColor(1)), 0)},
			{0, 2, "d", 1, DefaultStyle},
		},
	}, {
		name: "wide, combining and joined characters",
		w:    12, h: 1,
		in:   "世界|e\u0301|👨\u200d👩|x",
		rows: []string{"世界|e\u0301|👨\u200d👩|x"},
		used: []int{11},
		cells: []cellWant{
			{0, 0, "世", 2, DefaultStyle},
			{1, 0, "", 0, DefaultStyle},
			{2, 0, "界", 2, DefaultStyle},
			{5, 0, "e\u0301", 1, DefaultStyle},
			{7, 0, "👨\u200d👩", 2, DefaultStyle},
			{8, 0, "", 0, DefaultStyle},
			{10, 0, "x", 1, DefaultStyle},
		},
	}, {
		name: "DEC graphics between SO and SI, kept across a reset",
		w:    8, h: 2,
		in:   "\x0elqk\x1b[1mx\x1b[0m\x1b[39m\x1b[49mA\n\x0fq\x0e~\x0f\n",
		rows: []string{"┌─┐│A", "q·"},
		cells: []cellWant{
			{3, 0, "│", 1, st(ts.Bold(true), 0)},
			{4, 0, "A", 1, DefaultStyle},
			{0, 1, "q", 1, DefaultStyle},
		},
	}, {
		name: "a wide character without its padding overflows",
		w:    5, h: 1,
		in:     "世 abc",
		rows:   []string{"世 abc"},
		used:   []int{5},
		overfl: []bool{true},
	}, {
		name: "final newline optional",
		w:    2, h: 2,
		in:   "a\nb",
		rows: []string{"a", "b"},
	}, {
		name: "one empty row without newline",
		w:    2, h: 1,
		in:   "",
		rows: []string{""},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseCapture([]byte(tc.in), tc.w, tc.h)
			if err != nil {
				t.Fatal(err)
			}
			checkCapture(t, c, tc.rows, tc.used, tc.cells)
			for y, want := range tc.overfl {
				if c.Overflow[y] != want {
					t.Errorf("row %d overflow %v, want %v", y, c.Overflow[y], want)
				}
			}
			for y, row := range c.Rows {
				if len(row) != tc.w {
					t.Errorf("row %d has %d cells, want %d", y, len(row), tc.w)
				}
			}
		})
	}
}

// TestParseCaptureErrors: what tmux 3.3a cannot print is an error, never
// a guess.
func TestParseCaptureErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		w, h     int
		want     string
	}{
		{"too few rows", "a\n", 4, 2, "1 rows, want 2"},
		{"too many rows", "a\nb\nc\n", 4, 2, "3 rows, want 2"},
		{"bad size", "", 0, 1, "size 0x1"},
		{"not CSI", "\x1b(0", 4, 1, "not CSI"},
		{"not SGR", "\x1b[2J", 4, 1, "non-SGR"},
		{"unterminated", "\x1b[1", 4, 1, "unterminated"},
		{"empty SGR", "\x1b[m", 4, 1, "empty parameter list"},
		{"trailing semicolon", "\x1b[1;m", 4, 1, "trailing"},
		{"unknown code", "\x1b[53m", 4, 1, "code 53"},
		{"unknown sub-code", "\x1b[5:4m", 4, 1, "code 5:4"},
		{"underline 4:1 is never printed", "\x1b[4:1m", 4, 1, "code 4:1"},
		{"short 256 colour", "\x1b[38;5m", 4, 1, "want 5;n"},
		{"colour out of range", "\x1b[48;5;256m", 4, 1, "want 5;n"},
		{"colon colour", "\x1b[38:5:1m", 4, 1, `bad number "5:1"`},
		{"long number", "\x1b[0001m", 4, 1, "bad number"},
		{"control byte", "a\tb", 4, 1, "control byte 0x09"},
		{"invalid UTF-8", "a\xffb", 4, 1, "invalid UTF-8"},
		{"mark starts row", "\u0301a", 4, 1, "joins no cell"},
		{"non-printable", "a\u0085", 4, 1, "not printable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCapture([]byte(tc.in), tc.w, tc.h)
			if err == nil {
				t.Fatalf("no error, want one containing %q", tc.want)
			}
			if !errors.Is(err, ErrCapture) {
				t.Errorf("error %v does not wrap ErrCapture", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

// FuzzParseCapture: any input gives an error or a well-formed Capture.
func FuzzParseCapture(f *testing.F) {
	f.Add([]byte("\x1b[1;4:3;5:3mab\x1b[38;5;9m世\x0eq\x0fe\u0301\n\x1b[0m\n"), 6, 2)
	f.Add([]byte("\x1b[38;2;1;2;3m👨\u200d👩x\n"), 4, 1)
	f.Add([]byte("世 abc"), 5, 1)
	f.Fuzz(func(t *testing.T, data []byte, width, height int) {
		if width < 1 || width > 300 || height < 1 || height > 100 {
			return
		}
		c, err := ParseCapture(data, width, height)
		if err != nil {
			if !errors.Is(err, ErrCapture) {
				t.Fatalf("error %v does not wrap ErrCapture", err)
			}
			return
		}
		if len(c.Rows) != height || len(c.Used) != height || len(c.Printed) != height {
			t.Fatalf("got %d rows, want %d", len(c.Rows), height)
		}
		for y, row := range c.Rows {
			if len(row) != width {
				t.Fatalf("row %d has %d cells, want %d", y, len(row), width)
			}
			if c.Used[y] < 0 || c.Used[y] > width {
				t.Fatalf("row %d used %d of %d", y, c.Used[y], width)
			}
			for _, p := range c.Printed[y] {
				if p.Width != 1 && p.Width != 2 {
					t.Fatalf("row %d printed cell %s", y, cellString(p))
				}
			}
		}
	})
}
