package outbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
)

// crashLogical is how many logical notifications the crash runs deliver;
// the first one's receiver never answers in time (uncertain).
const crashLogical = 6

// TestOutboxCrashChild is the daemon side of TestOutboxCrash: it runs only
// when that test starts this binary again. It enqueues the same logical
// notifications every run (their ids are deterministic: a re-enqueue
// writes nothing), delivers until none is open, and exits; AKK_FAULT kills
// it at its point first.
func TestOutboxCrashChild(t *testing.T) {
	dir := os.Getenv("AKK_CRASH_STORE")
	if dir == "" {
		t.Skip("started by TestOutboxCrash only")
	}
	rig := startRig(t, dir, Config{Routes: []RouteConfig{{Name: "hook", Kind: RouteWebhook,
		URL: os.Getenv("AKK_CRASH_URL"), Timeout: 300 * time.Millisecond}}, BackoffBase: 10 * time.Millisecond, BackoffMax: 20 * time.Millisecond})
	for i := range crashLogical {
		rig.enqueue(t, fmt.Sprintf("watch_crash_%d", i), "hook")
	}
	tmuxtest.Await(t, 30*time.Second, func() string {
		open, err := rig.st.Notifications(func(n *store.Notification) bool { return !n.Final() })
		if err != nil {
			return err.Error()
		}
		if len(open) > 0 {
			return fmt.Sprintf("%d open", len(open))
		}
		return ""
	})
}

