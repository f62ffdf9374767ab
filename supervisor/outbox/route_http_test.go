package outbox

import (
	"context"
	"encoding/json"
	"errors"
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
	"github.com/agent-knock-knock/akk/store"
)

// gateway is a stand-in OpenClaw Gateway hook on 127.0.0.1: it records
// each request (path, headers, body) and answers as told.
type gateway struct {
	url    string
	mu     sync.Mutex
	got    []*http.Request
	bodies [][]byte
	answer func(n int) (status int, header http.Header)
}

func startGateway(t *testing.T, answer func(n int) (int, http.Header)) *gateway {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gateway{url: "http://" + ln.Addr().String(), answer: answer}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		g.mu.Lock()
		n := len(g.got)
		g.got, g.bodies = append(g.got, r), append(g.bodies, b)
		g.mu.Unlock()
		status, h := g.answer(n)
		for k, v := range h {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return g
}

// blockedWake is a frozen blocked wake-up of turn_abc.
func blockedWake(t *testing.T) *store.Notification {
	t.Helper()
	env, err := json.Marshal(api.CallbackEnvelope{V: 1, Schema: api.CallbackSchema, NotificationID: "ntf_1", IdempotencyKey: "idem_1",
		Type: api.CallbackBlocked, Event: api.CallbackInteractionRequired, TaskKind: "turn", TurnID: "turn_abc", TerminalID: "term_xyz"})
	if err != nil {
		t.Fatal(err)
	}
	return &store.Notification{ID: "ntf_1", IdempotencyKey: "idem_1", Envelope: env}
}

func tokenFile(t *testing.T, token string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hooks.token")
	if err := os.WriteFile(p, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenClawRoute: one wake-up posted to the Gateway's agent hook as
// OpenClaw takes it (the configured session, the hooks token read from
// its file, the idempotency key), and each answer read as the Gateway
// means it.
func TestOpenClawRoute(t *testing.T) {
	for _, c := range []struct {
		name       string
		status     int
		header     http.Header
		want       string
		retryAfter time.Duration
	}{
		{"accepted", 200, nil, store.NtfAccepted, 0},
		{"wrong token", 401, nil, store.NtfPermanent, 0},
		{"key outside the allowed prefixes", 400, nil, store.NtfPermanent, 0},
		{"rate limited", 429, http.Header{"Retry-After": {"60"}}, store.NtfRetryable, time.Minute},
		{"rate limited, no Retry-After", 429, nil, store.NtfRetryable, 0},
		{"not admitted within 15 s", 503, nil, store.NtfRetryable, 0},
		{"the session changed before the run started (a heartbeat took it)", 409, nil, store.NtfRetryable, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			gw := startGateway(t, func(int) (int, http.Header) { return c.status, c.header })
			cfg := Config{Routes: []RouteConfig{{Name: "oc", Kind: RouteOpenClaw, URL: gw.url + "/", SessionKey: "agent:main:akk-x",
				TokenFile: tokenFile(t, "hooks-secret")}}}
			cfg.EnsureDefaults()
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			if cfg.Routes[0].Timeout < MinOpenClawTimeout {
				t.Errorf("timeout %s, want at least %s", cfg.Routes[0].Timeout, MinOpenClawTimeout)
			}
			d := newOpenClawRoute(cfg.Routes[0]).Send(context.Background(), blockedWake(t))
			if d.Outcome != c.want || d.RetryAfter != c.retryAfter {
				t.Fatalf("%+v, want %s retry after %s", d, c.want, c.retryAfter)
			}
			if strings.Contains(d.Detail, "hooks-secret") || strings.Contains(d.Detail, "127.0.0.1") {
				t.Errorf("detail %q names the token or the URL", d.Detail)
			}
			r, body := gw.got[0], gw.bodies[0]
			var b map[string]any
			if err := json.Unmarshal(body, &b); err != nil {
				t.Fatal(err)
			}
			msg, _ := b["message"].(string)
			if r.URL.Path != OpenClawHookPath || r.Header.Get("Authorization") != "Bearer hooks-secret" || r.Header.Get("Idempotency-Key") != "idem_1" ||
				b["sessionKey"] != "agent:main:akk-x" || b["name"] != "akk" || b["sessionMode"] != "persistent" || b["deliver"] != false ||
				!strings.Contains(msg, "turn_abc") || !strings.Contains(msg, "agent_knock_knock_status") {
				t.Errorf("request %s %v body %s", r.URL.Path, r.Header, body)
			}
		})
	}
}

// TestHTTPRouteNotSent: what fails before a request is written is
// retryable (nothing reached the receiver), never uncertain.
func TestHTTPRouteNotSent(t *testing.T) {
	gw := startGateway(t, func(int) (int, http.Header) { return 200, nil })
	missing := RouteConfig{Name: "oc", Kind: RouteOpenClaw, URL: gw.url, SessionKey: "k", TokenFile: filepath.Join(t.TempDir(), "none"), Timeout: time.Second}
	if d := newOpenClawRoute(missing).Send(context.Background(), blockedWake(t)); d.Outcome != store.NtfRetryable || len(gw.got) != 0 {
		t.Errorf("a missing token file: %+v, %d requests", d, len(gw.got))
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	down := "http://" + ln.Addr().String()
	ln.Close()
	r := RouteConfig{Name: "oc", Kind: RouteOpenClaw, URL: down, SessionKey: "k", TokenFile: tokenFile(t, "x"), Timeout: time.Second}
	if d := newOpenClawRoute(r).Send(context.Background(), blockedWake(t)); d.Outcome != store.NtfRetryable || !strings.Contains(d.Detail, "refused") {
		t.Errorf("the Gateway down: %+v", d)
	}
}

// TestWebhookBodyTemplate: a webhook's body rendered from its template,
// with its token as a bearer header.
func TestWebhookBodyTemplate(t *testing.T) {
	gw := startGateway(t, func(int) (int, http.Header) { return 204, nil })
	r := RouteConfig{Name: "w", Kind: RouteWebhook, URL: gw.url + "/notify", TokenFile: tokenFile(t, "tok"), Timeout: time.Second,
		BodyTemplate: `{"text": {{json .Text}}, "turn": {{json .TurnID}}}`}
	cfg := Config{Routes: []RouteConfig{r}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if d := newWebhookRoute(r, nil).Send(context.Background(), blockedWake(t)); d.Outcome != store.NtfAccepted {
		t.Fatalf("%+v", d)
	}
	var b struct{ Text, Turn string }
	if err := json.Unmarshal(gw.bodies[0], &b); err != nil || b.Turn != "turn_abc" || !strings.HasPrefix(b.Text, "akk callback: blocked interaction_required") ||
		gw.got[0].Header.Get("Authorization") != "Bearer tok" {
		t.Errorf("body %s (%v), headers %v", gw.bodies[0], err, gw.got[0].Header)
	}
}

// TestRouteConfigValidate: what an openclaw or templated route lacks is
// said at start.
func TestRouteConfigValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		r    RouteConfig
		want string
	}{
		{"openclaw without session", RouteConfig{Name: "o", Kind: RouteOpenClaw, URL: "http://127.0.0.1:1", TokenFile: "/t"}, "session_key"},
		{"openclaw without token", RouteConfig{Name: "o", Kind: RouteOpenClaw, URL: "http://127.0.0.1:1", SessionKey: "k"}, "token_file"},
		{"openclaw with a template", RouteConfig{Name: "o", Kind: RouteOpenClaw, URL: "http://127.0.0.1:1", SessionKey: "k", TokenFile: "/t", BodyTemplate: "{}"}, "own body"},
		{"a template that does not parse", RouteConfig{Name: "w", Kind: RouteWebhook, URL: "http://127.0.0.1:1", BodyTemplate: "{{"}, "body_template"},
	} {
		cfg := Config{Routes: []RouteConfig{c.r}}
		if err := cfg.Validate(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, c.want)
		}
	}
}

// TestRetryAfterRead: seconds or a date, bounded.
func TestRetryAfterRead(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{"": 0, "7": 7 * time.Second, "-1": 0, "x": 0, "999999": maxRetryAfter,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("Retry-After %q: %s, want %s", v, got, want)
		}
	}
}

