package vt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestCompareRow pins what the comparison accepts and what it reports.
func TestCompareRow(t *testing.T) {
	bold := st(ts.Bold(true), 0)
	blueBg := st(ts.Background(tcell.PaletteColor(4)), 0)
	c := func(text string, w uint8, s Style) Cell { return Cell{Text: text, Width: w, Style: s} }
	blank := c(" ", 1, DefaultStyle)
	pad := c("", 0, DefaultStyle)
	for _, tc := range []struct {
		name    string
		model   []Cell
		printed []Cell
		want    string // substring of the first difference, "" for none
	}{
		{"equal", []Cell{c("a", 1, bold), blank}, []Cell{c("a", 1, bold), blank}, ""},
		{"text", []Cell{c("a", 1, bold)}, []Cell{c("b", 1, bold)}, `row 0 x=0: model "a" {bold}, tmux "b" {bold}`},
		{"style", []Cell{c("a", 1, bold)}, []Cell{c("a", 1, DefaultStyle)}, `model "a" {bold}, tmux "a"`},
		{"wide", []Cell{c("世", 2, bold), pad, c("x", 1, bold)}, []Cell{c("世", 2, bold), c("x", 1, bold)}, ""},
		{"shifted", []Cell{c("世", 2, bold), c("x", 1, bold)}, []Cell{c("世", 2, bold), c("y", 1, bold)}, "model x=1, tmux x=2"},
		{"uncaptured tail may have a background", []Cell{c("a", 1, bold), c(" ", 1, blueBg)}, []Cell{c("a", 1, bold)}, ""},
		{"uncaptured tail must be blank", []Cell{c("a", 1, bold), c("b", 1, DefaultStyle)}, []Cell{c("a", 1, bold)}, "tmux printed nothing"},
		{"uncaptured tail has no attributes", []Cell{c(" ", 1, bold)}, nil, "tmux printed nothing"},
		{"tmux has more", []Cell{c("a", 1, bold)}, []Cell{c("a", 1, bold), c("b", 1, bold)}, "model has no cell left"},
		{"joiner: model split, capture joined", []Cell{c("a\u200d", 1, bold), c("b", 1, bold)}, []Cell{c("a\u200db", 1, bold)}, ""},
		{"joiner: model joined, capture split", []Cell{c("a\u200db", 1, bold), blank}, []Cell{c("a\u200d", 1, bold), c("b", 1, bold)}, ""},
		{"joiner: three cells", []Cell{c("a\u200db\u200dz", 1, bold)}, []Cell{c("a\u200d", 1, bold), c("b\u200d", 1, bold), c("z", 1, bold)}, ""},
		{"joiner: three model cells", []Cell{c("a\u200d", 1, bold), c("b\u200d", 1, bold), c("z", 1, bold)}, []Cell{c("a\u200db\u200dz", 1, bold)}, ""},
		{"joiner split needs one style", []Cell{c("a\u200d", 1, bold), c("b", 1, DefaultStyle)}, []Cell{c("a\u200db", 1, bold)}, "row 0"},
		{"link ignored", []Cell{{Text: "a", Width: 1, Style: Style{Style: ts.Url("http://x")}}}, []Cell{c("a", 1, DefaultStyle)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var diffs []string
			compareRow(tc.model, tc.printed, "row", 0, func(format string, args ...any) {
				diffs = append(diffs, fmt.Sprintf(format, args...))
			})
			switch {
			case tc.want == "" && diffs != nil:
				t.Fatalf("unexpected differences: %q", diffs)
			case tc.want != "" && (diffs == nil || !strings.Contains(diffs[0], tc.want)):
				t.Fatalf("differences %q, want one containing %q", diffs, tc.want)
			}
		})
	}
}

// TestPieces: pieces cover the stream, stay under maxPiece, and never end
// while a joiner is pending.
func TestPieces(t *testing.T) {
	data := []byte(strings.Repeat(strings.Repeat("x", 150)+"a\u200db"+strings.Repeat("y", 100)+"é", 100))
	ps := pieces(data)
	var joined []byte
	for i, p := range ps {
		if len(p) > maxPiece {
			t.Fatalf("piece %d has %d bytes", i, len(p))
		}
		if i < len(ps)-1 && joinerPending(p) {
			t.Fatalf("piece %d ends with a joiner pending", i)
		}
		joined = append(joined, p...)
	}
	if string(joined) != string(data) {
		t.Fatal("pieces do not add up to the stream")
	}
	for _, tc := range []struct {
		in   string
		want bool
	}{{"a\u200d", true}, {"a\u200dbcd\x1b[1m", true}, {"a\u200dbé", false}, {"abc", false}, {"a\u200d\xe4\xb8", true}} {
		if got := joinerPending([]byte(tc.in)); got != tc.want {
			t.Errorf("joinerPending(%+q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
