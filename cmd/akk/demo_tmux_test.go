package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxDemo runs `akk demo` as a newcomer would, without a terminal:
// it acts (status, approve, a questionnaire step by step with one refusal
// on purpose, a Codex answer, a send), each step has its expected
// outcome, every strict replica ends clean, the exit status is 0, and it
// takes under 60 s.
func TestTmuxDemo(t *testing.T) {
	tmuxtest.RequireTmux(t)
	akk := buildAkk(t)
	start := time.Now()
	cmd := exec.Command(akk, "demo", "--corpus", corpusDir)
	out, err := cmd.Output()
	took := time.Since(start)
	text := string(out)
	if err != nil {
		t.Fatalf("akk demo: %v after %v:\n%s", err, took, text)
	}
	for _, want := range []string{
		"$ akk status term_", "$ akk approve term_", "$ akk respond --terminal term_", "$ akk send term_", "$ akk send --user term_", "the draft cleared first",
		"rejected_before_input: prompt_changed", "nothing was sent",
		"every replica received exactly its recorded input and ended clean",
		"tmux -S ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo's output lacks %q:\n%s", want, text)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^  \S+: .*\[ok\]$`).FindAllString(text, -1)); n != 7 {
		t.Errorf("%d steps ended [ok], want 7 (approve, the refused and two accepted questionnaire steps, the Codex answer, the send, the user-explicit send):\n%s", n, text)
	}
	if strings.Contains(text, "UNEXPECTED") {
		t.Errorf("a step had an unexpected outcome:\n%s", text)
	}
	if took > 60*time.Second {
		t.Errorf("the demo took %v, want under 60 s", took)
	}
	t.Logf("akk demo: %v", took.Round(time.Millisecond))
}
