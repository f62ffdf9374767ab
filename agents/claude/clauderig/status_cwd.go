package clauderig

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// status-cwd120 (issue 22): the status scenario of inspect.go again,
// with the project in the 120-character working directory of the
// environment matrix's cwd120 axis (rig.MoveWork: HOME/projects/
// client-work/... cut at 120 characters, so its tail depends on the
// length of the run's temporary directory: ".../src/i" or ".../srcx").
// The keys and markers are the status scenario's: one answered prompt,
// "/status" over its list (idle, draft), the panel (menu_or_viewer,
// composer absent), Esc (idle, empty).
//
// What it draws (measured with this scenario; columns from 0):
//
//   - Claude Code breaks the cwd value (a path: no space in it) inside a
//     word, wherever the panel's row ends: 2.1.267's label at column 3,
//     its value at 31, the row's last character at 116 (86 characters of
//     the path a row); 2.1.332's at 2, 30 and 117 (88). The rest goes on
//     the next row from the value column, nothing in between (no "…", no
//     hyphen, no indent of its own): ".../backend-services/pay" over
//     "ments-reconciliation-service/src/i". No other row moves.

// claudeCwdLayout is where a Claude Code version's Status panel draws its
// rows: the label's column, the value's, and the column after a row's
// last character.
type claudeCwdLayout struct{ indent, col, limit int }

var claudeCwdLayouts = map[string]claudeCwdLayout{
	"2.1.267": {3, 31, 117},
	"2.1.332": {2, 30, 118},
}

// claudeCwdRows are the panel's rows of a cwd value (no spaces in it):
// cut every limit-col characters, each piece from the value column.
func claudeCwdRows(l claudeCwdLayout, work string) []string {
	head := strings.Repeat(" ", l.indent) + "cwd:"
	head += strings.Repeat(" ", l.col-len(head))
	var rows []string
	for rest := work; rest != ""; {
		n := min(len(rest), l.limit-l.col)
		rows = append(rows, head+rest[:n])
		rest, head = rest[n:], strings.Repeat(" ", l.col)
	}
	return rows
}

func claudeStatusCwd() *rig.Scenario {
	return &rig.Scenario{Name: "status-cwd120", Agent: "claude", Only: claudeInspectVersions, Script: claudeScript,
		Setup: func(h *rig.Home, _, _ string, env []string) ([]string, error) {
			return env, rig.MoveWork(h, ".claude.json")
		},
		Drive: drive(func(s steps) {
			d := s.d
			rows := claudeCwdRows(claudeCwdLayouts[d.Version], d.Home.Work)
			if len(rows) < 2 {
				s.Do(func() error { return fmt.Errorf("rig: the cwd %q fits one row", d.Home.Work) })
				return
			}
			// The panel's rows as statusPanel reads them: a value's
			// screen rows joined with a space.
			var pieces []string
			for _, r := range rows {
				pieces = append(pieces, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r), "cwd:")))
			}
			want := slices.Clone(claudeInspects[d.Version].statusRows)
			for i := range want {
				if want[i].label == "cwd" {
					want[i].value = strings.Join(pieces, " ")
				}
			}
			s.answer(inspectPrompt, 1)
			s.statusInspect(want, func() {
				s.RowBlock("the cwd value's rows", rows)
				s.Do(func() error { d.Logger().Info("rig: cwd rows", "rows", fmt.Sprintf("%q", rows)); return nil })
			})
		})}
}
