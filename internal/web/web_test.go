package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/vt"
)

const listen = "127.0.0.1:7717"

// promptANSI renders a small styled prompt through vt, as the daemon does.
func promptANSI(title string) (string, string) {
	scr := vt.New(60, 4, vt.Options{})
	fmt.Fprintf(scr, "\x1b[1;31m%s\x1b[0m\r\n  rm -rf build\r\n\x1b[36m❯ 1. Yes\x1b[0m\r\n  2. No", title)
	r := vt.Rect{X: 0, Y: 0, W: 60, H: 4}
	return scr.ANSI(r), scr.PlainText(r)
}

func permission(interaction, title string) api.StatusResponse {
	ansi, text := promptANSI(title)
	return api.StatusResponse{V: 1, Terminal: api.Terminal{TerminalID: "term_a", Agent: "claude", Version: "2.1.267",
		Session: "main", PaneID: "%1", ScreenState: contract.ScreenAwaitingApproval,
		Interaction: &contract.Interaction{InteractionID: interaction, Kind: "permission", State: "pending",
			Decisions: []contract.Decision{"approve_once", "reject"}}},
		Prompt: &api.PromptRegion{Top: 10, Bottom: 13, Text: text, ANSI: ansi}}
}

func question() api.StatusResponse {
	q := contract.Question{QuestionID: "q_1", Prompt: "Which colour?", ResponseKind: "single_select", MaxLength: 10,
		Options: []contract.Option{{OptionID: "opt_red", Label: "Red"}, {OptionID: "opt_other", Label: "Type something", FreeText: true}}}
	return api.StatusResponse{V: 1, Terminal: api.Terminal{TerminalID: "term_a", Agent: "codex", Session: "main", PaneID: "%2",
		ScreenState: contract.ScreenQuestionnaire, Interaction: &contract.Interaction{InteractionID: "int_q",
			Kind: "questionnaire", State: "pending", Questions: []contract.Question{q}}},
		Prompt: &api.PromptRegion{Top: 0, Bottom: 0, Text: "Which colour?", ANSI: "Which colour?"}}
}

// fakeBackend is the daemon: one terminal whose Status the test sets,
// and a record of every call with its controller.
type fakeBackend struct {
	mu       sync.Mutex
	status   api.StatusResponse
	calls    []string
	sent     []any
	degraded *api.Degraded
}

func (f *fakeBackend) set(st api.StatusResponse) { f.mu.Lock(); f.status = st; f.mu.Unlock() }

func (f *fakeBackend) log(s string) { f.mu.Lock(); f.calls = append(f.calls, s); f.mu.Unlock() }

func (f *fakeBackend) actions() []any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]any(nil), f.sent...)
}

func (f *fakeBackend) List(context.Context) (api.ListResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return api.ListResponse{V: 1, Terminals: []api.Terminal{f.status.Terminal}, Degraded: f.degraded}, nil
}

func (f *fakeBackend) Health(context.Context) (api.Health, error) { return api.Health{}, nil }

func (f *fakeBackend) Events(ctx context.Context, _ uint64, _ func(api.Event) error) error {
	<-ctx.Done()
	return nil
}

func (f *fakeBackend) As(c string) Actor { return actor{f, c} }

type actor struct {
	f *fakeBackend
	c string
}

func (a actor) Status(_ context.Context, req api.StatusRequest) (api.StatusResponse, error) {
	a.f.log("status " + a.c)
	a.f.mu.Lock()
	defer a.f.mu.Unlock()
	if req.TerminalID != a.f.status.Terminal.TerminalID {
		return api.StatusResponse{}, api.Errorf(api.CodeNotFound, "no terminal %s", req.TerminalID)
	}
	return a.f.status, nil
}

func (a actor) Approve(_ context.Context, req api.ApproveRequest) (api.ActionResult, error) {
	return a.accept("approve", req)
}

