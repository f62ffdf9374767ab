package codexrig

import (
	"strings"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// status-cwd120 (issue 22): the status scenario of inspect.go again,
// with the project in the 120-character working directory of the
// environment matrix's cwd120 axis (rig.MoveWork: HOME/projects/
// client-work/... cut at 120 characters, so its tail depends on the
// length of the run's temporary directory: ".../src/i" or ".../srcx").
// The keys and markers are the status scenario's: a fresh session,
// "/status" over its list (idle, draft), Enter, the block in the history
// over the idle empty composer (idle, empty).
//
// What it draws (measured with this scenario; columns from 0):
//
//   - Codex gives the Directory as ~ and the rest (93 or 94 columns).
//     0.155.1 keeps its box within the pane: when the box would be wider
//     (94: 121 columns) the middle segment "payments-reconciliation-
//     service" becomes "…" ("~/projects/client-work/acme-corporation/
//     backend-services/…/src/i", one row, the box 91 columns; its
//     start-up card: "~/projects/client-work/…/src/i"); at 93 the row is
//     drawn whole, the box exactly 120 columns. 0.171.0 draws it whole on
//     one row (here the row's last character at 116): it fits, nothing is
//     broken or cut. (Seen by hand, not recorded: in a 100-column pane
//     0.171.0 wraps it after the "/" of "backend-services/", the rest
//     from the value column; 0.155.1 abbreviates as at 120.)

// codexCwdDir is the Directory value of Codex's /status for the long
// project: ~ for HOME and the rest; on 0.155.1, when the box would be
// wider than the pane (its Directory row wider than codexBoxWidest), the
// middle segment "…".
func codexCwdDir(version string, h *rig.Home) string {
	dir := "~" + strings.TrimPrefix(h.Work, h.Home)
	if version == "0.155.1" && len(codexDirLabel+dir) > codexBoxWidest {
		return strings.Replace(dir, "/payments-reconciliation-service/", "/…/", 1)
	}
	return dir
}

const (
	codexDirLabel = "Directory:            "
	// codexBoxWidest is the widest row 0.155.1's box holds in 120
	// columns ("│  " and " │" around it).
	codexBoxWidest = 120 - 5
)

// codexCwdStatus is /status's block on a fresh session (as codexInspects'
// status) with the Directory dir.
var codexCwdStatus = map[string]func(id, dir string) []string{
	"0.155.1": codexStatus155,
	"0.171.0": codexStatus171,
}

func codexStatusCwd() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "status-cwd120", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Setup: func(h *rig.Home, _, _ string, env []string) ([]string, error) {
			return env, rig.MoveWork(h, ".codex/config.toml")
		},
		Drive: drive(func(s steps) {
			d := s.d
			dir := codexCwdDir(d.Version, d.Home)
			d.Logger().Info("rig: Directory", "work", d.Home.Work, "shown", dir)
			s.statusRun(a, func(id string) []string { return codexCwdStatus[d.Version](id, dir) })
		})}
}
