package recordings

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/vt"
)

// Screen is a pane's screen as tmux had it, in the seed format of s events
// and NAME.final.txt: the `capture-pane -p -e -N` text (Height lines, each
// ending in "\n") followed by one line of JSON state:
//
//	{"cursor":[x,y],"alt":false,"size":[w,h],"cursor_visible":true,"scroll":[top,bottom],"modes":["wrap"]}
//
// "cursor" and "alt" are always present; the rest is what tmux also
// reports, so that a screen loaded from it equals tmux's.
type Screen struct {
	Capture []byte
	State   ScreenState
}

// ScreenState is the JSON line of a Screen.
type ScreenState struct {
	Cursor        [2]int   `json:"cursor"`
	Alt           bool     `json:"alt"`
	Size          [2]int   `json:"size"`
	CursorVisible bool     `json:"cursor_visible"`
	Scroll        [2]int   `json:"scroll"`
	Modes         []string `json:"modes,omitempty"`
}

// The mode names of ScreenState.Modes.
var modeNames = []string{"insert", "origin", "wrap", "app_cursor", "app_keypad",
	"mouse_standard", "mouse_button", "mouse_all", "mouse_utf8", "mouse_sgr"}

// ScreenFromSeed converts a controlmode seed.
func ScreenFromSeed(s *controlmode.Seed) Screen {
	flags := []bool{s.Insert, s.Origin, s.Wrap, s.AppCursor, s.AppKeypad,
		s.MouseStandard, s.MouseButton, s.MouseAll, s.MouseUTF8, s.MouseSGR}
	st := ScreenState{
		Cursor: [2]int{s.CursorX, s.CursorY}, Alt: s.Alt, Size: [2]int{s.Width, s.Height},
		CursorVisible: s.CursorVisible, Scroll: [2]int{s.ScrollTop, s.ScrollBottom},
	}
	for i, on := range flags {
		if on {
			st.Modes = append(st.Modes, modeNames[i])
		}
	}
	return Screen{Capture: append([]byte(nil), s.Capture...), State: st}
}

// Seed converts the screen back into a controlmode seed (for
// controlmode.CompareSeed) of pane.
func (sc Screen) Seed() *controlmode.Seed {
	on := map[string]bool{}
	for _, m := range sc.State.Modes {
		on[m] = true
	}
	st := sc.State
	return &controlmode.Seed{
		Capture: sc.Capture, Width: st.Size[0], Height: st.Size[1],
		CursorX: st.Cursor[0], CursorY: st.Cursor[1], CursorVisible: st.CursorVisible, Alt: st.Alt,
		SavedX: -1, SavedY: -1, ScrollTop: st.Scroll[0], ScrollBottom: st.Scroll[1],
		Insert: on["insert"], Origin: on["origin"], Wrap: on["wrap"],
		AppCursor: on["app_cursor"], AppKeypad: on["app_keypad"],
		MouseStandard: on["mouse_standard"], MouseButton: on["mouse_button"], MouseAll: on["mouse_all"],
		MouseUTF8: on["mouse_utf8"], MouseSGR: on["mouse_sgr"],
	}
}

// VT builds the vt screen the seed describes.
func (sc Screen) VT(opts vt.Options) (*vt.Screen, error) {
	scr, err := sc.Seed().Screen(opts)
	if err != nil {
		return nil, fmt.Errorf("recordings: screen: %w", err)
	}
	return scr, nil
}

// Compare compares a vt screen with this one cell by cell (never byte by
// byte; see controlmode.CompareSeed) and returns the differences.
func (sc Screen) Compare(scr *vt.Screen) []string {
	return controlmode.CompareSeed(scr, sc.Seed())
}

// Marshal renders the seed format.
func (sc Screen) Marshal() []byte {
	js, _ := json.Marshal(sc.State) // plain ints, bools and strings: cannot fail
	out := append([]byte(nil), sc.Capture...)
	return append(append(out, js...), '\n')
}

// ParseScreen parses the seed format.
func ParseScreen(data []byte) (Screen, error) {
	var sc Screen
	body := bytes.TrimSuffix(data, []byte("\n"))
	cut := bytes.LastIndexByte(body, '\n') + 1
	if err := json.Unmarshal(body[cut:], &sc.State); err != nil {
		return sc, fmt.Errorf("%w: screen state line: %v", ErrFormat, err)
	}
	sc.Capture = append([]byte(nil), body[:cut]...)
	w, h := sc.State.Size[0], sc.State.Size[1]
	if w < 1 || h < 1 {
		return sc, fmt.Errorf("%w: screen size %dx%d", ErrFormat, w, h)
	}
	if n := bytes.Count(sc.Capture, []byte("\n")); n != h {
		return sc, fmt.Errorf("%w: screen has %d lines, size says %d", ErrFormat, n, h)
	}
	return sc, nil
}