func (a actor) Respond(_ context.Context, req api.RespondRequest) (api.ActionResult, error) {
	return a.accept("respond", req)
}

// accept logs the controller's call and keeps its request: the fake
// accepts every action.
func (a actor) accept(call string, req any) (api.ActionResult, error) {
	a.f.log(call + " " + a.c)
	a.f.mu.Lock()
	a.f.sent = append(a.f.sent, req)
	a.f.mu.Unlock()
	return api.ActionResult{Outcome: api.OutcomeAccepted}, nil
}

// page is a browser of the test: a server and the cookie it holds.
type page struct {
	t      *testing.T
	srv    *Server
	b      *fakeBackend
	cookie string
	csrf   string
}

func newPage(t *testing.T, st api.StatusResponse, origins ...string) *page {
	t.Helper()
	b := &fakeBackend{status: st}
	sessions := NewSessions(nil, 0)
	// The requests of these tests come from our own uid (peer_test.go
	// checks the real lookup).
	own := func(*http.Request) (int, error) { return os.Getuid(), nil }
	srv, err := New(Config{Backend: b, Listen: listen, Origins: origins, Sessions: sessions, PeerUID: own})
	if err != nil {
		t.Fatal(err)
	}
	return &page{t: t, srv: srv, b: b}
}

type req struct {
	method, path, host, origin, body string
	cookie, csrfHeader               string
}

func (p *page) do(r req) *httptest.ResponseRecorder {
	if r.method == "" {
		r.method = http.MethodGet
	}
	hr := httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
	hr.Host = listen
	if r.host != "" {
		hr.Host = r.host
	}
	if r.body != "" {
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if r.origin != "" {
		hr.Header.Set("Origin", r.origin)
	}
	if r.cookie != "" {
		hr.AddCookie(&http.Cookie{Name: cookieName, Value: r.cookie})
	}
	if r.csrfHeader != "" {
		hr.Header.Set("X-Akk-CSRF", r.csrfHeader)
	}
	w := httptest.NewRecorder()
	p.srv.ServeHTTP(w, hr)
	return w
}

// pair redeems a fresh code as a browser would.
func (p *page) pair() {
	p.t.Helper()
	code := p.srv.sess.NewCode()
	w := p.do(req{method: "POST", path: "/pair", origin: "http://" + listen, body: "code=" + code})
	if w.Code != http.StatusSeeOther {
		p.t.Fatalf("pair: %d %s", w.Code, w.Body)
	}
	c := w.Result().Cookies()
	if len(c) != 1 || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		p.t.Fatalf("pair cookie %+v", c)
	}
	p.cookie = c[0].Value
	body := p.do(req{path: "/", cookie: p.cookie}).Body.String()
	m := regexp.MustCompile(`name="akk-csrf" content="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		p.t.Fatalf("no csrf token in the page:\n%s", body)
	}
	p.csrf = m[1]
}

// shown is the digest the page's detail carries now.
func (p *page) shown() string {
	body := p.do(req{path: "/frag/detail?t=term_a", cookie: p.cookie}).Body.String()
	m := regexp.MustCompile(`name="shown" value="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		p.t.Fatalf("no shown digest:\n%s", body)
	}
	return m[1]
}

func (p *page) answer(form url.Values, r req) *httptest.ResponseRecorder {
	r.method, r.path, r.body = "POST", "/answer", form.Encode()
	return p.do(r)
}

