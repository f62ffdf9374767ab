package supervisor

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/codexrig"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings/qualify"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/store"
)

// liveQualifications are the newest Claude Code 2.1.x and Codex 0.x akk
// does not pin on 2026-12-08, with what their core qualification finds:
// Claude Code 2.1.337 draws its questionnaires' top rule in the default
// colour where 2.1.332 drew it grey, so every question surface fails;
// Codex 0.170.0 draws all of 0.171.0's core surfaces.
var liveQualifications = []struct {
	agent, version, base string
	passed, failed       []string
	// tool is the fake model's keyword that asks for a shell command.
	tool string
	// environs: the user's own theme the runs take from userHome.
	environs []string
}{
	{"claude", "2.1.337", "2.1.332", []string{"blocked", "composer.idle", "permission.shell"},
		[]string{"confirmation", "free_text", "question.single", "question.steps"}, "run-touch", []string{"theme-light"}},
	{"codex", "0.170.0", "0.171.0", []string{"blocked", "composer.idle", "confirmation", "free_text", "permission.shell", "question.single"},
		nil, "run-ls", nil},
}

// TestLiveQualify qualifies each binary with `akk qualify --local` inside
// a network namespace with only loopback up, with a user's HOME that is
// byte-identical afterwards (Claude Code runs in the user's light theme,
// read from that HOME's ~/.claude.json); a copy of the binary changed by one byte has
// another identity, unqualified. Then the daemon, on the store the
// qualification wrote, acts on the real agent: a permission on a passed
// surface is approved once and its command runs once; Claude's question,
// on a failed surface, gets zero input (unqualified_surface).
func TestLiveQualify(t *testing.T) {
	akk := buildAkk(t)
	for _, tc := range liveQualifications {
		t.Run(tc.agent, func(t *testing.T) {
			tmuxtest.RequireTmux(t)
			in, err := rig.Lookup(tc.agent, tc.version)
			tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("%s@%s not installed (go run ./recordings/cmd/rig -install %s@%s): %v",
				tc.agent, tc.version, tc.agent, tc.version, err))
			storeDir := filepath.Join(t.TempDir(), "store")
			home := userHome(t)
			before := treeDigest(t, home)
			rep := qualifyOffline(t, akk, in.Bin, storeDir, home)
			if after := treeDigest(t, home); after != before {
				t.Errorf("akk qualify changed the user's HOME:\nbefore %s\nafter  %s", before, after)
			}
			t.Logf("%s %s against %s in %s: %d scenarios", tc.agent, tc.version, rep.Base, rep.Took.Round(time.Second), len(rep.Scenarios))
			for _, s := range rep.Surfaces {
				t.Logf("  %-18s %-11s %s", s.Surface, s.Outcome, strings.Join(s.Scenarios, " "))
			}
			if !slices.Equal(rep.Environs, tc.environs) {
				t.Errorf("ran in %v, want the user's %v", rep.Environs, tc.environs)
			}
			if got := names(rep.Outcomes(qualify.Passed)); rep.Base != tc.base || !slices.Equal(got, tc.passed) {
				t.Errorf("against %s passed %v, want %s: %v", rep.Base, got, tc.base, tc.passed)
			}
			if got := names(rep.Outcomes(qualify.Failed)); !slices.Equal(got, tc.failed) {
				t.Errorf("failed %v, want %v", got, tc.failed)
			}
			changedByOneByte(t, tc.agent, rep.Identity, in.Bin, storeDir)

			// The agent runs as the qualification ran it: with the
			// base's knowledge (Codex's model, which 0.170.0 would
			// otherwise nudge away from at startup, like 0.171.0).
			model := ""
			if tc.agent == "codex" {
				model = codexrig.Model(tc.base)
			}
			la := prepareLiveModel(t, tc.agent, tc.version, model, rig.Script(tc.agent, tc.base))
			la.openPane(t)
			ld := liveDispatchOn(t, la, tc.agent, la.withRoots(daemonOpts{storeDir: storeDir}), 6*time.Minute)
			want := api.Qualification{Base: tc.base, Passed: len(tc.passed), Judged: len(rep.Surfaces)}
			if q := ld.row().Qualification; q == nil || *q != want {
				t.Fatalf("the row's qualification is %+v, want %+v", q, want)
			}
			ran := toolCalls(la)
			turn := ld.send(tc.tool)
			ld.awaitScreen(contract.ScreenAwaitingApproval)
			ld.decide(turn, contract.DecisionApproveOnce)
			ld.idle()
			ld.awaitSettled(turn)
			if n := toolCalls(la) - ran; n != 1 {
				t.Errorf("the approved command was asked for %d times", n)
			}
			if len(tc.failed) > 0 {
				unqualifiedQuestion(t, ld)
			}
		})
	}
}

// qualifyOffline runs akk qualify --local in a new user and network
// namespace whose only interface, loopback, is up, with HOME home, and
// returns its report.
func qualifyOffline(t *testing.T, akk, bin, storeDir, home string) qualify.Report {
	t.Helper()
	_, err := exec.LookPath("unshare")
	tmuxtest.Require(t, "live", err == nil, "unshare (util-linux) is not installed")
	script := `ip link set lo up && exec "$0" qualify --local --json --store "$1" --binary "$2"`
	cmd := exec.Command("unshare", "-rn", "sh", "-c", script, akk, storeDir, bin)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + t.TempDir(), "LANG=C.UTF-8"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("akk qualify: %v\n%s", err, stderr.String())
	}
	t.Logf("akk qualify:\n%s", stderr.String())
	var rep qualify.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("the report: %v: %s", err, stdout.String())
	}
	return rep
}

