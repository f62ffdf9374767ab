package vt

import (
	"strings"
	"testing"
)

func TestScreenBasics(t *testing.T) {
	tests := []struct {
		name   string
		w, h   int
		in     string
		want   string // PlainText of the whole screen, rows joined by |
		cx, cy int
	}{
		{"plain", 10, 3, "hello", "hello||", 5, 0},
		{"crlf", 10, 3, "ab\r\ncd", "ab|cd|", 2, 1},
		{"lf keeps column", 10, 3, "ab\ncd", "ab|  cd|", 4, 1},
		{"pending wrap", 5, 2, "abcde", "abcde|", 5, 0},
		{"wrap", 5, 2, "abcdef", "abcde|f", 1, 1},
		{"scroll", 5, 2, "a\r\nb\r\nc", "b|c", 1, 1},
		{"cup", 10, 3, "\x1b[2;3Hx", "|  x|", 3, 1},
		{"el", 10, 1, "abcdef\x1b[3G\x1b[K", "ab", 2, 0},
		{"broken utf8", 10, 1, "A\xffB\xc3(C", "AB(C", 4, 0},
		{"wide", 10, 1, "a世b", "a世b", 4, 0},
		{"wide wraps", 3, 2, "ab世", "ab|世", 2, 1},
		{"combining", 10, 1, "e\u0301x", "e\u0301x", 2, 0},
		{"acs", 10, 1, "\x1b(0lqk\x1b(Bq", "┌─┐q", 4, 0},
		{"rep", 10, 1, "ab\x1b[3b", "abbbb", 5, 0},
		{"tab", 20, 1, "a\tb", "a       b", 9, 0},
		{"split utf8 across writes", 10, 1, "\xe4\xb8|\x96", "世", 2, 0},
		{"split csi", 10, 2, "\x1b[|2;|2Hx", "| x", 2, 1},
		{"ich all does nothing (tmux)", 5, 1, "abcde\r\x1b[5@", "abcde", 0, 0},
		{"dch", 5, 1, "abcde\r\x1b[2P", "cde", 0, 0},
		{"alt screen", 5, 2, "ab\x1b[?1049hxy\x1b[?1049l", "ab|", 2, 0},
		{"one column", 1, 3, "wV", "w|V|", 1, 1},
		{"one column, wide at pending wrap", 1, 2, "a\u4e2d", "a|", 0, 0},
		{"no wrap wide then narrow (tmux drops 3)", 2, 1, "\x1b[?7l\u754c3", "\u754c", 2, 0},
		{"erasing a row unwraps the one above", 4, 3, "\x1b[;4HPq\x1b[5L\x1b[H\n\bX", "   P|X|", 1, 1},
		{"cuf from pending wrap", 5, 1, "abcde\x1b[C", "abcde", 4, 0},
		{"region scroll", 5, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[3;1H\n", "1|3||4", 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.w, tt.h, Options{})
			for _, part := range strings.Split(tt.in, "|") {
				s.Write([]byte(part))
			}
			got := strings.ReplaceAll(s.PlainText(s.Bounds()), "\n", "|")
			if got != tt.want {
				t.Errorf("screen %q, want %q", got, tt.want)
			}
			if c := s.Cursor(); c.X != tt.cx || c.Y != tt.cy {
				t.Errorf("cursor %d,%d, want %d,%d", c.X, c.Y, tt.cx, tt.cy)
			}
		})
	}
}

func TestTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\x1b]0;one\x07", "one"},
		{"\x1b]2;two\x1b\\", "two"},
		{"\x1b]0;ti\x18tle", "ti"}, // CAN ends the string, and tmux still takes it
		{"\x1b_apc title\x1b\\", "apc title"},
		{"\x1b]0;a\x07\x1b[22;0t\x1b]0;b\x07\x1b[23;0t", "a"},
		{"\x1b]0;ok\x07\x1b]0;bad\xc2\x85\x07", "ok"}, // not printable: kept the old one
		{"\x1b]0;\xe4\xb8\x96\x07", "\u4e16"},
	}
	for _, tt := range tests {
		s := New(10, 2, Options{})
		s.Write([]byte(tt.in))
		if s.Title() != tt.want {
			t.Errorf("%q: title %q, want %q", tt.in, s.Title(), tt.want)
		}
	}
}

func TestDirtyRows(t *testing.T) {
	s := New(10, 70, Options{})
	s.ClearDirty()
	s.markDirtyRange(3, 66)
	for y := 0; y < 70; y++ {
		if want := y >= 3 && y <= 66; s.Dirty(y) != want {
			t.Fatalf("row %d dirty=%v, want %v", y, s.Dirty(y), want)
		}
	}
	s.ClearDirty()
	s.Write([]byte("\x1b[5;1Hx"))
	for y := 0; y < 70; y++ {
		if s.Dirty(y) != (y == 4) {
			t.Fatalf("after a print on row 4: row %d dirty=%v", y, s.Dirty(y))
		}
	}
}

func TestWithoutLink(t *testing.T) {
	plain := New(10, 1, Options{})
	plain.Write([]byte("\x1b[1;31mx"))
	linked := New(10, 1, Options{})
	linked.Write([]byte("\x1b[1;31m\x1b]8;id=a1;https://example.com\x1b\\x"))
	a, b := plain.Cell(0, 0), linked.Cell(0, 0)
	if a.Style == b.Style || b.Link != "https://example.com" {
		t.Fatalf("the link is not on the cell: %+v", b)
	}
	if a.Style.WithoutLink() != b.Style.WithoutLink() {
		t.Fatalf("WithoutLink leaves a difference: %+v / %+v", a.Style, b.Style)
	}
}

func TestResize(t *testing.T) {
	s := New(10, 4, Options{})
	s.Write([]byte("1\r\n2\r\n3\r\n4"))
	s.Resize(10, 2) // cursor on the last row: the top rows go to scrollback
	if got := s.PlainText(s.Bounds()); got != "3\n4" {
		t.Fatalf("after shrink: %q", got)
	}
	if s.ScrollbackLen() != 2 {
		t.Fatalf("scrollback %d, want 2", s.ScrollbackLen())
	}
	s.Resize(10, 4) // grow: the rows come back
	if got := s.PlainText(s.Bounds()); got != "1\n2\n3\n4" {
		t.Fatalf("after grow: %q", got)
	}
	if c := s.Cursor(); c.Y != 3 {
		t.Fatalf("cursor row %d, want 3", c.Y)
	}
	s.Resize(3, 4)
	s.Write([]byte("\x1b[Hxyzw"))
	if got := s.PlainText(s.Bounds()); got != "xyz\nw\n3\n4" {
		t.Fatalf("after narrowing: %q", got)
	}
	checkInvariants(t, s)
}
