package fakemodel

import (
	"encoding/json"
	"testing"
)

func TestLookup(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"v":1,"terminals":[
		{"terminal_id":"term_a","agent":"claude","row":{"n":1}},
		{"terminal_id":"term_b","agent":"codex","row":{"n":2},"replica":false}],
		"interaction":{"state":"pending","questions":[{"options":[
			{"option_id":"opt_x","free_text":true},{"option_id":"opt_y"}]}]},
		"none":null}`), &doc); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want string // text of the value; "" with ok false: does not resolve
		ok   bool
	}{
		{"$.v", "1", true},
		{"$.terminals[agent==codex].terminal_id", "term_b", true},
		{"$.terminals[agent!=claude].terminal_id", "term_b", true},
		{"$.terminals[row.n==1].terminal_id", "term_a", true},
		{"$.terminals[replica==false].terminal_id", "term_b", true},
		{"$.terminals[1].agent", "codex", true},
		{"$.interaction.questions[0].options[free_text!=true].option_id", "opt_y", true},
		{"$.interaction.state", "pending", true},
		{"$.none", "null", true},
		{"$.terminals[agent==gemini].terminal_id", "", false},
		{"$.terminals[2]", "", false},
		{"$.terminals[-1]", "", false},
		{"$.interaction.missing", "", false},
		{"$.v.deeper", "", false},
		{"$.terminals.agent", "", false},
		{"$.terminals[agent]", "", false},
		{"$.terminals[0", "", false},
		{"terminals", "", false},
		{"$..v", "", false},
	} {
		v, ok := lookup(doc, tc.path)
		if ok != tc.ok || (ok && text(v) != tc.want) {
			t.Errorf("lookup(%s) = %v, %v; want %q, %v", tc.path, v, ok, tc.want, tc.ok)
		}
	}
	if v, ok := lookup(doc, "$"); !ok || v == nil {
		t.Errorf("$ = %v, %v", v, ok)
	}
}
