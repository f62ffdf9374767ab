package api

import (
	"encoding/json"
	"fmt"
	"time"
)

// MarshalJSON writes the fixed fields and then the attrs at the top level.
// An attr may not shadow a fixed field.
func (e Event) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(e.Attrs)+4)
	for k, v := range e.Attrs {
		m[k] = v
	}
	m["seq"], m["time"], m["type"] = e.Seq, e.Time, e.Type
	if e.TerminalID != "" {
		m["terminal_id"] = e.TerminalID
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads the fixed fields; every other string field is an attr.
func (e *Event) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*e = Event{}
	for k, raw := range m {
		var err error
		switch k {
		case "seq":
			err = json.Unmarshal(raw, &e.Seq)
		case "time":
			var t time.Time
			err = json.Unmarshal(raw, &t)
			e.Time = t
		case "type":
			err = json.Unmarshal(raw, &e.Type)
		case "terminal_id":
			err = json.Unmarshal(raw, &e.TerminalID)
		default:
			var s string
			if json.Unmarshal(raw, &s) == nil {
				if e.Attrs == nil {
					e.Attrs = map[string]string{}
				}
				e.Attrs[k] = s
			}
		}
		if err != nil {
			return fmt.Errorf("api: event field %s: %w", k, err)
		}
	}
	return nil
}