func TestPairing(t *testing.T) {
	p := newPage(t, permission("int_1", "Bash command"))
	if w := p.do(req{path: "/"}); w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), "akk web --pair") {
		t.Fatalf("unpaired: %d %s", w.Code, w.Body)
	}
	code := p.srv.sess.NewCode()
	// A GET (a chat app's link preview) shows the button and keeps the code.
	if w := p.do(req{path: "/pair?code=" + code}); w.Code != 200 || !strings.Contains(w.Body.String(), `value="`+code+`"`) {
		t.Fatalf("pair page: %d %s", w.Code, w.Body)
	}
	if w := p.do(req{method: "POST", path: "/pair", origin: "https://evil.example", body: "code=" + code}); w.Code != http.StatusForbidden {
		t.Fatalf("a pairing from another site: %d", w.Code)
	}
	w := p.do(req{method: "POST", path: "/pair", origin: "http://" + listen, body: "code=" + code})
	if w.Code != http.StatusSeeOther {
		t.Fatalf("pair: %d %s", w.Code, w.Body)
	}
	if w := p.do(req{method: "POST", path: "/pair", origin: "http://" + listen, body: "code=" + code}); w.Code != http.StatusForbidden {
		t.Fatalf("a code redeemed twice: %d", w.Code)
	}
	ck := w.Result().Cookies()[0]
	if w := p.do(req{path: "/", cookie: ck.Value}); w.Code != 200 || !strings.Contains(w.Body.String(), "Approve once") {
		t.Fatalf("paired page: %d %s", w.Code, w.Body)
	}
}

func TestExpiredCode(t *testing.T) {
	now := time.Now()
	s := NewSessions(func() time.Time { return now }, 0)
	code := s.NewCode()
	now = now.Add(CodeTTL)
	if _, _, ok := s.Redeem(code, ""); ok {
		t.Fatal("an expired code paired")
	}
}

func TestGuard(t *testing.T) {
	p := newPage(t, permission("int_1", "Bash command"), "https://box.tailnet.ts.net")
	p.pair()
	for _, tc := range []struct {
		name string
		r    req
		want int
	}{
		{"loopback", req{path: "/"}, 200},
		{"localhost", req{path: "/", host: "localhost:7717"}, 200},
		{"the tunnel's name", req{path: "/", host: "box.tailnet.ts.net"}, 200},
		{"a rebound name", req{path: "/", host: "evil.example:7717"}, 403},
		{"another port", req{path: "/", host: "127.0.0.1:8080"}, 403},
	} {
		tc.r.cookie = p.cookie
		if w := p.do(tc.r); w.Code != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, w.Code, tc.want)
		}
	}
	if _, err := newGuard(listen, []string{"box.tailnet.ts.net"}); err == nil {
		t.Error("an origin without a scheme was taken")
	}
	// A cookie through the https tunnel is Secure.
	code := p.srv.sess.NewCode()
	w := p.do(req{method: "POST", path: "/pair", host: "box.tailnet.ts.net", origin: "https://box.tailnet.ts.net", body: "code=" + code})
	if c := w.Result().Cookies(); len(c) != 1 || !c[0].Secure {
		t.Errorf("cookie through https: %+v", c)
	}
}

// TestAnswerRefusals: nothing reaches the daemon's approve without the
// cookie, from another Origin, without the CSRF token, or for a screen
// that changed since the page showed it.
func TestAnswerRefusals(t *testing.T) {
	p := newPage(t, permission("int_1", "Bash command"))
	p.pair()
	form := url.Values{"t": {"term_a"}, "shown": {p.shown()}, "c": {"0"}}
	withCSRF := url.Values{"t": form["t"], "shown": form["shown"], "c": form["c"], "csrf": {p.csrf}}
	origin := "http://" + listen
	for _, tc := range []struct {
		name string
		form url.Values
		r    req
		want int
	}{
		{"no cookie", withCSRF, req{origin: origin}, 401},
		{"a wrong cookie", withCSRF, req{origin: origin, cookie: "forged"}, 401},
		{"another origin", withCSRF, req{origin: "http://evil.example", cookie: p.cookie}, 403},
		{"no origin", withCSRF, req{cookie: p.cookie}, 403},
		{"no csrf", form, req{origin: origin, cookie: p.cookie}, 403},
		{"a wrong csrf", form, req{origin: origin, cookie: p.cookie, csrfHeader: "x" + p.csrf}, 403},
	} {
		if w := p.answer(tc.form, tc.r); w.Code != tc.want {
			t.Errorf("%s: %d, want %d: %s", tc.name, w.Code, tc.want, w.Body)
		}
	}
	if a := p.b.actions(); len(a) != 0 {
		t.Fatalf("sent %v", a)
	}
	// The prompt changes between render and click.
	p.b.set(permission("int_2", "Bash command"))
	w := p.answer(form, req{origin: origin, cookie: p.cookie, csrfHeader: p.csrf})
	if w.Code != 200 || !strings.Contains(w.Body.String(), "nothing was sent") {
		t.Fatalf("changed screen: %d %s", w.Code, w.Body)
	}
	if a := p.b.actions(); len(a) != 0 {
		t.Fatalf("sent %v", a)
	}
}

