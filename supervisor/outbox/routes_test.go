package outbox

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/store"
)

// TestCallbackRouteFaults: each receiver fault ends in its outcome, with
// the right number of requests and bounded backoff between retries.
func TestCallbackRouteFaults(t *testing.T) {
	const attempts = 3
	refused := func() string { // a port with nobody listening
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr + "/hook"
	}
	cases := []struct {
		name     string
		answer   func(n int) (int, time.Duration)
		url      string // "" : the receiver's
		script   string // a command route instead
		want     string
		requests int // sends that reached the receiver (or command runs)
		attempts int
	}{
		{name: "webhook 200", answer: func(int) (int, time.Duration) { return 200, 0 }, want: store.NtfAccepted, requests: 1, attempts: 1},
		{name: "webhook 500 then 204", answer: func(n int) (int, time.Duration) {
			if n == 0 {
				return 500, 0
			}
			return 204, 0
		}, want: store.NtfAccepted, requests: 2, attempts: 2},
		{name: "webhook always 503 exhausts", answer: func(int) (int, time.Duration) { return 503, 0 }, want: store.NtfRetryable, requests: attempts, attempts: attempts},
		{name: "webhook 400 permanent", answer: func(int) (int, time.Duration) { return 400, 0 }, want: store.NtfPermanent, requests: 1, attempts: 1},
		{name: "webhook slow uncertain", answer: func(int) (int, time.Duration) { return 200, 2 * time.Second }, want: store.NtfUncertain, requests: 1, attempts: 1},
		{name: "webhook refused retryable", url: "refused", want: store.NtfRetryable, requests: 0, attempts: attempts},
		{name: "command exit 0", script: `cat > "$OUT.$$"; exit 0`, want: store.NtfAccepted, requests: 1, attempts: 1},
		{name: "command exit 75 exhausts", script: `cat > "$OUT.$$"; exit 75`, want: store.NtfRetryable, requests: attempts, attempts: attempts},
		{name: "command exit 3 permanent", script: `cat > "$OUT.$$"; exit 3`, want: store.NtfPermanent, requests: 1, attempts: 1},
		{name: "command hangs uncertain", script: `cat > "$OUT.$$"; sleep 30`, want: store.NtfUncertain, requests: 1, attempts: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			route := RouteConfig{Name: "r", Timeout: 300 * time.Millisecond}
			var rcv *hooktest.Receiver
			outDir := t.TempDir()
			switch {
			case tc.script != "":
				route.Kind, route.Command = RouteCommand, []string{hooktest.Script(t, "OUT="+outDir+"/req\n"+tc.script)}
			case tc.url == "refused":
				route.Kind, route.URL = RouteWebhook, refused()
			default:
				rcv = hooktest.Start(t, "", func(n int, _ hooktest.Request) (int, time.Duration) { return tc.answer(n) })
				route.Kind, route.URL = RouteWebhook, rcv.URL
			}
			rig := startRig(t, t.TempDir(), Config{Routes: []RouteConfig{route}, MaxAttempts: attempts,
				BackoffBase: 20 * time.Millisecond, BackoffMax: 40 * time.Millisecond})
			n := rig.enqueue(t, "watch_fault", "r")[0]
			got := hooktest.AwaitFinal(t, rig.st, n.ID, 10*time.Second)
			// Nothing more is sent after a final outcome: a send would land
			// within this grace period (the backoff is at most 40 ms).
			time.Sleep(150 * time.Millisecond)
			got, _ = rig.st.Notification(n.ID)
			if got.State != tc.want || len(got.Attempts) != tc.attempts {
				t.Fatalf("state %s with %d attempts %+v, want %s with %d", got.State, len(got.Attempts), got.Attempts, tc.want, tc.attempts)
			}
			sent := 0
			if rcv != nil {
				for _, r := range rcv.Requests() {
					if r.Key != n.IdempotencyKey {
						t.Errorf("request with key %q, want %q", r.Key, n.IdempotencyKey)
					}
					sent++
				}
			} else if tc.script != "" {
				files, _ := filepath.Glob(filepath.Join(outDir, "req.*"))
				for _, f := range files {
					b, _ := os.ReadFile(f)
					var env api.CallbackEnvelope
					if err := json.Unmarshal(b, &env); err != nil || env.IdempotencyKey != n.IdempotencyKey || env.WatchID != "watch_fault" {
						t.Errorf("command stdin %q: %v", b, err)
					}
				}
				sent = len(files)
			}
			if sent != tc.requests {
				t.Errorf("%d requests reached the receiver, want %d", sent, tc.requests)
			}
			for i := 1; i < len(got.Attempts); i++ {
				gap := got.Attempts[i].Start.Sub(got.Attempts[i-1].End)
				if gap < 15*time.Millisecond || gap > 2*time.Second {
					t.Errorf("attempt %d started %v after the previous one: backoff out of bounds", i+1, gap)
				}
			}
			for _, a := range got.Attempts {
				if strings.Contains(a.Detail, "127.0.0.1") || strings.Contains(a.Detail, "/hook") {
					t.Errorf("attempt detail names the URL: %q", a.Detail)
				}
			}
		})
	}
}
