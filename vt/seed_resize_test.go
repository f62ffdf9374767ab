package vt

import (
	"fmt"
	"strings"
	"testing"
)

// altSeed is the seed of a 10x4 pane on the alternate screen ("alt" on
// its first row) over the saved normal screen saved (capture-pane -a).
func altSeed(saved string, savedX, savedY int) Seed {
	return Seed{
		Capture: []byte("alt\n\n\n\n"), Width: 10, Height: 4,
		CursorVisible: true, Alt: true, SavedCapture: []byte(saved),
		SavedX: savedX, SavedY: savedY, ScrollTop: 0, ScrollBottom: 3, Wrap: true,
	}
}

// captureOf is a capture of rows, one line each.
func captureOf(rows ...string) string { return strings.Join(rows, "\n") + "\n" }

// TestSeedSavedScreenSize: tmux keeps the normal screen saved under the
// alternate one at the size the pane had when the program entered it,
// and capture-pane -a prints it so (its own rows, at most the pane's
// width of each). A seed taken after the pane changed size must load
// (the user trial's "malformed capture: 40 rows, want 39" kept the model
// stale until the pane got its old height back); leaving the alternate
// screen then gives what tmux would show as far as the model can tell,
// and marks the screen Diverged (its owner re-seeds) wherever tmux's
// result depends on what the capture does not say.
func TestSeedSavedScreenSize(t *testing.T) {
	for _, tc := range []struct {
		name             string
		saved            string
		savedX, savedY   int
		rows             []string // the normal screen after leaving
		scrollback       int
		diverged         bool
		cursorX, cursorY int
	}{
		{name: "same size", saved: captureOf("n0", "n1", "n2", "n3"), savedX: 2, savedY: 3,
			rows: []string{"n0", "n1", "n2", "n3"}, cursorX: 2, cursorY: 3},
		// tmux: the rows below the cursor go first, then the top rows
		// into the history (screen_resize_y).
		{name: "taller, cursor at the bottom", saved: captureOf("n0", "n1", "n2", "n3", "n4", "n5"), savedX: 1, savedY: 5,
			rows: []string{"n2", "n3", "n4", "n5"}, scrollback: 2, diverged: true, cursorX: 1, cursorY: 3},
		{name: "taller, cursor high", saved: captureOf("n0", "n1", "n2", "n3", "n4", "n5"), savedX: 0, savedY: 1,
			rows: []string{"n0", "n1", "n2", "n3"}, diverged: true, cursorY: 1},
		{name: "taller, cursor in the middle", saved: captureOf("n0", "n1", "n2", "n3", "n4", "n5", "n6"), savedX: 0, savedY: 4,
			rows: []string{"n1", "n2", "n3", "n4"}, scrollback: 1, diverged: true, cursorY: 3},
		{name: "shorter", saved: captureOf("n0", "n1"), savedX: 3, savedY: 1,
			rows: []string{"n0", "n1", "", ""}, diverged: true, cursorX: 3, cursorY: 1},
		// capture-pane -a cut rows of a wider grid at the pane's width.
		{name: "wider", saved: captureOf("n0", "0123456789ab", "n2", "n3"), savedX: 0, savedY: 0,
			rows: []string{"n0", "0123456789", "n2", "n3"}, diverged: true},
		{name: "wider, a wide character at the edge", saved: captureOf("123456789世", "", "", ""), savedX: 0, savedY: 0,
			rows: []string{"123456789", "", "", ""}, diverged: true},
		{name: "wider by the saved cursor", saved: captureOf("n0", "n1", "n2", "n3"), savedX: 14, savedY: 0,
			rows: []string{"n0", "n1", "n2", "n3"}, diverged: true, cursorX: 9},
		// Narrower at the same height: restored as captured (the capture
		// does not say the width; see seedSaved).
		{name: "narrower", saved: captureOf("ab", "cd", "", "ef"), savedX: 2, savedY: 3,
			rows: []string{"ab", "cd", "", "ef"}, cursorX: 2, cursorY: 3},
		{name: "taller and wider", saved: captureOf("n0", "n1", "n2", "n3", "0123456789abcdef"), savedX: 5, savedY: 4,
			rows: []string{"n1", "n2", "n3", "0123456789"}, scrollback: 1, diverged: true, cursorX: 5, cursorY: 3},
		{name: "shorter and narrower", saved: captureOf("a", "b", "c"), savedX: 0, savedY: 2,
			rows: []string{"a", "b", "c", ""}, diverged: true, cursorY: 2},
		{name: "one row", saved: "only\n", savedX: 4, savedY: 0,
			rows: []string{"only", "", "", ""}, diverged: true, cursorX: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewFromSeed(altSeed(tc.saved, tc.savedX, tc.savedY))
			if err != nil {
				t.Fatalf("NewFromSeed: %v", err)
			}
			checkInvariants(t, s)
			if !s.AltScreen() || strings.TrimRight(s.PlainText(s.Bounds()), "\n") != "alt" || s.Diverged() {
				t.Fatalf("seeded: alt %v diverged %v\n%s", s.AltScreen(), s.Diverged(), s)
			}
			s.Write([]byte("\x1b[?1049l"))
			checkInvariants(t, s)
			if got := strings.Split(s.PlainText(s.Bounds()), "\n"); fmt.Sprint(got) != fmt.Sprint(tc.rows) {
				t.Errorf("normal screen %q, want %q", got, tc.rows)
			}
			if s.Diverged() != tc.diverged {
				t.Errorf("Diverged %v, want %v", s.Diverged(), tc.diverged)
			}
			if n := s.ScrollbackLen(); n != tc.scrollback {
				t.Errorf("scrollback %d rows, want %d", n, tc.scrollback)
			}
			if c := s.Cursor(); c.X != tc.cursorX || c.Y != tc.cursorY {
				t.Errorf("cursor %d,%d, want %d,%d", c.X, c.Y, tc.cursorX, tc.cursorY)
			}
			if top, bottom := s.ScrollRegion(); top != 0 || bottom != 3 {
				t.Errorf("scroll region %d-%d", top, bottom)
			}
		})
	}
}

