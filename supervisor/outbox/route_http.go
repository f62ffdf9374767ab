package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"text/template"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/store"
)

// The HTTP routes (webhook, openclaw) share one request: the body (the
// envelope, a template's rendering, or OpenClaw's hook body), the
// idempotency key as a header, a bearer token read from its file at each
// attempt (never kept in the config or logged), and one reading of the
// answer:
//
//	2xx                      accepted
//	429                      retryable, not before its Retry-After
//	5xx, not sent            retryable (OpenClaw's 503: the hook was not
//	                         admitted within its 15 s)
//	401, 403, other 4xx      permanent (a wrong token stays wrong)
//	sent, no answer          uncertain (the receiver may have acted)

// httpTarget is what one HTTP route posts, and where.
type httpTarget struct {
	cfg    RouteConfig
	client *http.Client
	body   func(n *store.Notification) ([]byte, error)
}

func newHTTPClient() *http.Client {
	return &http.Client{
		// Redirects are not followed: the configured URL is the receiver.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport:     &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second},
	}
}

// post sends n to url.
func (t httpTarget) post(ctx context.Context, url string, n *store.Notification) Delivery {
	ctx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	defer cancel()
	body, err := t.body(n)
	if err != nil {
		return Delivery{Outcome: store.NtfPermanent, Detail: "body: " + err.Error()}
	}
	token := ""
	if t.cfg.TokenFile != "" {
		b, err := os.ReadFile(t.cfg.TokenFile)
		if token = strings.TrimSpace(string(b)); err != nil || token == "" {
			// Nothing was sent; a retry reads the file again.
			return Delivery{Outcome: store.NtfRetryable, Detail: "token file unreadable or empty"}
		}
	}
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Delivery{Outcome: store.NtfPermanent, Detail: "request: bad URL"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", n.IdempotencyKey)
	req.Header.Set("User-Agent", "akk-callbacks/1")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := t.client.Do(req)
	if wrote.Load() {
		fault.Point("outbox.after_send")
	}
	if err != nil {
		if wrote.Load() {
			return Delivery{Outcome: store.NtfUncertain, Detail: "no answer after sending: " + netCause(err)}
		}
		return Delivery{Outcome: store.NtfRetryable, Detail: "not sent: " + netCause(err)}
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return classify(resp, time.Now())
}

// classify reads an answer's status.
func classify(resp *http.Response, now time.Time) Delivery {
	code := resp.StatusCode
	d := Delivery{Detail: fmt.Sprintf("http %d", code)}
	switch {
	case code >= 200 && code < 300:
		d.Outcome = store.NtfAccepted
	case code == http.StatusTooManyRequests:
		d.Outcome, d.RetryAfter = store.NtfRetryable, retryAfter(resp.Header.Get("Retry-After"), now)
	case code == http.StatusConflict:
		// The request clashed with the receiver's state and was not
		// applied: OpenClaw rejects a hook run before it starts when its
		// session changed meanwhile (a heartbeat turn took it), and an
		// Idempotency-Key receiver says so while the same key is still
		// being processed. Later it goes through (OpenClaw keeps no replay
		// of a refused run, so the same key runs afresh).
		d.Outcome, d.Detail = store.NtfRetryable, d.Detail+": the receiver's state changed, nothing was applied"
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		d.Outcome, d.Detail = store.NtfPermanent, d.Detail+": the receiver refused the token"
	case code >= 500:
		d.Outcome = store.NtfRetryable
	default:
		d.Outcome = store.NtfPermanent
	}
	return d
}

// maxRetryAfter bounds a receiver's Retry-After.
const maxRetryAfter = time.Hour

// retryAfter reads Retry-After: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, maxRetryAfter)
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), maxRetryAfter)
	}
	return 0
}

// webhookRoute POSTs the envelope (or its body template's rendering).
type webhookRoute struct{ httpTarget }

