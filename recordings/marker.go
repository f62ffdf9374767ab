package recordings

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
)

// Marker is an m event: what the screen shows after every earlier event,
// written from the scenario's own knowledge (the fake model's script, the
// keys sent, the transcript or rollout), never from akk's recognizers.
type Marker struct {
	State  contract.ScreenState // what the screen shows at the marker
	Expect MarkerState          // the JSON part
}

// MarkerState is the JSON of a marker.
type MarkerState struct {
	Composer    contract.Composer `json:"composer"`
	Kind        *string           `json:"kind"`        // interaction kind or null
	Actionable  bool              `json:"actionable"`  // a controller could act on it
	Questions   []Question        `json:"questions"`   // the questions on screen
	Highlighted *int              `json:"highlighted"` // 0-based highlighted option, or null
}

// Question is one question of a marker, as the screen shows it.
type Question struct {
	Header  string   `json:"header"`
	Prompt  string   `json:"prompt"`
	Options []string `json:"options"` // option labels, in screen order
}

const markerPrefix = "expect:"

// String renders the marker payload "expect:<state> <json>".
func (m Marker) String() string {
	e := m.Expect
	if e.Questions == nil {
		e.Questions = []Question{}
	}
	js, _ := json.Marshal(e) // strings, ints and bools: cannot fail
	return markerPrefix + string(m.State) + " " + string(js)
}

// ParseMarker parses an m payload.
func ParseMarker(s string) (Marker, error) {
	var m Marker
	rest, ok := strings.CutPrefix(s, markerPrefix)
	if !ok {
		return m, fmt.Errorf("%w: marker %q lacks %q", ErrFormat, s, markerPrefix)
	}
	state, js, ok := strings.Cut(rest, " ")
	if !ok || state == "" {
		return m, fmt.Errorf("%w: marker %q: want \"expect:<state> <json>\"", ErrFormat, s)
	}
	m.State = contract.ScreenState(state)
	if err := json.Unmarshal([]byte(js), &m.Expect); err != nil {
		return m, fmt.Errorf("%w: marker %q: %v", ErrFormat, s, err)
	}
	return m, nil
}

// Kind returns a pointer to k, for MarkerState.Kind.
func Kind(k string) *string { return &k }

// Index returns a pointer to i, for MarkerState.Highlighted.
func Index(i int) *int { return &i }
