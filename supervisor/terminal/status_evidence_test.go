package terminal

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// TestFailedRules: a status of a screen akk cannot read names the rules
// that failed (names, rows, columns), never the screen's text; a screen
// that reads has none of its entry rules failing after the one it is.
func TestFailedRules(t *testing.T) {
	data, err := os.ReadFile("../../recordings/testdata/claude/2.1.267/draft.final.txt")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := recordings.ParseScreen(data)
	if err != nil {
		t.Fatal(err)
	}
	scr, err := sc.VT(vt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The footer row gone: the composer frame no longer holds, and
	// nothing else does: unknown.
	w, h := scr.Size()
	for x := range w {
		scr.SetCell(x, h-1, vt.Cell{Text: " ", Width: 1})
	}
	if r := recognizers.Recognize(recognizers.Lookup("claude", "2.1.267"), scr, recognizers.TestKey); r.ScreenState != contract.ScreenUnknown {
		t.Fatalf("the mutated screen reads %s", r.ScreenState)
	}
	rules := failedRules("claude", "2.1.267", scr)
	if len(rules) == 0 || len(rules) > maxFailedRules {
		t.Fatalf("%d failed rules: %+v", len(rules), rules)
	}
	names := map[string]bool{}
	for _, r := range rules {
		names[r.Rule] = true
		if r.Row < 0 || r.Row >= h || r.Check == "" {
			t.Errorf("rule %+v", r)
		}
	}
	if !names["claude21.composer"] {
		t.Errorf("the composer's rule is not among the failed ones: %+v", rules)
	}
	b, _ := json.Marshal(rules)
	if strings.Contains(string(b), "a draft that is not sent") || strings.Contains(string(b), "draft") {
		t.Errorf("screen text in the rules: %s", b)
	}
	if failedRules(api.AgentNone, "", scr) != nil {
		t.Error("rules for a pane with no agent")
	}
}

// TestReadyRefusesAutoContinue: a block the agent leaves by itself
// (Claude's "Continuing automatically at …") takes no send, since a prompt
// would cancel the continuation; the same block without it does.
func TestReadyRefusesAutoContinue(t *testing.T) {
	r := Recognition{Exact: true, Composer: "empty", Screen: contract.ScreenBlocked,
		Blocked: &api.Blocked{Reason: recognizers.BlockedUsageLimit, ResetsAtShown: "9:36pm (UTC)"}}
	if !Ready(r) {
		t.Fatal("a usage limit above an empty composer takes no send")
	}
	r.Blocked.AutoContinue = true
	if Ready(r) {
		t.Error("a send is offered where Claude continues by itself")
	}
}
