package rig

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
)

// JSONString re-marshals a decoded journal line, for substring checks.
func JSONString(m map[string]any) string {
	b, _ := json.Marshal(m)
	return string(b)
}

// JSONHas says whether a decoded journal line (or a part of one),
// marshalled again, holds every one of subs.
func JSONHas(m map[string]any, subs ...string) bool {
	js := JSONString(m)
	for _, s := range subs {
		if !strings.Contains(js, s) {
			return false
		}
	}
	return true
}

// NthLine is a journal predicate that holds once the journal has at least
// n lines matching ok.
func NthLine(d *Driver, n int, ok func(map[string]any) bool) func(map[string]any) bool {
	return func(map[string]any) bool { return CountLines(d.journal, ok) >= n }
}

// CountLines counts the lines of the JSON-lines file at path for which ok
// holds (0 when it cannot be read).
func CountLines(path string, ok func(map[string]any) bool) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	k := 0
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && ok(m) {
			k++
		}
	}
	return k
}
