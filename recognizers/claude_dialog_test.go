package recognizers_test

import (
	"os"
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/recognizers"
)

// TestClaudeWrappedLabel: an option label that wraps onto a continuation
// row is joined only where the version's recording shows that wrap
// (2.1.267 permission-narrow and 2.1.332 bash-long-80: the persistent
// grant's path, one row);
// every other wrap is wrapped_label, zero input. Each case first proves
// its source actionable.
func TestClaudeWrappedLabel(t *testing.T) {
	narrow := recognize(markerScreen(t, "claude", "2.1.267", "permission-narrow", 0), "claude", "2.1.267")
	assertActionable(t, "claude@2.1.267/permission-narrow", &narrow, claudeSources[0])

	for _, v := range claudeVersions {
		if _, err := os.Stat(castPath("claude", v, "permission-approve")); err != nil {
			continue
		}
		scr := markerScreen(t, "claude", v, "permission-approve", 0)
		w, h := scr.Size()
		r := recognize(copyScreen(scr, 0, w, h), "claude", v)
		assertActionable(t, "claude@"+v+"/permission", &r, claudeSources[0])
		opts := options(&r)
		grant := opts[1] // "Yes, and always allow access to <dir> from this project"
		x := findText(scr, grant.Row, grant.Label)
		if grant.Role != recognizers.RolePersistent || x < 0 {
			t.Fatalf("%s: row 2 is %+v", v, grant)
		}
		wrap := func(rows int) recognizers.Recognition {
			mut := copyScreen(scr, 0, w, h)
			for range rows {
				// The grant and its earlier rows move up: the new row is
				// the last under it.
				mut = insertRow(mut, grant.Row)
				writeText(mut, x, grant.Row, "and the rest", scr.Cell(x, grant.Row).Style)
			}
			return recognize(mut, "claude", v)
		}
		one, two := wrap(1), wrap(2)
		if v == "2.1.267" || v == "2.1.332" {
			if !one.Actionable() || !slices.Equal(one.Interaction.Decisions, []string{recognizers.ApproveOnce, recognizers.Reject}) {
				t.Errorf("%s: the recorded wrap of the grant is not actionable: %v", v, reasonCodes(one))
			}
		} else if one.Actionable() || !slices.Equal(reasonCodes(one), []string{recognizers.ReasonWrappedLabel}) {
			t.Errorf("%s: one wrapped row: actionable %v, reasons %v, want wrapped_label only", v, one.Actionable(), reasonCodes(one))
		}
		if two.Actionable() || !hasReason(two, recognizers.ReasonWrappedLabel) {
			t.Errorf("%s: two wrapped rows: actionable %v, reasons %v, want wrapped_label", v, two.Actionable(), reasonCodes(two))
		}
	}
}
