package dispatch

import (
	"fmt"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// TestOfferBookSweeps: past maxOffers entries, offers older than the
// horizon are dropped when a new one is put; fresh ones stay.
func TestOfferBookSweeps(t *testing.T) {
	var b offerBook
	now := time.Unix(1700000000, 0)
	for i := range maxOffers {
		b.put(&offer{controller: fmt.Sprintf("mcp:%d", i), terminalID: "term_a", made: now})
	}
	fresh := &offer{controller: "cli:0", terminalID: "term_a", made: now.Add(OfferHorizon - time.Second)}
	b.put(fresh)
	if got := b.get("cli:0", "term_a"); got != fresh {
		t.Fatal("the new offer is missing")
	}
	if len(b.offers) != maxOffers+1 {
		t.Fatalf("%d offers, want %d: none is past the horizon yet", len(b.offers), maxOffers+1)
	}
	late := &offer{controller: "cli:1", terminalID: "term_a", made: now.Add(OfferHorizon + time.Second)}
	b.put(late)
	if len(b.offers) != 2 || b.get("cli:1", "term_a") != late || b.get("cli:0", "term_a") != fresh {
		t.Fatalf("after the sweep: %d offers", len(b.offers))
	}
}

// TestCheckText: invariant 1's text rules for tasks and answers.
func TestCheckText(t *testing.T) {
	for _, tc := range []struct {
		text      string
		multiline bool
		reason    string // "" accepted
	}{
		{"fix the failing test", false, ""},
		{"Purple please", false, ""},
		{"first line\nsecond line", true, ""},
		{"first line\nsecond line", false, api.ReasonBadText},
		{"/exit", false, api.ReasonSlashCommand},
		{"  /model gpt", false, api.ReasonSlashCommand},
		{"run this\n/exit", true, ""}, // only the first line is a command
		{"a\x1b[Bb", false, api.ReasonBadText},
		{"a\rb", true, api.ReasonBadText},
		{"a\x7fb", false, api.ReasonBadText},
		{"a\u0085b", false, api.ReasonBadText},
		{"\xff\xfe", false, api.ReasonBadText},
		{"   ", false, api.ReasonBadText},
		{"tab\tseparated", false, ""},
	} {
		r := checkText(tc.text, tc.multiline)
		got := ""
		if r != nil {
			got = r.reason
		}
		if got != tc.reason {
			t.Errorf("checkText(%q, %v) = %q, want %q", tc.text, tc.multiline, got, tc.reason)
		}
	}
}

// TestSendFacts: a send's outcome as seed 003's separate facts.
func TestSendFacts(t *testing.T) {
	for _, tc := range []struct {
		out                        api.ActionResult
		dispatched                 bool
		acceptance, mgmt, observed string
	}{
		{api.ActionResult{Outcome: api.OutcomeAccepted, TurnID: "turn_a", Evidence: "transcript:request_hash"}, true, api.AcceptanceAccepted, "managed_turn", api.WatchExactTask},
		{api.ActionResult{Outcome: api.OutcomeAccepted, TurnID: "turn_a", Evidence: "screen:submitted (replica: no transcript)"}, true, api.AcceptanceScreenOnly, "managed_turn", api.WatchTerminalActivity},
		{api.ActionResult{Outcome: api.OutcomePending, TurnID: "turn_a", Evidence: "screen:submitted; acceptance pending"}, true, api.AcceptancePending, "managed_turn", api.WatchExactTask},
		{api.ActionResult{Outcome: api.OutcomeUncertain, TurnID: "turn_a"}, true, api.AcceptanceUncertain, "", ""},
		{api.ActionResult{Outcome: api.OutcomeRejected}, false, api.AcceptanceNone, "", ""},
		{api.ActionResult{Outcome: api.OutcomeAlreadyDone, TurnID: "turn_a"}, false, api.AcceptanceNone, "", ""},
	} {
		f := withFacts(tc.out).SendFacts
		if f == nil || f.TerminalInputDispatched != tc.dispatched || f.AgentAcceptance != tc.acceptance ||
			f.ManagementMode != tc.mgmt || f.ObservationMode != tc.observed || (tc.mgmt != "") != (len(f.Capabilities) > 0) {
			t.Errorf("%s %s: facts %+v", tc.out.Outcome, tc.out.Evidence, f)
		}
	}
}
