package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

const sample = corpusDir + "/claude/2.1.267/question-digit.cast"

func TestCLIExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"--help"}, 0, "Usage: akk"},
		{[]string{"nope"}, 2, ""},
		{[]string{"replay"}, 2, ""},
		{[]string{"replay", "--check", "--dump", sample}, 2, ""},
		{[]string{"replay", "--size", "80x24", sample}, 2, ""},
		{[]string{"replay", "--check", sample}, 0, "ok: final screen equal, 2 markers"},
		{[]string{"--json", "replay", "--check", sample}, 0, `"ok":true`},
		{[]string{"replay", sample}, 0, "expect:questionnaire"},
		{[]string{"--json", "replay", sample}, 0, `"screen_state":"questionnaire"`},
		{[]string{"replica", "--speed", "slow", sample}, 2, ""},
		// Native thread transitions: usage is checked before the daemon.
		{[]string{"resume-thread", "term_x"}, 2, ""},
		{[]string{"resume-thread", "term_x", "2", "--list"}, 2, ""},
		{[]string{"close", "turn_x", "--reason", "because"}, 2, ""},
		{[]string{"new-thread"}, 2, ""},
		{[]string{"reconcile-binding", "term_x"}, 2, ""},
		// akk task takes one turn_… or watch_… id, positional or as a flag.
		{[]string{"task"}, 2, ""},
		{[]string{"task", "ses_x"}, 2, ""},
		{[]string{"task", "turn_x", "--watch", "watch_y"}, 2, ""},
		{[]string{"task", "--turn", "turn_x", "--watch", "watch_y"}, 2, ""},
		// A word that is no selector is a usage error before the daemon.
		{[]string{"status", "nonsense"}, 2, ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tc.args, &out, &errb); code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, errb.String())
			}
			if !strings.Contains(out.String(), tc.out) {
				t.Errorf("stdout %q lacks %q", out.String(), tc.out)
			}
		})
	}
}

// TestReplayDumpAndTranscript: --dump prints the final screen as tmux
// would capture it, and a raw control-mode transcript of the same bytes
// (--pane, --size) replays to the same screen.
func TestReplayDumpAndTranscript(t *testing.T) {
	rec, err := recordings.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	fdata, _ := os.ReadFile(strings.TrimSuffix(sample, ".cast") + ".final.txt")
	final, err := recordings.ParseScreen(fdata)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"replay", "--dump", sample}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	w, h := rec.Header.Width, rec.Header.Height
	dumped, err := vt.NewFromSeed(vt.Seed{Capture: out.Bytes(), Width: w, Height: h, Wrap: true})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := final.VT(vt.Options{})
	if a, b := dumped.PlainText(dumped.Bounds()), want.PlainText(want.Bounds()); a != b {
		t.Errorf("dump differs from the final screen:\n%s\n---\n%s", a, b)
	}
	// The same stream as tmux -C would print it.
	var tr []byte
	tr = append(tr, "%begin 1 1 0\n%end 1 1 0\n"...)
	for _, chunk := range bytes.SplitAfter(recordings.OutputBytes(rec.Events), []byte("\n")) {
		tr = append(tr, "%output %7 "...)
		tr = controlmode.AppendEscaped(tr, chunk)
		tr = append(tr, '\n')
	}
	path := filepath.Join(t.TempDir(), "transcript.txt")
	os.WriteFile(path, tr, 0o644)
	out.Reset()
	if code := run([]string{"replay", "--dump", "--pane", "%7", "--size", fmt.Sprintf("%dx%d", w, h), path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	fromTranscript, err := vt.NewFromSeed(vt.Seed{Capture: out.Bytes(), Width: w, Height: h, Wrap: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := fromTranscript.PlainText(fromTranscript.Bounds()), want.PlainText(want.Bounds()); a != b {
		t.Errorf("transcript replay differs:\n%s\n---\n%s", a, b)
	}
}