func TestAnswerApproves(t *testing.T) {
	p := newPage(t, permission("int_1", "Bash command"))
	p.pair()
	form := url.Values{"t": {"term_a"}, "shown": {p.shown()}, "c": {"0"}}
	w := p.answer(form, req{origin: "http://" + listen, cookie: p.cookie, csrfHeader: p.csrf})
	if !strings.Contains(w.Body.String(), "Sent (accepted)") {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	a := p.b.actions()
	if len(a) != 1 {
		t.Fatalf("sent %v", a)
	}
	if ap, ok := a[0].(api.ApproveRequest); !ok || ap.TerminalID != "term_a" || ap.Decision != contract.DecisionApproveOnce {
		t.Fatalf("sent %+v", a[0])
	}
	// Every call was this browser's own controller.
	for _, c := range p.b.calls {
		if !strings.HasSuffix(c, " web:"+p.srv.sessionsFor(p.cookie)) {
			t.Errorf("call %q", c)
		}
	}
}

// TestDegradedPage: a daemon that cannot act says so on the page, above
// the list, as an alert.
func TestDegradedPage(t *testing.T) {
	p := newPage(t, permission("int_1", "Bash command"))
	p.b.degraded = &api.Degraded{State: api.DegradedStoreUnavailable, Detail: "no space left on the store's disk"}
	p.pair()
	body := p.do(req{path: "/frag/list", cookie: p.cookie}).Body.String()
	if !strings.Contains(body, `role="alert">akk cannot act now (store_unavailable: no space left on the store&#39;s disk)`) {
		t.Fatalf("the list does not say the daemon is degraded:\n%s", body)
	}
}

func TestAnswerText(t *testing.T) {
	p := newPage(t, question())
	p.pair()
	base := url.Values{"t": {"term_a"}, "shown": {p.shown()}, "c": {"1"}}
	r := req{origin: "http://" + listen, cookie: p.cookie, csrfHeader: p.csrf}
	for _, text := range []string{"", "far too long an answer"} {
		f := url.Values{"t": base["t"], "shown": base["shown"], "c": base["c"], "text": {text}}
		if w := p.answer(f, r); !strings.Contains(w.Body.String(), "Nothing was sent") {
			t.Errorf("%q: %s", text, w.Body)
		}
	}
	f := url.Values{"t": base["t"], "shown": base["shown"], "c": base["c"], "text": {"teal"}}
	p.answer(f, r)
	a := p.b.actions()
	if len(a) != 1 {
		t.Fatalf("sent %v", a)
	}
	rp := a[0].(api.RespondRequest)
	if rp.InteractionID != "int_q" || rp.Answers[0].Text != "teal" || rp.Answers[0].SelectedOptionIDs[0] != "opt_other" {
		t.Fatalf("sent %+v", rp)
	}
}

func TestRegionHTML(t *testing.T) {
	scr := vt.New(40, 2, vt.Options{})
	fmt.Fprint(scr, "\x1b[38;2;1;2;3;48;5;196m<script>&\x1b[0m \x1b[7mrev\x1b[0m")
	r := vt.Rect{X: 0, Y: 0, W: 40, H: 2}
	c, err := vt.ParseCapture([]byte(scr.ANSI(r)), 40, 2)
	if err != nil {
		t.Fatal(err)
	}
	got := string(RegionHTML(c))
	want := `<div class="row"><span style="color:#010203;background-color:#ff0000">&lt;script&gt;&amp;</span> ` +
		`<span style="color:#1c1c1c;background-color:#d0d0d0">rev</span></div>`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// FuzzRegionHTML: whatever a pane prints, the HTML holds only akk's own
// tags, and every '<' of the pane's text arrives escaped.
func FuzzRegionHTML(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[1;31mred\x1b[0m <b>", "\x1b[38;5;300mx", "wide 漢字 \x1b]8;;http://x\x07l\x1b]8;;\x07"} {
		f.Add([]byte(s))
	}
	tag := regexp.MustCompile(`<(/?)(div|span)( class="row"| style="[a-z0-9:#;\- ]*")?>`)
	f.Fuzz(func(t *testing.T, data []byte) {
		scr := vt.New(30, 3, vt.Options{})
		scr.Write(data)
		r := vt.Rect{X: 0, Y: 0, W: 30, H: 3}
		c, err := vt.ParseCapture([]byte(scr.ANSI(r)), 30, 3)
		if err != nil {
			return
		}
		out := tag.ReplaceAllString(string(RegionHTML(c)), "")
		if strings.ContainsAny(out, "<>\"") {
			t.Fatalf("unescaped markup in %q", out)
		}
	})
}

func TestEventsStream(t *testing.T) {
	p := newPage(t, permission("int_1", "Bash command"))
	p.pair()
	ts := httptest.NewServer(p.srv)
	defer ts.Close()
	hr, _ := http.NewRequest("GET", ts.URL+"/events", nil)
	hr.Host = listen
	hr.AddCookie(&http.Cookie{Name: cookieName, Value: p.cookie})
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 64)
	n, _ := resp.Body.Read(buf) // the retry line: the stream is open
	if !strings.HasPrefix(string(buf[:n]), "retry:") {
		t.Fatalf("%q", buf[:n])
	}
	p.srv.hub.publish("term_a")
	var got strings.Builder
	for !strings.Contains(got.String(), "\n\n") {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err == io.EOF || err != nil {
			break
		}
	}
	if want := "event: change\ndata: {\"terminal_id\":\"term_a\"}\n\n"; got.String() != want {
		t.Fatalf("got %q want %q", got.String(), want)
	}
}

// sessionsFor is the session id a cookie names.
func (s *Server) sessionsFor(cookie string) string {
	sess, ok := s.sess.Lookup(cookie)
	if !ok {
		return "?"
	}
	return sess.ID
}

// TestFormTooLarge: a POST over MaxForm is answered 413 with the limit
// named, before any handler: nothing reaches the daemon.
func TestFormTooLarge(t *testing.T) {
	p := newPage(t, permission("int_1", "Bash command"))
	p.pair()
	form := url.Values{"t": {"term_a"}, "shown": {p.shown()}, "c": {"0"}, "csrf": {p.csrf}, "pad": {strings.Repeat("x", MaxForm)}}
	w := p.answer(form, req{origin: "http://" + listen, cookie: p.cookie})
	if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), fmt.Sprint(MaxForm)) {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	t.Logf("%d %s", w.Code, strings.TrimSpace(w.Body.String()))
	if a := p.b.actions(); len(a) != 0 {
		t.Fatalf("sent %v", a)
	}
	// A form within the limit is taken.
	form.Set("pad", "x")
	if w := p.answer(form, req{origin: "http://" + listen, cookie: p.cookie}); !strings.Contains(w.Body.String(), "Sent (accepted)") {
		t.Fatalf("within the limit: %d %s", w.Code, w.Body)
	}
}
