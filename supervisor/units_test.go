package supervisor

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/watchers"
)

func TestActivityState(t *testing.T) {
	for _, tc := range []struct{ screen, durable, want string }{
		{"working", "working", "working"},
		{"idle", "idle", "idle"},
		{"awaiting_approval", "working", "awaiting_approval"},
		{"awaiting_approval", "awaiting_input", "awaiting_approval"},
		{"questionnaire", "working", "awaiting_approval"},
		{"idle", "working", "unknown"}, // the axes disagree
		{"working", "idle", "unknown"},
		{"idle", "unknown", "unknown"},
		{"idle", "unavailable", "idle"}, // a replica: the screen's word
		{"menu_or_viewer", "unavailable", "unknown"},
		{"exited", "idle", "unknown"},
	} {
		if got := activityState(tc.screen, tc.durable); got != tc.want {
			t.Errorf("activityState(%s, %s) = %s, want %s", tc.screen, tc.durable, got, tc.want)
		}
	}
}

func TestTerminalID(t *testing.T) {
	k := terminalKey{Socket: "/tmp/tmux-0/default", ServerPID: 10, Pane: "%3", PanePID: 42, PaneStart: 7}
	a, b := terminalID([]byte("secret"), k), terminalID([]byte("secret"), k)
	if a != b || !regexp.MustCompile(`^term_[a-z2-7]{26}$`).MatchString(a) {
		t.Fatalf("ids %q %q", a, b)
	}
	k2 := k
	k2.PaneStart = 8 // respawned: same pid, another start time
	if terminalID([]byte("secret"), k2) == a || terminalID([]byte("other"), k) == a {
		t.Fatal("id does not depend on the incarnation or the secret")
	}
}

// TestReplicaNeedsAllowReplicas runs a real `akk replica` (its exe is an
// akk binary, argv[1] is replica): an agent only with allowReplicas.
func TestReplicaNeedsAllowReplicas(t *testing.T) {
	akk := buildAkk(t)
	cast, _ := filepath.Abs(filepath.Join(corpusDir, "codex", "0.155.1", "draft.cast"))
	cmd := exec.Command(akk, "replica", cast)
	cmd.Dir = filepath.Dir(cast)
	stdin, _ := cmd.StdinPipe() // the replica waits for its first input
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	var pr procid.Process
	tmuxtest.Await(t, 5*time.Second, func() string {
		var err error
		if pr, err = procid.ReadProcess(cmd.Process.Pid); err != nil || len(pr.Argv) < 2 {
			return "no process yet"
		}
		return ""
	})
	fg := procid.Foreground{PGID: pr.Stat.PID, Leader: pr, Members: []procid.Process{pr}}
	classifier := func(allow bool) *procid.Classifier {
		return procid.NewClassifier(procid.Options{AllowReplicas: allow, ReadReplica: readCastHeader})
	}
	if p := classifier(false).Classify(fg); p.Agent != api.AgentNone || p.Replica {
		t.Errorf("without allowReplicas: %+v", p)
	}
	if p := classifier(true).Classify(fg); p.Agent != "codex" || p.Version != "0.155.1" || !p.Replica {
		t.Errorf("with allowReplicas: agent %q version %q replica %v (%s)", p.Agent, p.Version, p.Replica, p.Why)
	}
}

func TestParseDurableOnRecordedFiles(t *testing.T) {
	for _, tc := range []struct {
		agent watchers.Agent
		file  string
		want  string
	}{
		{watchers.Claude, "claude/2.1.267/permission-approve.transcript.jsonl", durableIdle},
		{watchers.Codex, "codex/0.155.1/permission-approve.rollout.jsonl", durableIdle},
		{watchers.Codex, "codex/0.155.1/working.rollout.jsonl", durableWorking},
	} {
		path := filepath.Join(corpusDir, tc.file)
		got, id, end := parseDurable(tc.agent, path)
		fi, _ := os.Stat(path)
		if got != tc.want || end != fi.Size() || id.Ino == 0 {
			t.Errorf("%s: durable %q end %d of %d, id %v; want %q", tc.file, got, end, fi.Size(), id, tc.want)
		}
	}
}

