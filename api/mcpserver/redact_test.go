package mcpserver

import (
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/archtest"
)

// TestRedactedInputs: a host's answer and task text never reach a log.
func TestRedactedInputs(t *testing.T) {
	const secret = "s3cr3t-host-text"
	for name, v := range map[string]any{
		"respondIn": respondIn{TurnID: "turn_x", Answers: []api.Answer{{Text: secret}}},
		"sendIn":    sendIn{TerminalID: "term_x", Request: secret},
	} {
		if where := archtest.Leak(v, secret); where != "" {
			t.Errorf("%s leaks its text: %s", name, where)
		}
	}
}

// TestRedactedToken: the server's options hold the bearer token; printing
// or logging them shows it nowhere.
func TestRedactedToken(t *testing.T) {
	tok := newToken(t)
	if where := archtest.Leak(Options{Socket: "/run/akk.sock", Owner: "host", Token: tok}, tok.Reveal()); where != "" {
		t.Errorf("Options leak the token: %s", where)
	}
}
