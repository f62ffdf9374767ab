package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/recordings/qualify"
)

func TestInRange(t *testing.T) {
	npm := []byte(`["2.1.9","2.1.10","2.1.11-beta.1","2.1.11","2.1.12","2.1.20","2.2.0","2.1.100"]`)
	all, err := parseVersions(npm)
	if err != nil {
		t.Fatal(err)
	}
	one, err := parseVersions([]byte(`"1.0.0"`))
	if err != nil || !reflect.DeepEqual(one, []string{"1.0.0"}) {
		t.Fatalf("one version: %v %v", one, err)
	}
	if _, err := parseVersions([]byte(`npm ERR!`)); err == nil {
		t.Fatal("parseVersions read garbage")
	}
	for _, tc := range []struct {
		spec string
		want []string
	}{
		{"claude@2.1.10..2.1.20", []string{"2.1.10", "2.1.11", "2.1.12", "2.1.20"}}, // inclusive, numeric, no pre-release
		{"claude@2.1.11", []string{"2.1.11"}},
		{"claude@2.1.13..2.1.19", nil},
		{"claude@2.1.20..3", []string{"2.1.20", "2.1.100", "2.2.0"}},
	} {
		agent, lo, hi, err := parseRange(tc.spec)
		if err != nil || agent != "claude" {
			t.Fatalf("%s: %q %v", tc.spec, agent, err)
		}
		if got := inRange(all, lo, hi); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.spec, got, tc.want)
		}
	}
	for _, bad := range []string{"claude", "claude@", "@1..2", "claude@2..1"} {
		if _, _, _, err := parseRange(bad); err == nil {
			t.Errorf("parseRange(%q) took it", bad)
		}
	}
}

func TestMergeRender(t *testing.T) {
	ok := row{Version: "2.1.330", Base: "2.1.332", Passed: []string{"composer.idle", "permission.shell"},
		Failed: []string{"question.single"}, Scenarios: "6 core", Took: "1m2s", Date: "2026-01-02",
		Note: "ask-color, marker 1 (question.single) failed: read differently: a | b"}
	pinned := row{Version: "2.1.332", Pinned: true, Date: "2026-01-02"}
	broken := row{Version: "2.1.331", Base: "2.1.332", Err: "rig: npm install: exit 1 | x\nsecond line", Took: "3s", Date: "2026-01-02"}
	codex := row{Version: "0.170.0", Base: "0.171.0", Passed: []string{"composer.idle"}, NotReached: []string{"question.free"},
		ReadOnly: []string{"confirm"}, Scenarios: "6 core", Took: "21s", Date: "2026-01-01"}
	for _, tc := range []struct {
		name    string
		before  map[string][]row // the file's rows, by agent
		agent   string
		rows    []row
		want    map[string][]string // versions by agent, in order
		replace row                 // a row that must come back as given
	}{
		{"new file", nil, "claude", []row{pinned, ok}, map[string][]string{"claude": {"2.1.330", "2.1.332"}}, ok},
		{"other agent kept", map[string][]row{"codex": {codex}}, "claude", []row{broken},
			map[string][]string{"claude": {"2.1.331"}, "codex": {"0.170.0"}}, codex},
		{"version replaced, others kept", map[string][]row{"claude": {pinned, broken}}, "claude",
			[]row{{Version: "2.1.331", Base: "2.1.332", Passed: []string{"composer.idle"}, Scenarios: "6 core", Took: "50s", Date: "2026-01-03"}, ok},
			map[string][]string{"claude": {"2.1.330", "2.1.331", "2.1.332"}}, pinned},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "docs", "versions.md")
			for a, rs := range tc.before {
				if err := updateFile(path, a, "go run ./recordings/cmd/rig -qualify "+a+"@x", rs); err != nil {
					t.Fatal(err)
				}
			}
			if err := updateFile(path, tc.agent, "cmd", tc.rows); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			doc := parseDoc(text)
			got := map[string][]string{}
			for a, s := range doc {
				for _, r := range s.Rows {
					got[a] = append(got[a], r.Version)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("versions %v, want %v\n%s", got, tc.want, text)
			}
			if doc[tc.agent].Command != "cmd" {
				t.Errorf("command %q", doc[tc.agent].Command)
			}
			for _, s := range doc {
				for _, r := range s.Rows {
					if r.Version == tc.replace.Version && !reflect.DeepEqual(r, tc.replace) {
						t.Errorf("row back as\n%+v, want\n%+v\n%s", r, tc.replace, text)
					}
				}
			}
			if render(doc) != text {
				t.Errorf("render(parseDoc(file)) differs from the file:\n%s\n---\n%s", render(doc), text)
			}
			if !strings.HasPrefix(text, "# Agent versions qualified") || !strings.Contains(text, "-qualify AGENT@FROM..TO") {
				t.Errorf("no intro:\n%s", text)
			}
		})
	}
	// The cells of an error row and a note are one line each, their
	// pipes escaped, and come back as given (on one line).
	text := render(map[string]*section{"claude": {Rows: []row{broken, ok}}})
	for _, want := range []string{
		"| 2.1.331 | 2.1.332 | error: rig: npm install: exit 1 \\| x second line |  |  |  |  | 3s | 2026-01-02 |",
		"| 2.1.330 | 2.1.332 | 2: composer.idle, permission.shell | question.single |  |  | 6 core | 1m2s | 2026-01-02 |",
		"- 2.1.330: ask-color, marker 1 (question.single) failed: read differently: a | b",
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("no line %q in\n%s", want, text)
		}
	}
	back := parseDoc(text)["claude"].Rows
	if back[0].Err != "rig: npm install: exit 1 | x second line" {
		t.Errorf("error back as %q", back[1].Err)
	}
}

func TestRowOf(t *testing.T) {
	long := strings.Repeat("x", 300)
	rep := qualify.Report{Agent: "codex", Version: "0.170.0", Base: "0.171.0", Took: 21400 * time.Millisecond,
		Scenarios: []qualify.ScenarioResult{
			{Name: "idle", Findings: []qualify.Finding{{Marker: 0, Surface: "composer.idle", Outcome: qualify.Passed}}},
			{Name: "ask-free", Findings: []qualify.Finding{{Marker: 2, Surface: "question.free", Outcome: qualify.NotReached, Detail: "ended"}}},
			{Name: "ask-color", Findings: []qualify.Finding{{Marker: 1, Surface: "question.single", Outcome: qualify.Failed, Detail: long}}},
		},
		Surfaces: []qualify.SurfaceResult{
			{Surface: "composer.idle", Outcome: qualify.Passed},
			{Surface: "question.free", Outcome: qualify.NotReached},
			{Surface: "question.single", Outcome: qualify.Failed},
		}}
	r := rowOf(rep, "core", "2026-01-01")
	want := row{Version: "0.170.0", Base: "0.171.0", Passed: []string{"composer.idle"}, Failed: []string{"question.single"},
		NotReached: []string{"question.free"}, Scenarios: "3 core", Took: "21s", Date: "2026-01-01",
		Note: "ask-color, marker 1 (question.single) failed: " + strings.Repeat("x", 200) + "…"}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("rowOf:\n%+v, want\n%+v", r, want)
	}
	rep.Scenarios = rep.Scenarios[:2]
	if r := rowOf(rep, "core", ""); r.Note != "ask-free, marker 2 (question.free) not_reached: ended" {
		t.Errorf("note without a failure: %q", r.Note)
	}
}
