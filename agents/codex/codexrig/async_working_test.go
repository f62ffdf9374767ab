package codexrig

import (
	"path/filepath"
	"testing"
)

// TestCodexSteerQueueRecorded: the recorded rollouts of async-working and
// async-working-queue hold what the scenarios measured (the steered answer
// in the first turn, the queued one in the second), on 0.171.0 as the
// answers of a "<send_user_message_question_reply>" message.
func TestCodexSteerQueueRecorded(t *testing.T) {
	for _, tc := range []struct{ surface, steered, queued string }{
		{"async-working", "\n\nGreen", ""},
		{"async-working-queue", "\n\nPurple", "\n\nTeal"},
		{"async-queue-text", "\n\nGreen", "\n\nPurple"},
	} {
		paths, _ := filepath.Glob(filepath.Join("..", "..", "..", "recordings", "testdata", "codex", "*", tc.surface+".rollout.jsonl"))
		if len(paths) == 0 {
			t.Errorf("%s: no recorded rollout", tc.surface)
		}
		for _, p := range paths {
			if err := codexCheckSteerQueue(p, tc.steered, tc.queued); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
	}
}
