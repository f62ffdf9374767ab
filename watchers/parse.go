package watchers

import (
	"encoding/json"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// asksSecret reads a Codex question call's arguments (a JSON string
// holding {"questions":[{"isSecret":true,...}]}) and reports whether any
// question is marked secret. Arguments it cannot read are not secret:
// the screen's own words still make such a question manual.
func asksSecret(raw json.RawMessage) bool {
	args, ok := evidence.RawString(raw)
	if !ok {
		return false
	}
	var v struct {
		Questions []struct {
			IsSecret bool `json:"isSecret"`
		} `json:"questions"`
	}
	if evidence.Decode([]byte(args), &v) != nil {
		return false
	}
	for _, q := range v.Questions {
		if q.IsSecret {
			return true
		}
	}
	return false
}
