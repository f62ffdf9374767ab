package recognizers

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/vt"
)

// statusLayouts are the registered versions' status layouts.
func statusLayouts() map[string]*statusLayout {
	return map[string]*statusLayout{
		"claude@2.1.267": &claude2_1_267.status.layout,
		"claude@2.1.332": &claude2_1_332.status.layout,
		"codex@0.155.1":  &codex0_155_1.status.layout,
		"codex@0.171.0":  &codex0_171_0.status.layout,
	}
}

// TestStatusLayoutBounds: a layout lists at most maxStatusFields rows
// (so no result holds more: each name is read once), each name once,
// within maxStatusName runes and without a colon; no other version reads
// a status result.
func TestStatusLayoutBounds(t *testing.T) {
	for id, l := range statusLayouts() {
		if len(l.rows) > maxStatusFields {
			t.Errorf("%s: %d rows", id, len(l.rows))
		}
		seen := map[string]bool{}
		for _, r := range l.rows {
			if utf8.RuneCountInString(r.name) > maxStatusName || strings.Contains(r.name, ":") || seen[r.name] || r.group < 0 || r.group > 1 {
				t.Errorf("%s: row %q", id, r.name)
			}
			seen[r.name] = true
		}
	}
	for _, g := range []grammar{&claude2_1_263, &claude2_1_266} {
		if g.(*claude21).status != nil {
			t.Errorf("%T reads a status", g)
		}
	}
	for _, g := range []*codex0x{&codex0_153_4, &codex0_154_0} {
		if g.status != nil {
			t.Error("a Codex version without recordings reads a status")
		}
	}
}

// TestCarryOrigin: a URL row carries a bare http(s) origin only.
func TestCarryOrigin(t *testing.T) {
	for v, want := range map[string]bool{
		"http://127.0.0.1:44591":     true,
		"https://api.anthropic.com":  true,
		"https://api.anthropic.com/": true,
		"http://u:p@127.0.0.1:1":     false,
		"http://tok@proxy":           false,
		"https://host/v1/key":        false,
		"http://127.0.0.1?key=abc":   false,
		"http://127.0.0.1#abc":       false,
		"http://host:":               false,
		"http://:80":                 false,
		"http://host:8o":             false,
		"ftp://host":                 false,
		"127.0.0.1:44591":            false,
		"":                           false,
	} {
		if carryOrigin(v) != want {
			t.Errorf("carryOrigin(%q) = %v, want %v", v, !want, want)
		}
	}
}

// testStatusGrid is a 260-column screen of rows "Name:  value" from
// column 0, names bold, values plain.
func testStatusGrid(rows ...string) *grid {
	scr := vt.New(260, 48, vt.Options{})
	for i, r := range rows {
		if name, value, ok := strings.Cut(r, ":"); ok {
			fmt.Fprintf(scr, "\x1b[%dH\x1b[1m%s:\x1b[m%s", i+1, name, value)
		}
	}
	g := new(grid)
	g.load(scr, true)
	return g
}

// TestStatusParseBounds: at most maxStatusFields rows, a carried value
// of at most maxStatusValue runes (a longer one gives no result, never a
// cut); a withheld value is not measured.
func TestStatusParseBounds(t *testing.T) {
	l := statusLayout{rows: []statusRow{{name: "A"}, {name: "B", group: 1}}, gap: 2,
		name: plain().bold().vt(), values: []vt.Style{plain().vt()}}
	for _, c := range []struct {
		n     int
		carry func(string) bool
		want  *StatusField
	}{
		{maxStatusValue, nil, &StatusField{Name: "A", Value: strings.Repeat("v", maxStatusValue)}},
		{maxStatusValue + 1, nil, nil},
		{maxStatusValue + 1, carryNever, &StatusField{Name: "A", Redacted: true}},
	} {
		l.rows[0].carry = c.carry
		g := testStatusGrid("A:  "+strings.Repeat("v", c.n), "", "B:  b")
		p := l.parse(g, 0, 3, 0, g.w, g.w)
		if c.want == nil && p != nil || c.want != nil && (p == nil || !reflect.DeepEqual(p.Fields[0], *c.want) || p.Fields[1] != (StatusField{Name: "B", Value: "b"})) {
			t.Errorf("a value of %d runes: %+v, want %+v", c.n, p, c.want)
		}
	}

	// maxStatusFields rows, then one more.
	for _, n := range []int{maxStatusFields, maxStatusFields + 1} {
		l := statusLayout{gap: 2, name: plain().bold().vt(), values: []vt.Style{plain().vt()}}
		var rows []string
		for i := range n {
			group := 0
			if i == n-1 {
				group = 1
				rows = append(rows, "")
			}
			name := fmt.Sprintf("R%02d", i)
			l.rows = append(l.rows, statusRow{name: name, group: group})
			rows = append(rows, name+":  x")
		}
		g := testStatusGrid(rows...)
		p := l.parse(g, 0, len(rows), 0, g.w, g.w)
		if (p != nil) != (n <= maxStatusFields) || p != nil && len(p.Fields) != n {
			t.Errorf("%d rows: %+v", n, p)
		}
	}
}
