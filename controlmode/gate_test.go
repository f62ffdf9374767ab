package controlmode

import (
	"testing"
)

// TestParseGate: the barrier's reply as tmux 3.3a writes it (measured:
// copy-mode, input off, synchronized, choose-tree), and replies that are
// not one.
func TestParseGate(t *testing.T) {
	p := PaneID(3)
	for _, c := range []struct {
		body string
		want InputGate
		ok   bool
	}{
		{"%3 0 0 0 \n", InputGate{Pane: p}, true},
		{"%3 1 0 1 copy-mode\n", InputGate{Pane: p, InMode: true, Synchronized: true, Mode: "copy-mode"}, true},
		{"%3 0 1 0 \n", InputGate{Pane: p, InputOff: true}, true},
		{"%3 1 0 0 tree-mode\n", InputGate{Pane: p, InMode: true, Mode: "tree-mode"}, true},
		{"%4 0 0 0 \n", InputGate{}, false}, // another pane's answer
		{"%3 0 0\n", InputGate{}, false},
		{"%3 2 0 0 \n", InputGate{}, false},
		{"", InputGate{}, false},
	} {
		got, err := ParseGate(p, &Reply{Body: []byte(c.body)})
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%q: %+v %v, want %+v ok=%v", c.body, got, err, c.want, c.ok)
		}
		if err == nil && got.Open() != (!got.InMode && !got.InputOff && !got.Synchronized) {
			t.Errorf("%q: Open %v", c.body, got.Open())
		}
	}
	if _, err := ParseGate(p, nil); err == nil {
		t.Error("no reply parsed")
	}
}

// FuzzParseGate: no reply makes ParseGate panic, and a gate it accepts is
// open only when no flag is set.
func FuzzParseGate(f *testing.F) {
	for _, s := range []string{"%3 0 0 0 \n", "%3 1 0 1 copy-mode\n", "%3 1 1 1 view-mode\n", "%3 0 0 0", "% 0 0 0 x y z\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		g, err := ParseGate(PaneID(3), &Reply{Body: []byte(body)})
		if err != nil {
			return
		}
		if g.Pane != PaneID(3) || g.Open() == (g.InMode || g.InputOff || g.Synchronized) {
			t.Fatalf("%q: %+v", body, g)
		}
	})
}