// TestSeedSavedScreenMalformed: a saved capture outside tmux's vocabulary
// is refused (the caller re-seeds), never loaded half.
func TestSeedSavedScreenMalformed(t *testing.T) {
	if _, err := NewFromSeed(altSeed("ok\n\x1b[99;xm\n", 0, 0)); err == nil {
		t.Fatal("a malformed saved capture was accepted")
	}
	// Without the alternate screen the saved capture is not read.
	seed := altSeed("\x1b[99;xm\n", 0, 0)
	seed.Alt = false
	if _, err := NewFromSeed(seed); err != nil {
		t.Fatal(err)
	}
}

// TestResizeKeepsSavedScreen: a resize on the alternate screen leaves the
// saved normal screen at its size, as tmux's saved grid stays; leaving
// afterwards restores it fitted to the new size and marks the screen
// Diverged, since tmux also reflows it.
func TestResizeKeepsSavedScreen(t *testing.T) {
	for _, size := range [][2]int{{10, 3}, {10, 6}, {6, 4}, {14, 4}, {10, 4}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := New(10, 4, Options{})
			s.Write([]byte("n0\r\nn1\r\nn2\r\nn3\x1b[?1049h\x1b[Halt"))
			s.Resize(size[0], size[1])
			checkInvariants(t, s)
			if len(s.altSaved) != 4 || s.altSaved[0].w != 10 {
				t.Fatalf("saved screen %d rows of %d, want 4 of 10", len(s.altSaved), s.altSaved[0].w)
			}
			s.Write([]byte("\x1b[?1049l"))
			checkInvariants(t, s)
			resized := size != [2]int{10, 4}
			if s.Diverged() != resized {
				t.Errorf("Diverged %v after a resize to %v", s.Diverged(), size)
			}
			if got := s.PlainText(s.Bounds()); !strings.Contains(got, "n3") {
				t.Errorf("the restored screen lost its cursor row:\n%s", got)
			}
		})
	}
}

// FuzzSeedSaved: no saved capture, pane size, saved cursor or later input
// (leaving the alternate screen, resizing, entering and leaving again)
// may panic or break an invariant.
func FuzzSeedSaved(f *testing.F) {
	for _, s := range []string{
		captureOf("n0", "n1", "n2", "n3", "n4", "n5"), captureOf("x"), "",
		captureOf("\x1b[1;31mred\x1b[0m 世界", "\x0eqqq\x0f", "0123456789abcdefghij世"),
		"\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
	} {
		f.Add([]byte(s), uint8(10), uint8(4), int8(3), int8(5), []byte("\x1b[?1049lafter\r\n"))
	}
	f.Fuzz(func(t *testing.T, saved []byte, w, h uint8, sx, sy int8, tail []byte) {
		width, height := int(w%40)+1, int(h%12)+1
		seed := Seed{
			Capture: []byte(strings.Repeat("\n", height)), Width: width, Height: height,
			Alt: true, SavedCapture: saved, SavedX: int(sx), SavedY: int(sy),
			ScrollTop: 0, ScrollBottom: height - 1, Options: Options{Scrollback: 8},
		}
		s, err := NewFromSeed(seed)
		if err != nil {
			return
		}
		checkInvariants(t, s)
		s.Write(tail)
		s.Write([]byte("\x1b[?1049l"))
		checkInvariants(t, s)
		s.Write([]byte("\x1b[?1049h"))
		s.Resize(int(h%40)+1, int(w%12)+1)
		s.Write(tail)
		s.Write([]byte("\x1b[?1049l"))
		checkInvariants(t, s)
	})
}
