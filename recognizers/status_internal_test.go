package recognizers

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/vt"
)

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
		if CarryOrigin(v) != want {
			t.Errorf("carryOrigin(%q) = %v, want %v", v, !want, want)
		}
	}
}

// testStatusGrid is a 260-column screen of rows "Name:  value" from
// column 0, names bold, values plain.
func testStatusGrid(rows ...string) *Grid {
	scr := vt.New(260, 48, vt.Options{})
	for i, r := range rows {
		if name, value, ok := strings.Cut(r, ":"); ok {
			fmt.Fprintf(scr, "\x1b[%dH\x1b[1m%s:\x1b[m%s", i+1, name, value)
		}
	}
	g := new(Grid)
	g.load(scr, true)
	return g
}

// TestStatusParseBounds: at most maxStatusFields rows, a carried value
// of at most maxStatusValue runes (a longer one gives no result, never a
// cut); a withheld value is not measured.
func TestStatusParseBounds(t *testing.T) {
	l := StatusLayout{Rows: []StatusRow{{Name: "A"}, {Name: "B", Group: 1}}, Gap: 2,
		Name: Plain().Bold().Style(), Values: []vt.Style{Plain().Style()}}
	for _, c := range []struct {
		n     int
		carry func(string) bool
		want  *StatusField
	}{
		{maxStatusValue, nil, &StatusField{Name: "A", Value: strings.Repeat("v", maxStatusValue)}},
		{maxStatusValue + 1, nil, nil},
		{maxStatusValue + 1, CarryNever, &StatusField{Name: "A", Redacted: true}},
	} {
		l.Rows[0].Carry = c.carry
		g := testStatusGrid("A:  "+strings.Repeat("v", c.n), "", "B:  b")
		p := l.Parse(g, 0, 3, 0, g.w, g.w)
		if c.want == nil && p != nil || c.want != nil && (p == nil || !reflect.DeepEqual(p.Fields[0], *c.want) || p.Fields[1] != (StatusField{Name: "B", Value: "b"})) {
			t.Errorf("a value of %d runes: %+v, want %+v", c.n, p, c.want)
		}
	}

	// MaxStatusFields rows, then one more.
	for _, n := range []int{MaxStatusFields, MaxStatusFields + 1} {
		l := StatusLayout{Gap: 2, Name: Plain().Bold().Style(), Values: []vt.Style{Plain().Style()}}
		var rows []string
		for i := range n {
			group := 0
			if i == n-1 {
				group = 1
				rows = append(rows, "")
			}
			name := fmt.Sprintf("R%02d", i)
			l.Rows = append(l.Rows, StatusRow{Name: name, Group: group})
			rows = append(rows, name+":  x")
		}
		g := testStatusGrid(rows...)
		p := l.Parse(g, 0, len(rows), 0, g.w, g.w)
		if (p != nil) != (n <= MaxStatusFields) || p != nil && len(p.Fields) != n {
			t.Errorf("%d rows: %+v", n, p)
		}
	}
}