func TestStateEvents(t *testing.T) {
	a := store.Terminal{ID: "term_x", Agent: "claude", Version: "2.1.267", Screen: "working", Composer: "empty",
		Identity: "resolved", Durable: "working", Activity: "working"}
	if evs := stateEvents(store.Terminal{}, a, true); len(evs) != 1 || evs[0].Type != api.EventTerminalAdded || evs[0].Attrs["screen_state"] != "working" {
		t.Fatalf("new terminal: %+v", evs)
	}
	b := a
	b.Screen, b.Activity = "awaiting_approval", "awaiting_approval"
	evs := stateEvents(a, b, false)
	if len(evs) != 1 || evs[0].Type != api.EventTerminalState || evs[0].Attrs["from_screen_state"] != "working" {
		t.Fatalf("state change: %+v", evs)
	}
	c := b
	c.PID = 99
	if evs := stateEvents(b, c, false); len(evs) != 1 || evs[0].Type != api.EventTerminalProcess {
		t.Fatalf("process change: %+v", evs)
	}
	if evs := stateEvents(c, c, false); len(evs) != 0 {
		t.Fatalf("no change: %+v", evs)
	}
}

// TestOfferBookSweeps: past maxOffers entries, offers older than the
// horizon are dropped when a new one is put; fresh ones stay.
func TestOfferBookSweeps(t *testing.T) {
	var b offerBook
	now := time.Unix(1700000000, 0)
	for i := range maxOffers {
		b.put(&offer{controller: fmt.Sprintf("mcp:%d", i), terminalID: "term_a", made: now})
	}
	fresh := &offer{controller: "cli:0", terminalID: "term_a", made: now.Add(offerHorizon - time.Second)}
	b.put(fresh)
	if got := b.get("cli:0", "term_a"); got != fresh {
		t.Fatal("the new offer is missing")
	}
	if len(b.offers) != maxOffers+1 {
		t.Fatalf("%d offers, want %d: none is past the horizon yet", len(b.offers), maxOffers+1)
	}
	late := &offer{controller: "cli:1", terminalID: "term_a", made: now.Add(offerHorizon + time.Second)}
	b.put(late)
	if len(b.offers) != 2 || b.get("cli:1", "term_a") != late || b.get("cli:0", "term_a") != fresh {
		t.Fatalf("after the sweep: %d offers", len(b.offers))
	}
}

// TestCheckText: invariant 1's text rules for tasks and answers.
func TestCheckText(t *testing.T) {
	for _, tc := range []struct {
		text      string
		multiline bool
		reason    string // "" accepted
	}{
		{"fix the failing test", false, ""},
		{"Purple please", false, ""},
		{"first line\nsecond line", true, ""},
		{"first line\nsecond line", false, api.ReasonBadText},
		{"/exit", false, api.ReasonSlashCommand},
		{"  /model gpt", false, api.ReasonSlashCommand},
		{"run this\n/exit", true, ""}, // only the first line is a command
		{"a\x1b[Bb", false, api.ReasonBadText},
		{"a\rb", true, api.ReasonBadText},
		{"a\x7fb", false, api.ReasonBadText},
		{"a\u0085b", false, api.ReasonBadText},
		{"\xff\xfe", false, api.ReasonBadText},
		{"   ", false, api.ReasonBadText},
		{"tab\tseparated", false, ""},
	} {
		r := checkText(tc.text, tc.multiline)
		got := ""
		if r != nil {
			got = r.reason
		}
		if got != tc.reason {
			t.Errorf("checkText(%q, %v) = %q, want %q", tc.text, tc.multiline, got, tc.reason)
		}
	}
}

// TestFenceKey: the key changes with each of its parts.
func TestFenceKey(t *testing.T) {
	var fp [32]byte
	base := fenceKeyOf("term_a", fp, 1, "call_1")
	fp2 := fp
	fp2[0] = 1
	for name, other := range map[string]string{
		"terminal":    fenceKeyOf("term_b", fp, 1, "call_1"),
		"fingerprint": fenceKeyOf("term_a", fp2, 1, "call_1"),
		"generation":  fenceKeyOf("term_a", fp, 2, "call_1"),
		"tool call":   fenceKeyOf("term_a", fp, 1, "call_2"),
	} {
		if other == base {
			t.Errorf("a different %s gives the same fence key", name)
		}
	}
	if fenceKeyOf("term_a", fp, 1, "call_1") != base {
		t.Error("the fence key is not deterministic")
	}
}
