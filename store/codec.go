package store

import (
	"encoding/json"
	"fmt"
)

// Every value is a JSON object whose "v" field is its record schema.
// A reader refuses a "v" it does not know instead of guessing.

type versioned struct {
	V int `json:"v"`
}

// encode marshals a record; rec's own V field must already be set.
func encode(rec any) ([]byte, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("store: encode %T: %w", rec, err)
	}
	return b, nil
}

// decode unmarshals data into rec after checking its schema is want.
func decode(data []byte, want int, rec any) error {
	var v versioned
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("%w: %T: %v", ErrFormat, rec, err)
	}
	if v.V != want {
		return fmt.Errorf("%w: %T has v=%d, this akk reads v=%d", ErrSchema, rec, v.V, want)
	}
	if err := json.Unmarshal(data, rec); err != nil {
		return fmt.Errorf("%w: %T: %v", ErrFormat, rec, err)
	}
	return nil
}
