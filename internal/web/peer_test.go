package web

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/internal/syncbuf"
	"github.com/agent-knock-knock/akk/internal/uidtest"
)

// realPage is akk web on a real loopback port, with the real peer lookup
// (ConnContext), paired by this test's own browser.
type realPage struct {
	url, cookie string
	log         *syncbuf.Buffer
}

func startRealPage(t *testing.T, allow []int) *realPage {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &realPage{url: "http://" + ln.Addr().String(), log: &syncbuf.Buffer{}}
	sessions := NewSessions(nil, 0)
	srv, err := New(Config{Backend: &fakeBackend{status: permission("int_1", "Bash command")}, Listen: ln.Addr().String(),
		Sessions: sessions, AllowUIDs: allow, ConfigPath: "/home/me/.config/akk/config.toml",
		Logger: slog.New(slog.NewTextHandler(p.log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ConnContext: ConnContext}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	// Pair as this test's uid, over the real connection.
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest(http.MethodPost, p.url+"/pair", strings.NewReader(url.Values{"code": {sessions.NewCode()}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", p.url)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if c := resp.Cookies(); resp.StatusCode != http.StatusSeeOther || len(c) != 1 {
		t.Fatalf("pair as our own uid: %d %v", resp.StatusCode, c)
	} else {
		p.cookie = c[0].Value
	}
	return p
}

// get is GET / with the cookie, as we are or (cmd) as another uid.
func getPage(url, cookie string) string {
	req, _ := http.NewRequest(http.MethodGet, url+"/", nil)
	req.AddCookie(&http.Cookie{Name: cookieName, Value: cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "RESULT error " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("RESULT %d\n%s", resp.StatusCode, b)
}

// TestPeerUIDs: a browser (here, a client holding a paired cookie) that
// connects as another uid is refused with the help that names its uid
// and the configuration line, and so is the log line; the same uid
// listed in allow_uids (a tunnel's) is served the page; our own uid is
// served. Real processes: the other uid's client is the test binary run
// as that uid, its socket's owner looked up in /proc/net/tcp.
func TestPeerUIDs(t *testing.T) {
	if u := os.Getenv("AKK_WEB_PEER_CHILD"); u != "" {
		fmt.Println(getPage(u, os.Getenv("AKK_WEB_PEER_COOKIE")))
		return
	}
	other := uidtest.Other(t)
	uid := strconv.Itoa(other.UID)
	asOther := func(p *realPage) string {
		cmd := uidtest.Child(t, other, "TestPeerUIDs", "AKK_WEB_PEER_CHILD="+p.url, "AKK_WEB_PEER_COOKIE="+p.cookie)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return string(out)
	}

	p := startRealPage(t, nil)
	if got := getPage(p.url, p.cookie); !strings.HasPrefix(got, "RESULT 200") || !strings.Contains(got, "Approve once") {
		t.Fatalf("our own uid: %.300s", got)
	}
	got := asOther(p)
	for _, want := range []string{"RESULT 403", "a connection from uid " + uid + " is refused",
		"allow it in /home/me/.config/akk/config.toml:\n\n[web]\nallow_uids = [" + uid + "]", "tailscaled often runs as root"} {
		if !strings.Contains(got, want) {
			t.Errorf("uid %s with the cookie: no %q in:\n%s", uid, want, got)
		}
	}
	if strings.Contains(got, "Approve once") {
		t.Errorf("the refused uid saw the page")
	}
	log := p.log.String()
	if !strings.Contains(log, "peer_uid="+uid) || !strings.Contains(log, `"allow_uids = [`+uid+`] under [web] in /home/me/.config/akk/config.toml"`) {
		t.Errorf("log:\n%s", log)
	}
	t.Logf("refused:\n%s", got)

	p = startRealPage(t, []int{other.UID})
	if got := asOther(p); !strings.HasPrefix(got, "RESULT 200") || !strings.Contains(got, "Approve once") {
		t.Errorf("uid %s listed as a tunnel: %.300s", uid, got)
	}
}

// TestPeerRefusal: the check's decisions as any user, with the lookup
// injected: an unknown owner is refused, a listed tunnel's uid is served.
func TestPeerRefusal(t *testing.T) {
	for _, tc := range []struct {
		name  string
		uid   int
		err   error
		allow []int
		want  int
		says  string
	}{
		{"own", os.Getuid(), nil, nil, 401, "akk web --pair"},
		{"another uid", 4242, nil, nil, 403, "allow_uids = [4242]"},
		{"a tunnel's", 4242, nil, []int{7, 4242}, 401, "akk web --pair"},
		{"unknown", -1, errors.New("procid: no socket"), []int{4242}, 403, "the owner of this connection is unknown"},
	} {
		b := &fakeBackend{status: permission("int_1", "Bash command")}
		srv, err := New(Config{Backend: b, Listen: listen, Sessions: NewSessions(nil, 0), AllowUIDs: tc.allow,
			PeerUID: func(*http.Request) (int, error) { return tc.uid, tc.err }})
		if err != nil {
			t.Fatal(err)
		}
		w := (&page{t: t, srv: srv, b: b}).do(req{path: "/"})
		if w.Code != tc.want || !strings.Contains(w.Body.String(), tc.says) {
			t.Errorf("%s: %d %s", tc.name, w.Code, w.Body)
		}
	}
}
