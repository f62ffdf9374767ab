package vt

import (
	"context"
	"strings"
	"testing"
)

// TestTmuxOracleSelfCheck proves the oracle is not vacuous: tmux gets one
// stream, the model another, and the comparison must see the difference,
// or, for what the capture cannot show, must not.
func TestTmuxOracleSelfCheck(t *testing.T) {
	rig := newTmuxRig(t)
	title := rig.initialTitle(t)
	for _, tc := range []struct {
		name        string
		tmux, model string
		want        string // substring of a difference; "" means none expected
	}{
		{"same", "ab\x1b[1mc", "ab\x1b[1mc", ""},
		{"text", "abc", "abd", `row 0 x=2: model "d", tmux "c"`},
		{"attribute", "\x1b[1mX", "X", `model "X", tmux "X" {bold}`},
		{"overline", "\x1b[53mX", "\x1b[5mX", `model "X" {blink}, tmux "X" {overline}`},
		{"indexed colour", "\x1b[38;5;1mX", "\x1b[31mX", `model "X" {fg=1}, tmux "X" {fg=i1}`},
		{"underline colour", "\x1b[58;5;9mX", "X", `tmux "X" {ulc=9}`},
		{"wide", "世", "ab", `model "a", tmux "\u4e16" w2`},
		{"combining", "e\u0301", "e", `model "e", tmux "e\u0301"`},
		{"DEC graphics", "\x1b(0q", "q", `model "q", tmux "\u2500"`},
		{"cursor", "X\x1b[2;3H", "X", "cursor: model x=1 y=0"},
		{"cursor hidden", "\x1b[?25l", "", "visible=true, tmux x=0 y=0 visible=false"},
		{"pending wrap", "abcde", "abcd\x1b[5Ge", ""},
		{"alternate screen", "\x1b[?1049h", "", "alternate screen: model false, tmux true"},
		{"scroll region", "\x1b[2;4r", "", "scroll region: model 0-5, tmux 1-3"},
		{"insert mode", "\x1b[4h", "", "modes: model insert=false"},
		{"title", "\x1b]2;hi\a", "", `title: model "", tmux "hi"`},
		{"model extra text", "a", "ab", `row 0 x=1: model "b", tmux printed nothing`},
		{"BCE tail is not captured", "\x1b[44m\x1b[K", "", ""},
		{"BCE tail text is", "\x1b[44m\x1b[K", "   x\x1b[H", `row 0 x=3: model "x"`},
		{"link is not captured", "\x1b]8;;http://x\x1b\\L", "L", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const w, h = 5, 6
			v, err := rig.Run(context.Background(), []byte(tc.tmux), w, h)
			if err != nil {
				t.Fatal(err)
			}
			c, err := v.parse()
			if err != nil {
				t.Fatal(err)
			}
			m := newModel(w, h)
			m.Write([]byte(tc.model))
			m.Write(v.Marker)
			diffs := compareScreen(m, v, c, title)
			found := false
			for _, d := range diffs {
				found = found || tc.want != "" && strings.Contains(d, tc.want)
			}
			switch {
			case tc.want == "" && diffs != nil:
				t.Errorf("differences where none were expected: %q", diffs)
			case tc.want != "" && !found:
				t.Errorf("differences %q, want one containing %q", diffs, tc.want)
			}
		})
	}
}
