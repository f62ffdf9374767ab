package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const corpus = "../../recordings/testdata"

// TestRecognizeCLI: akk recognize on a recording's final screen, its
// timeline, a seed-format screen and a capture-pane dump of the same
// screen, in DESIGN.md's JSON shape, never with private data.
func TestRecognizeCLI(t *testing.T) {
	cast := filepath.Join(corpus, "claude", "2.1.267", "permission-approve.cast")
	final := filepath.Join(corpus, "claude", "2.1.267", "draft.final.txt")
	for _, tc := range []struct {
		args  []string
		state string
		check func(t *testing.T, v map[string]any)
	}{
		{[]string{"recognize", "--json", cast}, "idle", nil},
		{[]string{"recognize", "--json", "--agent", "claude", "--version", "2.1.267", final}, "idle", func(t *testing.T, v map[string]any) {
			if v["composer"] != "draft" || v["draft_length"] != float64(len("a draft that is not sent")) {
				t.Errorf("draft: %v", v)
			}
		}},
		{[]string{"recognize", "--json", "--version", "9.9.9", cast}, "idle", func(t *testing.T, v map[string]any) {
			if v["profile"] != "generic" || len(v["warnings"].([]any)) == 0 {
				t.Errorf("9.9.9: %v", v)
			}
		}},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errb.String())
		}
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%v: %v: %s", tc.args, err, out.String())
		}
		if v["v"] != float64(1) || v["screen_state"] != tc.state {
			t.Errorf("%v: %v", tc.args, v)
		}
		if strings.Contains(out.String(), "a draft that is not sent") {
			t.Errorf("%v: the draft's text is in the JSON", tc.args)
		}
		if tc.check != nil {
			tc.check(t, v)
		}
	}
}

func TestRecognizeTimeline(t *testing.T) {
	cast := filepath.Join(corpus, "codex", "0.155.1", "permission-approve.cast")
	var out, errb bytes.Buffer
	if code := run([]string{"recognize", "--json", "--timeline", cast}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var states []string
	last := -1.0
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var v struct {
			T           *float64 `json:"t"`
			ScreenState string   `json:"screen_state"`
			Interaction *struct {
				Kind, State string
				Decisions   []string
			} `json:"interaction"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil || v.T == nil || *v.T < last {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		last = *v.T
		states = append(states, v.ScreenState)
		if v.Interaction != nil && v.Interaction.State == "pending" && strings.Join(v.Interaction.Decisions, ",") != "approve_once" {
			t.Errorf("decisions %v", v.Interaction.Decisions)
		}
	}
	got := strings.Join(states, " ")
	if !strings.Contains(got, "awaiting_approval") || !strings.Contains(got, "working") || !strings.HasSuffix(got, "idle") {
		t.Errorf("timeline %s", got)
	}
}

// TestRecognizeCaptureDump: a capture-pane -p -e dump (the seed format's
// capture part) reads like the screen it came from.
func TestRecognizeCaptureDump(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "claude", "2.1.267", "permission-approve.final.txt"))
	if err != nil {
		t.Fatal(err)
	}
	body := bytes.TrimSuffix(data, []byte("\n"))
	dump := filepath.Join(t.TempDir(), "dump.txt")
	if err := os.WriteFile(dump, body[:bytes.LastIndexByte(body, '\n')+1], 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"recognize", "--agent", "claude", "--version", "2.1.267", "--size", "120x40", dump}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "claude@2.1.267  idle  composer empty") {
		t.Errorf("got %q", out.String())
	}
	if code := run([]string{"recognize", dump}, &out, &errb); code != exitUsage {
		t.Errorf("a dump without --agent/--version: exit %d", code)
	}
}

// TestReplayCheckRecognizes: akk replay --check fails on a marker the
// recognizers contradict.
func TestReplayCheckRecognizes(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(corpus, "claude", "2.1.267", "idle")
	cast, _ := os.ReadFile(src + ".cast")
	final, _ := os.ReadFile(src + ".final.txt")
	bad := bytes.Replace(cast, []byte(`expect:idle {\"composer\":\"empty\"`), []byte(`expect:working {\"composer\":\"empty\"`), 1)
	if bytes.Equal(bad, cast) {
		t.Fatal("marker not found")
	}
	for name, data := range map[string][]byte{"good": cast, "bad": bad} {
		os.WriteFile(filepath.Join(dir, name+".cast"), data, 0o644)
		os.WriteFile(filepath.Join(dir, name+".final.txt"), final, 0o644)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"replay", "--check", filepath.Join(dir, "good.cast")}, &out, &errb); code != 0 {
		t.Fatalf("good: exit %d: %s %s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"replay", "--check", filepath.Join(dir, "bad.cast")}, &out, &errb); code == 0 ||
		!strings.Contains(out.String(), "screen_state: marker working, recognized idle") {
		t.Errorf("bad: exit %d: %s", code, out.String())
	}
}

// TestRecognizeExplain: --explain on a recording's marker, as text for a
// person (the first differing cells) and as JSON (rule names, rows,
// columns and what the profile expected; no screen text: the draft of a
// draft screen is nowhere in it).
func TestRecognizeExplain(t *testing.T) {
	dialog := filepath.Join(corpus, "claude", "2.1.267", "edit-approve.cast")
	var out, errb bytes.Buffer
	if code := run([]string{"recognize", "--explain", "--marker", "0", dialog}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"profile claude@2.1.267 (exact)", "claude21.permission", "claude21.permQuestion", "result claude@2.1.267: awaiting_approval"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	draft := filepath.Join(corpus, "claude", "2.1.267", "draft.final.txt")
	out.Reset()
	if code := run([]string{"recognize", "--explain", "--json", "--agent", "claude", "--version", "2.1.267", draft}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v struct {
		V        int
		Profiles []struct {
			Profile string
			Steps   []map[string]any
		}
		Result map[string]any
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.V != 1 || len(v.Profiles) == 0 || len(v.Profiles[0].Steps) == 0 {
		t.Fatalf("%v: %s", err, out.String())
	}
	if v.Result["screen_state"] != "idle" || v.Result["composer"] != "draft" {
		t.Errorf("result %v", v.Result)
	}
	if strings.Contains(out.String(), "a draft that is not sent") || strings.Contains(out.String(), `"got"`) {
		t.Errorf("screen text in the JSON: %s", out.String())
	}
	if code := run([]string{"recognize", "--explain", "--timeline", dialog}, &out, &errb); code != 2 {
		t.Errorf("--explain --timeline: exit %d, want 2 (usage)", code)
	}
	if code := run([]string{"recognize", "--marker", "9", dialog}, &out, &errb); code != 2 {
		t.Errorf("--marker 9 of 2: exit %d, want 2 (usage)", code)
	}
}
