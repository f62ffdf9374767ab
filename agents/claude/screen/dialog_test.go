package screen_test

import (
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
)

// TestClaudeWrappedLabel: an option label that wraps onto a continuation
// row is joined only where the version's recording shows that wrap
// (2.1.267 permission-narrow and 2.1.332 bash-long-80: the persistent
// grant's path, one row);
// every other wrap is wrapped_label, zero input. Each case first proves
// its source actionable.
func TestClaudeWrappedLabel(t *testing.T) {
	narrow := screentest.Recognize(screentest.MarkerScreen(t, "claude", "2.1.267", "permission-narrow", 0), "claude", "2.1.267")
	screentest.AssertActionable(t, "claude@2.1.267/permission-narrow", &narrow, permission)

	for _, v := range versions {
		scr, r := screentest.RecordedSource(t, "claude", v, permission)
		if scr == nil {
			continue
		}
		w, h := scr.Size()
		opts := screentest.Options(&r)
		grant := opts[1] // "Yes, and always allow access to <dir> from this project"
		x := screentest.FindText(scr, grant.Row, grant.Label)
		if grant.Role != recognizers.RolePersistent || x < 0 {
			t.Fatalf("%s: row 2 is %+v", v, grant)
		}
		wrap := func(rows int) recognizers.Recognition {
			mut := screentest.CopyScreen(scr, 0, w, h)
			for range rows {
				// The grant and its earlier rows move up: the new row is
				// the last under it.
				mut = screentest.InsertRow(mut, grant.Row)
				screentest.WriteText(mut, x, grant.Row, "and the rest", scr.Cell(x, grant.Row).Style)
			}
			return screentest.Recognize(mut, "claude", v)
		}
		// The rows a recording shows the grant's path take: none on
		// 2.1.263/266, one on 2.1.267, two on 2.1.332 (60 columns).
		proven := map[string]int{"2.1.267": 1, "2.1.332": 2}[v]
		for rows := 1; rows <= proven+1; rows++ {
			r := wrap(rows)
			switch {
			case rows <= proven && (!r.Actionable() || !slices.Equal(r.Interaction.Decisions, []contract.Decision{contract.DecisionApproveOnce, contract.DecisionReject})):
				t.Errorf("%s: the recorded wrap of the grant onto %d rows is not actionable: %v", v, rows, screentest.ReasonCodes(r))
			case rows > proven && (r.Actionable() || !screentest.HasReason(r, recognizers.ReasonWrappedLabel)):
				t.Errorf("%s: %d wrapped rows: actionable %v, reasons %v, want wrapped_label", v, rows, r.Actionable(), screentest.ReasonCodes(r))
			}
		}
	}
}
