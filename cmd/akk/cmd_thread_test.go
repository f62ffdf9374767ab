package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// TestPrintThread: the listing numbers the conversations with their short
// refs and marks the previous one; a transition prints what it left and
// entered, and says when Codex has not written the new one yet.
func TestPrintThread(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	err := printCandidates(&Globals{}, &out, api.ThreadCandidates{TerminalID: "term_x", ExpiresAt: at, Candidates: []api.ThreadCandidate{
		{Number: 1, NativeThreadID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", ShortRef: "7c9e6679", Title: "fix the tests", UpdatedAt: at, Previous: true},
		{Number: 2, NativeThreadID: "019aa111-0000-7000-8000-000000000001", ShortRef: "019aa111", Title: "first-thread please", UpdatedAt: at},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#  REF", "1  7c9e6679", "fix the tests  (previous)", "2  019aa111", "akk resume-thread term_x <# or REF>"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("listing lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := printCandidates(&Globals{}, &out, api.ThreadCandidates{TerminalID: "term_x"}); err != nil || !strings.Contains(out.String(), "no conversation") {
		t.Errorf("empty listing: %q %v", out.String(), err)
	}
	out.Reset()
	res := api.ActionResult{Op: api.OpNewThread, Outcome: api.OutcomeAccepted, DoNotRetry: true,
		ThreadFacts: &api.ThreadFacts{PreviousNativeThreadID: "019aa111-0000-7000-8000-000000000001", BindingGeneration: 4}}
	if err := printThread(&Globals{}, &out, res, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"left 019aa111-0000-7000-8000-000000000001", "not written yet", "binding generation 4", "new_thread: accepted"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("result lacks %q:\n%s", want, out.String())
		}
	}
}
