package dispatch

import (
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/archtest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// TestRedactedLogs: an offer, a recognition and an action with their
// private parts set to a secret log and print without it.
func TestRedactedLogs(t *testing.T) {
	const secret = "s3cr3t-answer-text"
	var fp [32]byte
	copy(fp[:], secret)
	plan := &recognizers.Plan{Fingerprint: fp, Choices: []recognizers.Choice{{RequireText: secret,
		Steps: []recognizers.PlanStep{{Keys: []byte(secret)}}}}}
	for name, v := range map[string]any{
		"offer":       &offer{terminalID: "term_x", fp: fp, plan: plan},
		"recognition": terminal.Recognition{Screen: "idle", Fingerprint: fp, Plan: plan},
		"action":      action{op: "respond_interaction", answer: &api.Answer{Text: secret}},
	} {
		if where := archtest.Leak(v, secret); where != "" {
			t.Errorf("%s leaks its secret: %s", name, where)
		}
	}
}