// newWebhookRoute makes the route of cfg (its body template checked by
// Validate; one that does not parse fails every attempt, permanently).
func newWebhookRoute(cfg RouteConfig, places Places) webhookRoute {
	body := func(n *store.Notification) ([]byte, error) { return n.Envelope, nil }
	if cfg.BodyTemplate != "" {
		tpl, err := parseBody(cfg.BodyTemplate)
		body = func(n *store.Notification) ([]byte, error) {
			if err != nil {
				return nil, err
			}
			return renderBody(tpl, n, places)
		}
	}
	return webhookRoute{httpTarget{cfg: cfg, client: newHTTPClient(), body: body}}
}

func (r webhookRoute) Send(ctx context.Context, n *store.Notification) Delivery {
	return r.post(ctx, r.cfg.URL, n)
}

// openclawRoute wakes one OpenClaw Gateway session through its hook:
// POST <url>/hooks/agent with the session key configured here (never a
// model's), the hooks token, and the wake-up as the message the session's
// agent reads. deliver is false: the agent's answer stays in the session
// (the person reads it where they talk to it).
type openclawRoute struct{ httpTarget }

// OpenClawHookPath is the Gateway's agent hook.
const OpenClawHookPath = "/hooks/agent"

func newOpenClawRoute(cfg RouteConfig) openclawRoute {
	body := func(n *store.Notification) ([]byte, error) {
		return json.Marshal(map[string]any{"message": WakeText(n), "name": "akk", "sessionKey": cfg.SessionKey,
			"sessionMode": "persistent", "deliver": false})
	}
	return openclawRoute{httpTarget{cfg: cfg, client: newHTTPClient(), body: body}}
}

func (r openclawRoute) Send(ctx context.Context, n *store.Notification) Delivery {
	return r.post(ctx, strings.TrimRight(r.cfg.URL, "/")+OpenClawHookPath, n)
}

// WakeText is a notification as a message to a controller's agent: one
// line saying what happened and what to call, then the envelope (semantic
// ids and the public projection only).
func WakeText(n *store.Notification) string {
	var env api.CallbackEnvelope
	_ = json.Unmarshal(n.Envelope, &env)
	subject := "turn_id " + env.TurnID
	if env.TurnID == "" {
		subject = "watch_id " + env.WatchID
	}
	next := "Call agent_knock_knock_status with " + subject + " and tell the user what it shows."
	if env.Type == api.CallbackDone && env.Event == api.CallbackCompleted {
		next = "Tell the user; agent_knock_knock_status with " + subject + " has the details."
	}
	return fmt.Sprintf("akk callback: %s %s (%s) on terminal %s. %s\n%s", env.Type, env.Event, subject,
		env.TerminalID, next, n.Envelope)
}

// bodyData is what a body template sees of a notification.
type bodyData struct {
	Envelope                                  string // the envelope's JSON
	Text                                      string // WakeText
	Type, Event, TurnID, WatchID, TerminalID  string
	SessionID, NotificationID, IdempotencyKey string
	// Title, Message and Link are a person's notice (NoticeOf): for an
	// ntfy topic or a phone push.
	Title, Message, Link string
}

// LogValue and String name the notification only: the text is for the
// receiver, not for logs.
func (d bodyData) LogValue() slog.Value {
	return slog.GroupValue(slog.String("notification", d.NotificationID))
}

func (d bodyData) String() string { return "body of " + d.NotificationID }

// parseBody parses a body template; its json function quotes a value as a
// JSON string.
func parseBody(src string) (*template.Template, error) {
	return template.New("body").Funcs(template.FuncMap{"json": func(s string) (string, error) {
		b, err := json.Marshal(s)
		return string(b), err
	}}).Option("missingkey=error").Parse(src)
}

func renderBody(tpl *template.Template, n *store.Notification, places Places) ([]byte, error) {
	var env api.CallbackEnvelope
	if err := json.Unmarshal(n.Envelope, &env); err != nil {
		return nil, err
	}
	nt := NoticeOf(n, places)
	d := bodyData{Envelope: string(n.Envelope), Text: WakeText(n), Type: env.Type, Event: env.Event, TurnID: env.TurnID,
		WatchID: env.WatchID, TerminalID: env.TerminalID, SessionID: env.SessionID, NotificationID: n.ID,
		IdempotencyKey: n.IdempotencyKey, Title: nt.Title, Message: nt.Body, Link: nt.Link}
	var b bytes.Buffer
	if err := tpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
