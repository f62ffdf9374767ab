package api

import (
	"testing"

	"github.com/agent-knock-knock/akk/internal/archtest"
)

// TestIdentifyRedacted: identify_and_send's request logs and prints its
// length, never its text.
func TestIdentifyRedacted(t *testing.T) {
	const secret = "s3cr3t-task-text"
	if where := archtest.Leak(IdentifyAndSendRequest{TerminalID: "term_x", Request: secret}, secret); where != "" {
		t.Errorf("IdentifyAndSendRequest leaks its text: %s", where)
	}
}