// TestOutboxCrash kills the delivering process (SIGKILL through the fault
// hook) right after a claim, after a send before its outcome is recorded,
// and after an outcome, AKK_CRASH_RUNS times each (default 3), then lets a
// last run finish. The receiver logs every raw request. It checks: every
// logical notification is accepted at least once (or ends uncertain when
// its receiver never answers); a key is sent again only when the store
// held no accepted record for it at kill time; nothing is sent after an
// uncertain record; every attempt is in the history, each closed with an
// outcome or as interrupted.
func TestOutboxCrash(t *testing.T) {
	if !fault.Enabled {
		t.Skip("needs the fault hook: go test -tags akkfault")
	}
	runs := 3
	if v := os.Getenv("AKK_CRASH_RUNS"); v != "" {
		runs, _ = strconv.Atoi(v)
	}
	for _, point := range []string{"outbox.after_claim", "outbox.after_send", "outbox.after_outcome"} {
		t.Run(point, func(t *testing.T) {
			dir := t.TempDir()
			logPath := filepath.Join(dir, "receiver.log")
			slow := `"watch_id":"watch_crash_0"`
			rcv := hooktest.Start(t, logPath, func(_ int, r hooktest.Request) (int, time.Duration) {
				if bytes.Contains(r.Body, []byte(slow)) {
					return 200, time.Second // past the route's timeout: uncertain
				}
				return 200, 0
			})
			storeDir := filepath.Join(dir, "store")
			// acceptedAt[k] is the set of keys the store held accepted at
			// kill k; phase[k] is how many requests had arrived by then.
			var acceptedAt []map[string]bool
			var uncertainAt []map[string]time.Time
			var phase []int
			kills := 0
			for run := 0; run <= runs; run++ {
				armed := run < runs
				mark := filepath.Join(dir, fmt.Sprintf("mark%d", run))
				cmd := exec.Command(os.Args[0], "-test.run=^TestOutboxCrashChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), "AKK_CRASH_STORE="+storeDir, "AKK_CRASH_URL="+rcv.URL, "AKK_FAULT_MARK="+mark)
				if armed {
					cmd.Env = append(cmd.Env, "AKK_FAULT="+point)
				} else {
					cmd.Env = append(cmd.Env, "AKK_FAULT=")
				}
				out, err := cmd.CombinedOutput()
				killed := false
				if b, rerr := os.ReadFile(mark); rerr == nil && strings.TrimSpace(string(b)) == point {
					killed = true
				}
				if killed {
					kills++
				}
				if armed && !killed {
					// Everything was final before the point was reached.
					t.Logf("run %d: not killed (%v)", run, err)
				}
				if !armed && err != nil {
					t.Fatalf("last run: %v\n%s", err, out)
				}
				acc, unc := storeOutcomes(t, storeDir)
				acceptedAt, uncertainAt = append(acceptedAt, acc), append(uncertainAt, unc)
				phase = append(phase, len(rcv.Requests()))
			}
			checkCrashLog(t, rcv.Requests(), acceptedAt, uncertainAt, phase, storeDir)
			t.Logf("%d kills at %s, %d requests for %d logical notifications", kills, point, len(rcv.Requests()), crashLogical)
			raw, _ := os.ReadFile(logPath)
			if n := bytes.Count(raw, []byte("\n")); n != len(rcv.Requests()) {
				t.Errorf("receiver log has %d lines for %d requests", n, len(rcv.Requests()))
			}
		})
	}
}

// storeOutcomes reads the accepted keys and the uncertain keys (with the
// time their outcome was recorded) of a store no process holds.
func storeOutcomes(t *testing.T, dir string) (map[string]bool, map[string]time.Time) {
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ns, err := st.Notifications(nil)
	if err != nil {
		t.Fatal(err)
	}
	acc, unc := map[string]bool{}, map[string]time.Time{}
	for _, n := range ns {
		switch n.State {
		case store.NtfAccepted:
			acc[n.IdempotencyKey] = true
		case store.NtfUncertain:
			unc[n.IdempotencyKey] = n.Attempts[len(n.Attempts)-1].End
		}
	}
	return acc, unc
}

func checkCrashLog(t *testing.T, reqs []hooktest.Request, acceptedAt []map[string]bool, uncertainAt []map[string]time.Time, phase []int, dir string) {
	// A request in run k (after kill k-1) may carry a key only if the store
	// held no accepted record of it at any earlier kill.
	start := 0
	for k, end := range phase {
		for _, r := range reqs[start:end] {
			for j := 0; j < k; j++ {
				if acceptedAt[j][r.Key] {
					t.Errorf("run %d sent %s again though it was accepted at kill %d", k, r.Key, j)
				}
				if at, ok := uncertainAt[j][r.Key]; ok {
					t.Errorf("run %d sent %s after its uncertain record (%v)", k, r.Key, at)
				}
			}
		}
		start = end
	}
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ns, _ := st.Notifications(nil)
	if len(ns) != crashLogical {
		t.Fatalf("%d notifications in the store, want %d", len(ns), crashLogical)
	}
	sent := map[string]int{}
	for _, r := range reqs {
		sent[r.Key]++
		var env api.CallbackEnvelope
		if err := json.Unmarshal(r.Body, &env); err != nil || env.IdempotencyKey != r.Key {
			t.Errorf("request body %s: %v", r.Body, err)
		}
	}
	for _, n := range ns {
		slow := strings.HasSuffix(n.Subject, "_0")
		switch {
		case slow && n.State != store.NtfUncertain:
			t.Errorf("%s (never answered in time): %s, want uncertain", n.Subject, n.State)
		case !slow && n.State != store.NtfAccepted:
			t.Errorf("%s: %s, want accepted", n.Subject, n.State)
		}
		if sent[n.IdempotencyKey] == 0 {
			t.Errorf("%s never reached the receiver", n.Subject)
		}
		if sent[n.IdempotencyKey] > len(n.Attempts) {
			t.Errorf("%s: %d requests but %d attempts in its history", n.Subject, sent[n.IdempotencyKey], len(n.Attempts))
		}
		for i, a := range n.Attempts {
			if a.N != i+1 || a.Outcome == "" || a.End.IsZero() {
				t.Errorf("%s: attempt %d %+v incomplete", n.Subject, i+1, a)
			}
		}
	}
}
