package rig

import (
	"bufio"
	"encoding/json"
	"os"
)

// jsonString re-marshals a decoded journal line, for substring checks.
func jsonString(m map[string]any) string {
	b, _ := json.Marshal(m)
	return string(b)
}

// countTurnEnds reports whether the transcript has at least n turn ends
// (system turn_duration lines).
func countTurnEnds(d *Driver, n int) bool {
	return countLines(d.journal, func(m map[string]any) bool {
		return m["type"] == "system" && m["subtype"] == "turn_duration"
	}) >= n
}

// nthLine is a journal predicate that holds once the journal has at least
// n lines matching ok.
func nthLine(d *Driver, n int, ok func(map[string]any) bool) func(map[string]any) bool {
	return func(map[string]any) bool { return countLines(d.journal, ok) >= n }
}

func countLines(path string, ok func(map[string]any) bool) int {
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
