package vt

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/internal/streamgen"
)

// TestTmuxRuneWidths measures character widths in tmux itself, without
// trusting runeWidth: the capture reader lays cells out with runeWidth, so
// a width wrong on both sides could otherwise hide. Each row gets "a", the
// character, then "|" at column 6; the blanks tmux prints between them give
// the width: 5 blanks after the character means it combined with "a"
// (width 0), 4 means width 1, 3 width 2, and no character at all means
// tmux dropped it (-1).
//
// The characters are the edges of every run in the width table (where a
// wrong table goes wrong), a sample of all planes, and the generator's
// character pools.
func TestTmuxRuneWidths(t *testing.T) {
	runes := widthProbeRunes()
	rig := newTmuxRig(t)
	const rows = 1000
	var bad []string
	for start := 0; start < len(runes); start += rows {
		batch := runes[start:min(start+rows, len(runes))]
		var stream bytes.Buffer
		for y, r := range batch {
			fmt.Fprintf(&stream, "\x1b[%d;1Ha%c\x1b[7G|", y+1, r)
		}
		v, err := rig.Run(context.Background(), stream.Bytes(), 8, len(batch))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(v.Capture), "\n"), "\n")
		for y, r := range batch {
			got, err := measuredWidth(lines[y], r)
			if err != nil {
				t.Fatalf("U+%04X: %v", r, err)
			}
			if want := runeWidth(r); got != want {
				bad = append(bad, fmt.Sprintf("U+%04X tmux %d, runeWidth %d", r, got, want))
			}
		}
	}
	t.Logf("%d characters measured in tmux", len(runes))
	if len(bad) > 0 {
		t.Errorf("%d widths differ from tmux:\n  %s", len(bad), strings.Join(bad[:min(len(bad), 100)], "\n  "))
	}
}

// measuredWidth reads one probe row: "a", maybe the character, blanks, "|".
func measuredWidth(line string, r rune) (int, error) {
	rest, ok := strings.CutPrefix(line, "a")
	if !ok || !strings.HasSuffix(rest, "|") {
		return 0, fmt.Errorf("probe row %+q", line)
	}
	rest = strings.TrimSuffix(rest, "|")
	ch := string(r)
	if !strings.HasPrefix(rest, ch) {
		if strings.Trim(rest, " ") != "" || len(rest) != 5 {
			return 0, fmt.Errorf("probe row %+q", line)
		}
		return -1, nil
	}
	blanks := strings.TrimPrefix(rest, ch)
	if strings.Trim(blanks, " ") != "" {
		return 0, fmt.Errorf("probe row %+q", line)
	}
	return 5 - len(blanks), nil
}

// widthProbeRunes lists the characters TestTmuxRuneWidths measures.
func widthProbeRunes() []rune {
	seen := map[rune]bool{}
	var out []rune
	add := func(r rune) {
		// A joiner is not stored until the next character: it cannot be
		// measured this way (the capture tests cover it).
		if r < 0xa0 || !utf8.ValidRune(r) || r == zeroWidthJoiner || seen[r] {
			return
		}
		seen[r] = true
		out = append(out, r)
	}
	for _, wr := range widthRanges {
		add(wr.lo - 1)
		add(wr.lo)
		add(wr.hi)
		add(wr.hi + 1)
	}
	for r := rune(0xa0); r <= 0x10ffff; r += 997 {
		add(r)
	}
	for _, s := range streamgen.CharacterPools() {
		for _, r := range s {
			add(r)
		}
	}
	return out
}

func TestMeasuredWidth(t *testing.T) {
	for _, tc := range []struct {
		line string
		r    rune
		want int
	}{
		{"a世   |", '世', 2},
		{"aé    |", 'é', 1},
		{"a\u0301     |", '\u0301', 0},
		{"a     |", '\u0085', -1},
	} {
		if got, err := measuredWidth(tc.line, tc.r); err != nil || got != tc.want {
			t.Errorf("measuredWidth(%+q) = %d, %v; want %d", tc.line, got, err, tc.want)
		}
	}
	if _, err := measuredWidth("a x   |", 'y'); err == nil {
		t.Error("a garbled probe row gave no error")
	}
}
