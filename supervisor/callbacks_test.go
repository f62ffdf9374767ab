package supervisor

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
)

// receiver is a real HTTP receiver on 127.0.0.1 that logs every raw
// request and answers per its behaviour.
type receiver struct {
	t    testing.TB
	srv  *http.Server
	ln   net.Listener
	URL  string
	mu   sync.Mutex
	reqs []receivedReq
	// answer decides the status for the n-th request (0-based); a negative
	// status means: hold the request for that long, then 200.
	answer func(n int) (status int, hold time.Duration)
	log    *os.File // every raw request, one JSON line each
}

type receivedReq struct {
	Key  string          `json:"key"`
	Body json.RawMessage `json:"body"`
	At   time.Time       `json:"at"`
}

func startReceiver(t testing.TB, logPath string, answer func(n int) (int, time.Duration)) *receiver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &receiver{t: t, ln: ln, URL: "http://" + ln.Addr().String() + "/hook", answer: answer}
	if logPath != "" {
		if r.log, err = os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r.srv = &http.Server{Handler: http.HandlerFunc(r.serve)}
	go r.srv.Serve(ln)
	t.Cleanup(func() {
		r.srv.Close()
		if r.log != nil {
			r.log.Close()
		}
	})
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	rr := receivedReq{Key: req.Header.Get("Idempotency-Key"), Body: body, At: time.Now()}
	r.mu.Lock()
	n := len(r.reqs)
	r.reqs = append(r.reqs, rr)
	if r.log != nil {
		line, _ := json.Marshal(rr)
		r.log.Write(append(line, '\n'))
	}
	r.mu.Unlock()
	status, hold := 200, time.Duration(0)
	if r.answer != nil {
		status, hold = r.answer(n)
	}
	if hold > 0 {
		select {
		case <-time.After(hold):
		case <-req.Context().Done():
			return
		}
	}
	w.WriteHeader(status)
}

func (r *receiver) requests() []receivedReq {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]receivedReq(nil), r.reqs...)
}

// outboxRig is a supervisor whose outbox alone runs, on a store on disk.
type outboxRig struct {
	sv     *Supervisor
	st     *store.Store
	cancel context.CancelFunc
	done   chan error
}

func startOutbox(t testing.TB, dir string, cb CallbackConfig) *outboxRig {
	t.Helper()
	lg := testLogger(t)
	st, err := store.Open(dir, &store.Options{Logger: lg})
	if err != nil {
		t.Fatal(err)
	}
	sv, err := New(Config{Logger: lg, Store: st, TmuxSocket: "/nonexistent", Callbacks: cb})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &outboxRig{sv: sv, st: st, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- sv.tasks.out.run(ctx) }()
	t.Cleanup(r.stop)
	return r
}

func (r *outboxRig) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	<-r.done
	r.cancel = nil
	r.st.Close()
}

// enqueue adds one done notification of a Watch for every route.
func (r *outboxRig) enqueue(t testing.TB, watchID string, routes ...string) []store.Notification {
	t.Helper()
	env := api.CallbackEnvelope{Type: api.CallbackDone, Event: api.CallbackStablyIdle, TaskKind: taskWatch,
		WatchID: watchID, TerminalID: "term_x", Confidence: api.ConfidenceBestEffort, Time: time.Now()}
	ns, err := r.sv.buildNotifications(env, "settled", routes)
	if err != nil {
		t.Fatal(err)
	}
	added, err := r.sv.commitTasks(store.TaskChange{Notifications: ns})
	if err != nil {
		t.Fatal(err)
	}
	return added
}

// awaitFinal waits until the notification reaches a final state (or
// retryable with attempts exhausted) and returns it.
func awaitFinal(t testing.TB, st *store.Store, id string, within time.Duration) store.Notification {
	t.Helper()
	var n store.Notification
	tmuxtest.Await(t, within, func() string {
		var err error
		if n, err = st.Notification(id); err != nil {
			return err.Error()
		}
		if !n.Final() {
			return "state " + n.State
		}
		return ""
	})
	return n
}

func writeScript(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "route.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

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
			var rcv *receiver
			outDir := t.TempDir()
			switch {
			case tc.script != "":
				route.Kind, route.Command = RouteCommand, []string{writeScript(t, "OUT="+outDir+"/req\n"+tc.script)}
			case tc.url == "refused":
				route.Kind, route.URL = RouteWebhook, refused()
			default:
				rcv = startReceiver(t, "", tc.answer)
				route.Kind, route.URL = RouteWebhook, rcv.URL
			}
			rig := startOutbox(t, t.TempDir(), CallbackConfig{Routes: []RouteConfig{route}, MaxAttempts: attempts,
				BackoffBase: 20 * time.Millisecond, BackoffMax: 40 * time.Millisecond})
			n := rig.enqueue(t, "watch_fault", "r")[0]
			got := awaitFinal(t, rig.st, n.ID, 10*time.Second)
			// Nothing more is sent after a final outcome.
			time.Sleep(150 * time.Millisecond)
			got, _ = rig.st.Notification(n.ID)
			if got.State != tc.want || len(got.Attempts) != tc.attempts {
				t.Fatalf("state %s with %d attempts %+v, want %s with %d", got.State, len(got.Attempts), got.Attempts, tc.want, tc.attempts)
			}
			sent := 0
			if rcv != nil {
				for _, r := range rcv.requests() {
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