// userHome is a person's HOME with the agents' own settings in it.
func userHome(t *testing.T) string {
	home := t.TempDir()
	for name, body := range map[string]string{
		".claude.json":              `{"theme":"light","numStartups":40,"projects":{}}`,
		".claude/settings.json":     `{"permissions":{"defaultMode":"default"}}`,
		".codex/config.toml":        "model = \"gpt-5.5\"\n[tui]\ntheme = \"dark\"\n",
		".gemini/settings.json":     `{"ui":{"theme":"Default"}}`,
		".config/opencode/tui.json": `{"theme":"opencode"}`,
		"notes.txt":                 "a person's file",
	} {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// treeDigest is every entry under root: its path, mode, size, time and
// content's SHA-256.
func treeDigest(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %d", strings.TrimPrefix(p, root), fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			body, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(body))
		}
		b.WriteString("; ")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// changedByOneByte: the qualified binary's files, one of them copied with
// one byte changed, make another identity, which has no record.
func changedByOneByte(t *testing.T, agent, identity, bin, storeDir string) {
	t.Helper()
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	body[len(body)/2] ^= 0x01
	copyPath := filepath.Join(t.TempDir(), filepath.Base(real))
	if err := os.WriteFile(copyPath, body, 0o755); err != nil {
		t.Fatal(err)
	}
	var h procid.Hasher
	orig, err := h.Identity(real)
	if err != nil {
		t.Fatal(err)
	}
	changed, err := h.Identity(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if orig == changed {
		t.Fatal("a changed byte kept the identity")
	}
	st, err := store.Open(storeDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Qualification(agent, identity); err != nil {
		t.Fatalf("the qualified identity has no record: %v", err)
	}
	if _, err := st.Qualification(agent, changed); err == nil {
		t.Error("the changed copy counts as qualified")
	}
}

// toolCalls counts the fake model's replies that called a tool.
func toolCalls(la *liveAgent) int {
	n := 0
	for _, r := range la.log.Requests() {
		if r.Kind == "main" && r.Tool != "" {
			n++
		}
	}
	return n
}

// unqualifiedQuestion: a question on a surface the qualification failed
// is manual_required for unqualified_surface, offers nothing, and an
// answer gets zero input: the screen stays as it was.
func unqualifiedQuestion(t *testing.T, ld *liveDispatch) {
	t.Helper()
	ld.send("ask-color")
	var row api.Terminal
	awaitRow(t, ld.d.cl, ld.la.pane, 60*time.Second, func(r api.Terminal) string {
		row = r
		if in := r.Interaction; r.ScreenState != contract.ScreenQuestionnaire || in == nil ||
			in.State != contract.StateManualRequired || !slices.Contains(in.Reasons, api.ReasonUnqualifiedSurface) {
			return "a questionnaire, manual_required for unqualified_surface"
		}
		return ""
	})
	screen := ld.la.srv.MustRun("capture-pane", "-p", "-e", "-t", ld.la.pane)
	res, err := ld.d.cl.Send(ld.ctx, api.SendRequest{TerminalID: row.TerminalID, Request: "blue"})
	if err != nil || res.Outcome == api.OutcomeAccepted || res.ReceiptID != "" {
		t.Fatalf("a send over an unqualified question: %+v %v", res, err)
	}
	// No reservation was made, so the transaction, the only writer of
	// input, typed nothing; the pane shows the same.
	if now := ld.la.srv.MustRun("capture-pane", "-p", "-e", "-t", ld.la.pane); !bytes.Equal(now, screen) {
		t.Errorf("the question's screen changed after a refusal:\n%s", now)
	}
}

func names(ss []recognizers.Surface) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, string(s))
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// TestLiveQualifyAuto: with qualify = "auto", a daemon that meets Codex
// 0.170.0, which it does not pin and no record covers, qualifies that
// binary by itself in the background; the pane then reads as qualified
// and a real permission on it is approved once.
func TestLiveQualifyAuto(t *testing.T) {
	const agent, version, base = "codex", "0.170.0", "0.171.0"
	la := prepareLiveModel(t, agent, version, codexrig.Model(base), rig.Script(agent, base))
	la.openPane(t)
	ld := liveDispatchOnAny(t, la, agent, la.withRoots(daemonOpts{qualifyDir: filepath.Join(t.TempDir(), "qualify"), qualify: QualifyAuto}), 4*time.Minute)
	start := time.Now()
	row := awaitRow(t, ld.d.cl, la.pane, 150*time.Second, func(r api.Terminal) string {
		if r.Qualification == nil {
			return "a qualification"
		}
		return ""
	})
	t.Logf("qualified by the daemon as %s on %d/%d surfaces %v after it met the binary",
		row.Qualification.Base, row.Qualification.Passed, row.Qualification.Judged, time.Since(start).Round(time.Second))
	ld.idle()
	ran := toolCalls(la)
	turn := ld.send("run-ls")
	ld.awaitScreen(contract.ScreenAwaitingApproval)
	ld.decide(turn, contract.DecisionApproveOnce)
	ld.idle()
	if n := toolCalls(la) - ran; n != 1 {
		t.Errorf("the approved command was asked for %d times", n)
	}
}
