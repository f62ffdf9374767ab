package recordings

import (
	"fmt"

	"github.com/agent-knock-knock/akk/vt"
)

// Step is one point of a replay: the event just applied and the screen
// after it. The screen is reused: copy what must outlive the callback.
type Step struct {
	Index  int // index of the event in Recording.Events
	Event  Event
	Screen *vt.Screen
	Marker *Marker // set for m events
}

// Replay drives a vt.Screen through rec on a virtual clock (no sleeping):
// o and x bytes are written, r resizes and the s that follows replaces the
// screen with tmux's, i is the input (the screen is unchanged), m is a
// marker. visit, if not nil, sees every event after it applied; an error it
// returns stops the replay. Replay returns the final screen.
func Replay(rec *Recording, opts vt.Options, visit func(Step) error) (*vt.Screen, error) {
	scr := vt.New(rec.Header.Width, rec.Header.Height, opts)
	for i, e := range rec.Events {
		st := Step{Index: i, Event: e}
		switch e.Code {
		case Output, OutputRaw:
			scr.Write(e.Data)
		case Resize:
			w, h, err := ParseSize(string(e.Data))
			if err != nil {
				return scr, fmt.Errorf("event %d: %w", i, err)
			}
			scr.Resize(w, h)
		case SeedEvent:
			sc, err := ParseScreen(e.Data)
			if err != nil {
				return scr, fmt.Errorf("event %d: %w", i, err)
			}
			if scr, err = sc.VT(opts); err != nil {
				return scr, fmt.Errorf("event %d: %w", i, err)
			}
		case MarkerEv:
			m, err := ParseMarker(string(e.Data))
			if err != nil {
				return scr, fmt.Errorf("event %d: %w", i, err)
			}
			st.Marker = &m
		}
		if visit != nil {
			st.Screen = scr
			if err := visit(st); err != nil {
				return scr, err
			}
		}
	}
	return scr, nil
}

// Markers returns the markers of rec with their event indexes.
func Markers(rec *Recording) ([]Marker, []int, error) {
	var ms []Marker
	var at []int
	for i, e := range rec.Events {
		if e.Code != MarkerEv {
			continue
		}
		m, err := ParseMarker(string(e.Data))
		if err != nil {
			return nil, nil, fmt.Errorf("event %d: %w", i, err)
		}
		ms, at = append(ms, m), append(at, i)
	}
	return ms, at, nil
}

// Inputs returns the i events of rec, each with the number of output bytes
// (o and x) recorded before it: the point of the stream where it was sent.
func Inputs(rec *Recording) []RecordedInput {
	var in []RecordedInput
	n := 0
	for _, e := range rec.Events {
		switch e.Code {
		case Output, OutputRaw:
			n += len(e.Data)
		case Input:
			in = append(in, RecordedInput{After: n, Time: e.Time, Data: e.Data})
		}
	}
	return in
}

// RecordedInput is one i event and its place in the output stream.
type RecordedInput struct {
	After int // output bytes before it
	Time  float64
	Data  []byte
}
