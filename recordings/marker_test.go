package recordings

import (
	"errors"
	"testing"

	"github.com/agent-knock-knock/akk/vt"
)

var vtOptions = vt.Options{Scrollback: -1}

func TestMarkerRoundTrip(t *testing.T) {
	m := Marker{State: "questionnaire", Expect: MarkerState{
		Composer: "absent", Kind: Kind("questionnaire"), Actionable: true,
		Questions:   []Question{{Header: "Color", Prompt: "Which color?", Options: []string{"Red", "Green"}}},
		Highlighted: Index(0),
	}}
	s := m.String()
	want := `expect:questionnaire {"composer":"absent","kind":"questionnaire","actionable":true,` +
		`"questions":[{"header":"Color","prompt":"Which color?","options":["Red","Green"]}],"highlighted":0}`
	if s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
	back, err := ParseMarker(s)
	if err != nil || back.String() != s {
		t.Errorf("parse: %v, %s", err, back.String())
	}
	idle := Marker{State: "idle", Expect: MarkerState{Composer: "empty"}}.String()
	if idle != `expect:idle {"composer":"empty","kind":null,"actionable":false,"questions":[],"highlighted":null}` {
		t.Errorf("idle marker %s", idle)
	}
	for _, bad := range []string{"idle {}", "expect:idle", "expect: {}", "expect:idle {"} {
		if _, err := ParseMarker(bad); !errors.Is(err, ErrFormat) {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

func TestScreenRoundTripAndReplay(t *testing.T) {
	scr := vt.New(10, 3, vtOptions)
	scr.Write([]byte("\x1b[31mred\x1b[m\r\nab"))
	cap := []byte(scr.ANSI(scr.Bounds()) + "\n")
	sc := Screen{Capture: cap, State: ScreenState{Cursor: [2]int{2, 1}, Size: [2]int{10, 3},
		CursorVisible: true, Scroll: [2]int{0, 2}, Modes: []string{"wrap"}}}
	back, err := ParseScreen(sc.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if d := back.Compare(scr); len(d) > 0 {
		t.Errorf("screen differs from its own capture: %v", d)
	}
	rec := &Recording{Header: Header{Width: 10, Height: 3}, Events: []Event{
		{0, Output, []byte("\x1b[31mred\x1b[m\r\na")}, {0, OutputRaw, []byte("b")},
		{1, MarkerEv, []byte(Marker{State: "idle"}.String())},
	}}
	var seen int
	final, err := Replay(rec, vtOptions, func(s Step) error {
		if s.Marker != nil {
			seen++
		}
		return nil
	})
	if err != nil || seen != 1 {
		t.Fatalf("replay: %v, %d markers", err, seen)
	}
	if d := back.Compare(final); len(d) > 0 {
		t.Errorf("replayed screen differs: %v", d)
	}
	// A resize followed by a seed replaces the screen.
	rec.Events = append(rec.Events, Event{2, Resize, []byte("10x3")}, Event{2, SeedEvent, sc.Marshal()})
	if final, err = Replay(rec, vtOptions, nil); err != nil || len(back.Compare(final)) > 0 {
		t.Errorf("replay with seed: %v %v", err, back.Compare(final))
	}
}