// TestRetryAfterHonoured: a 429's Retry-After holds the next attempt back
// past the route's own backoff; the wake-up is then sent once more and
// accepted.
func TestRetryAfterHonoured(t *testing.T) {
	gw, rig := refusedOnce(t, 429, http.Header{"Retry-After": {"1"}}, 20*time.Millisecond, 40*time.Millisecond)
	n := rig.enqueue(t, "turn_wait", "oc")[0]
	got := awaitState(t, rig.st, n.ID, store.NtfAccepted, 10*time.Second)
	if len(got.Attempts) != 2 || len(gw.got) != 2 {
		t.Fatalf("%d attempts, %d requests: %+v", len(got.Attempts), len(gw.got), got.Attempts)
	}
	if gap := got.Attempts[1].Start.Sub(got.Attempts[0].End); gap < time.Second {
		t.Errorf("the second attempt came %s after a Retry-After of 1 s", gap)
	}
}

// refusedOnce is a gateway that answers its first request with status
// (and header) and every later one 200, and a rig whose one OpenClaw
// route, "oc", posts to it with three attempts and the given backoff.
func refusedOnce(t *testing.T, status int, header http.Header, backoffBase, backoffMax time.Duration) (*gateway, *rig) {
	t.Helper()
	gw := startGateway(t, func(n int) (int, http.Header) {
		if n == 0 {
			return status, header
		}
		return 200, nil
	})
	route := RouteConfig{Name: "oc", Kind: RouteOpenClaw, URL: gw.url, SessionKey: "agent:main:akk-x", TokenFile: tokenFile(t, "t")}
	return gw, startRig(t, t.TempDir(), Config{Routes: []RouteConfig{route}, MaxAttempts: 3,
		BackoffBase: backoffBase, BackoffMax: backoffMax})
}

// awaitState waits for notification id to reach state.
func awaitState(t *testing.T, st *store.Store, id, state string, within time.Duration) store.Notification {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		n, err := st.Notification(id)
		if err == nil && n.State == state {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("notification %s is %+v (%v), want %s", id, n, err, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestClaimNotDueRescheduled: a notification the outbox takes for due
// while the store does not (a wall clock stepped back after its
// monotonic reading said due) is looked at again when the store says, not
// dropped: it was dropped before, and a Gateway's wake-up stayed
// retryable after its 8th attempt until the daemon restarted.
func TestClaimNotDueRescheduled(t *testing.T) {
	_, rig := refusedOnce(t, 503, nil, 500*time.Millisecond, 500*time.Millisecond)
	n := rig.enqueue(t, "turn_skew", "oc")[0]
	stored := awaitState(t, rig.st, n.ID, store.NtfRetryable, 10*time.Second)
	// The outbox's own clock says due now; the store says half a second on.
	early := stored
	early.NextAt = time.Now().Round(0)
	rig.ob.Schedule(early)
	got := awaitState(t, rig.st, n.ID, store.NtfAccepted, 10*time.Second)
	if len(got.Attempts) != 2 {
		t.Fatalf("%d attempts: %+v", len(got.Attempts), got.Attempts)
	}
	if got.Attempts[1].Start.Before(stored.NextAt) {
		t.Errorf("the second attempt started %v before the store's due time", stored.NextAt.Sub(got.Attempts[1].Start))
	}
}
