package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeys: a prompt is echoed; "run <cmd>" asks first, Up and Down move
// the dialog's highlight, Enter picks the highlighted row, a digit its
// own, Esc declines; the journal records each step; ctrl+d ends it.
func TestKeys(t *testing.T) {
	home := t.TempDir()
	j, err := openJournal(home, "/src")
	if err != nil {
		t.Fatal(err)
	}
	a := &app{j: j, w: 80, h: 24}
	steps := []struct {
		keys  string
		shows []string
	}{
		{"hel\x7flo\r", []string{header, "› helo", footer}},
		{"run ls\r", []string{askText, " ls", "❯ 1. Yes", "  2. No", cancel}},
		{"\x1b[B", []string{"  1. Yes", "❯ 2. No"}},
		{"\r", []string{"● Declined: ls", footer}},
		{"run pwd\r1", []string{"● Ran: pwd (nothing was run)", "Ran: pwd"}},
		{"run rm\r\x1b", []string{"● Declined: rm"}},
		{"draft", []string{glyph}},
	}
	for _, s := range steps {
		if !a.keys([]byte(s.keys)) {
			t.Fatalf("%q ended it", s.keys)
		}
		f := a.frame()
		for _, want := range s.shows {
			if !strings.Contains(f, want) {
				t.Errorf("after %q the frame lacks %q", s.keys, want)
			}
		}
	}
	if string(a.draft) != "draft" || !strings.HasSuffix(a.frame(), "draft\x1b[?25h") {
		t.Errorf("draft %q, frame ends %q", string(a.draft), a.frame()[len(a.frame())-20:])
	}
	if a.keys([]byte{0x04}) {
		t.Error("ctrl+d did not end it")
	}
	j.close()
	files, _ := filepath.Glob(filepath.Join(home, ".parrot", "sessions", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("sessions %v", files)
	}
	b, _ := os.ReadFile(files[0])
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r record
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Time == "" {
			t.Fatalf("line %q: %v", l, err)
		}
		got = append(got, r.Type+":"+r.Decision+r.Outcome)
	}
	want := "session: prompt: reply: turn_end:completed prompt: tool_call: tool_result:no turn_end:declined " +
		"prompt: tool_call: tool_result:yes reply: turn_end:completed prompt: tool_call: tool_result:cancel turn_end:declined"
	if strings.Join(got, " ") != want {
		t.Errorf("journal %s\nwant    %s", strings.Join(got, " "), want)
	}
}

// TestSmallTerminal: a terminal too small for its panes says so and
// draws nothing else.
func TestSmallTerminal(t *testing.T) {
	a := &app{w: 40, h: 5}
	if f := a.frame(); !strings.Contains(f, "too small") || strings.Contains(f, header) {
		t.Errorf("frame %q", f)
	}
}

// TestRedacted: the draft and the texts never print.
func TestRedacted(t *testing.T) {
	const secret = "s3cr3t"
	text := secret
	for _, v := range []any{&app{draft: []rune(secret), lines: []line{{text: secret}}}, line{text: secret, rest: secret}, record{Type: "prompt", Text: &text}} {
		if s := fmt.Sprintf("%v %+v %s", v, v, v); strings.Contains(s, secret) {
			t.Errorf("%T prints its text: %s", v, s)
		}
	}
}
