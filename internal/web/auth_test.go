package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestSessionsListRevoke: a paired browser is listed by its user agent
// (never its cookie or CSRF token), a revoked one's cookie opens nothing,
// and the cookie's Max-Age and the server's expiry are the configured
// session_max_age.
func TestSessionsListRevoke(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	sessions := NewSessions(func() time.Time { return now }, 48*time.Hour)
	b := &fakeBackend{status: permission("int_1", "Bash command")}
	srv, err := New(Config{Backend: b, Listen: listen, Sessions: sessions, Now: func() time.Time { return now },
		PeerUID: func(*http.Request) (int, error) { return ownUID(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	pair := func(ua string) *http.Cookie {
		hr := httptest.NewRequest(http.MethodPost, "/pair", strings.NewReader("code="+sessions.NewCode()))
		hr.Host = listen
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		hr.Header.Set("Origin", "http://"+listen)
		hr.Header.Set("User-Agent", ua)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, hr)
		c := w.Result().Cookies()
		if w.Code != http.StatusSeeOther || len(c) != 1 {
			t.Fatalf("pair %s: %d %v", ua, w.Code, c)
		}
		return c[0]
	}
	phone := pair("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1")
	now = now.Add(time.Hour)
	laptop := pair("Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")
	if phone.MaxAge != 48*3600 {
		t.Errorf("cookie Max-Age %d, want 48 h", phone.MaxAge)
	}
	list := sessions.List()
	if len(list) != 2 || !strings.Contains(list[0].UserAgent, "iPhone") || !strings.Contains(list[1].UserAgent, "Firefox") ||
		!list[0].Expires.Equal(list[0].Created.Add(48*time.Hour)) {
		t.Fatalf("list %+v", list)
	}
	p := &page{t: t, srv: srv, b: b}
	if w := p.do(req{path: "/", cookie: phone.Value}); w.Code != 200 {
		t.Fatalf("phone before revoke: %d", w.Code)
	}
	if !sessions.Revoke(list[0].ID) || sessions.Revoke(list[0].ID) {
		t.Fatal("revoke: once, then no such session")
	}
	if w := p.do(req{path: "/", cookie: phone.Value}); w.Code != http.StatusUnauthorized {
		t.Errorf("phone after revoke: %d", w.Code)
	}
	if w := p.do(req{path: "/", cookie: laptop.Value}); w.Code != 200 {
		t.Errorf("laptop after the phone's revoke: %d", w.Code)
	}
	// 48 h after the laptop paired it opens no more, a second before it does.
	now = now.Add(48*time.Hour - time.Second)
	if w := p.do(req{path: "/", cookie: laptop.Value}); w.Code != 200 {
		t.Errorf("laptop before its max age: %d", w.Code)
	}
	now = now.Add(time.Second)
	if w := p.do(req{path: "/", cookie: laptop.Value}); w.Code != http.StatusUnauthorized {
		t.Errorf("laptop at its max age: %d", w.Code)
	}
	if l := sessions.List(); len(l) != 0 {
		t.Errorf("expired sessions listed: %+v", l)
	}
}
