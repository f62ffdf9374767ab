package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/internal/uidtest"
)

// newHTTPFake is an MCP server of a fake daemon serving streamable HTTP
// on a fresh loopback port with a fresh token, until the test ends.
func newHTTPFake(t *testing.T) (*fakeDaemon, string, api.Token) {
	t.Helper()
	f, sock := startFake(t)
	tok := newToken(t)
	srv := New(Options{Socket: sock, Token: tok, PeerUID: procid.ConnPeerUID})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeHTTP(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	})
	return f, "http://" + ln.Addr().String(), tok
}

// newToken is a token as the daemon makes it, in a directory of the test.
func newToken(t *testing.T) api.Token {
	t.Helper()
	path := filepath.Join(t.TempDir(), api.TokenName)
	if _, err := api.EnsureToken(path); err != nil {
		t.Fatal(err)
	}
	tok, err := api.ReadToken(path)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// bearerTransport is an HTTP client's transport that adds the token to
// every request, as a host configured with it does.
type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connectHTTP opens one MCP session over streamable HTTP with the token
// ("" protocol version: the SDK's newest).
func connectHTTP(t *testing.T, url string, tok api.Token, version string) *mcp.ClientSession {
	t.Helper()
	next := http.DefaultTransport.(*http.Transport).Clone()
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearerTransport{token: tok.Reveal(), next: next}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(context.Background(), tr,
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); next.CloseIdleConnections() })
	return cs
}

// TestHTTPSessions: over streamable HTTP on loopback each host session is
// its own controller too: a status in one authorises a response in that
// one only.
func TestHTTPSessions(t *testing.T) {
	f, url, tok := newHTTPFake(t)
	answer := map[string]any{"turn_id": fakeTurn, "interaction_id": fakeInt, "answers": []any{map[string]any{
		"question_id": fakeQ, "response_kind": "single_select", "selected_option_ids": []any{fakeOpt}}}}
	for _, version := range []string{"2025-11-25", ""} {
		a, b := connectHTTP(t, url, tok, version), connectHTTP(t, url, tok, version)
		callTool(t, a, ToolStatus, map[string]any{"terminal_id": fakeTerm}, nil)
		var rb, ra api.ActionResult
		callTool(t, b, ToolRespond, answer, &rb)
		callTool(t, a, ToolRespond, answer, &ra)
		if rb.Reason != api.ReasonNoOffer || ra.Outcome != api.OutcomeAccepted {
			t.Errorf("protocol %q: the other session got %+v, the status's own session %+v", version, rb, ra)
		}
	}
	if n := len(f.callsOf("respond_interaction")); n != 4 {
		t.Errorf("%d responses reached the daemon, want 4", n)
	}
}

// initializeBody is a host's first request.
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// postInitialize sends initializeBody with the given Host (unless "") and
// headers, and returns the status, the body and WWW-Authenticate.
func postInitialize(t *testing.T, url, host string, header http.Header) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if host != "" {
		req.Host = host
	}
	cl := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	defer cl.CloseIdleConnections()
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header.Get("WWW-Authenticate")
}

// TestHTTPGuard: what a request must show before MCP sees it: the token
// (401 otherwise, with a challenge), a loopback Host (DNS rebinding) and
// no Origin or a loopback one (a web page of another site): 403 otherwise.
func TestHTTPGuard(t *testing.T) {
	_, url, tok := newHTTPFake(t)
	port := url[strings.LastIndex(url, ":")+1:]
	const (
		challenge = `Bearer realm="akk mcp"`
		invalid   = `Bearer realm="akk mcp", error="invalid_token"`
	)
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Add(kv[i], kv[i+1])
		}
		return h
	}
	auth := "Bearer " + tok.Reveal()
	tests := []struct {
		name      string
		host      string // "" = the URL's
		header    http.Header
		status    int
		body      string // in the reply
		challenge string // WWW-Authenticate
	}{
		{"no token", "", hdr(), 401, msgToken, challenge},
		{"a wrong token", "", hdr("Authorization", "Bearer "+strings.Repeat("0", 64)), 401, msgToken, invalid},
		{"the token in another scheme", "", hdr("Authorization", "Basic "+tok.Reveal()), 401, msgToken, challenge},
		{"the token without a scheme", "", hdr("Authorization", tok.Reveal()), 401, msgToken, challenge},
		{"an empty bearer", "", hdr("Authorization", "Bearer "), 401, msgToken, challenge},
		{"the token", "", hdr("Authorization", auth), 200, "protocolVersion", ""},
		{"the scheme in lower case", "", hdr("Authorization", "bearer "+tok.Reveal()), 200, "protocolVersion", ""},
		{"a loopback Origin", "", hdr("Authorization", auth, "Origin", "http://127.0.0.1:3000"), 200, "protocolVersion", ""},
		{"a localhost Origin", "", hdr("Authorization", auth, "Origin", "https://localhost"), 200, "protocolVersion", ""},
		{"an [::1] Origin", "", hdr("Authorization", auth, "Origin", "http://[::1]:8080"), 200, "protocolVersion", ""},
		{"another site's Origin", "", hdr("Authorization", auth, "Origin", "https://evil.example"), 403, msgOrigin, ""},
		{"an Origin of a rebound name", "", hdr("Authorization", auth, "Origin", "http://127.0.0.1.nip.io:"+port), 403, msgOrigin, ""},
		{"Origin null", "", hdr("Authorization", auth, "Origin", "null"), 403, msgOrigin, ""},
		{"an Origin of another scheme", "", hdr("Authorization", auth, "Origin", "file://localhost"), 403, msgOrigin, ""},
		{"two Origins", "", hdr("Authorization", auth, "Origin", "http://localhost", "Origin", "https://evil.example"), 403, msgOrigin, ""},
		{"another site's Origin without a token", "", hdr("Origin", "https://evil.example"), 403, msgOrigin, ""},
		{"a localhost Host", "localhost:" + port, hdr("Authorization", auth), 200, "protocolVersion", ""},
		{"an [::1] Host", "[::1]:" + port, hdr("Authorization", auth), 200, "protocolVersion", ""},
		{"a rebound Host", "evil.example:" + port, hdr("Authorization", auth), 403, msgHost, ""},
		{"a Host of a name of 127.0.0.1", "127.0.0.1.nip.io:" + port, hdr("Authorization", auth), 403, msgHost, ""},
		{"a rebound Host without a token", "evil.example", hdr(), 403, msgHost, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body, chal := postInitialize(t, url, tc.host, tc.header)
			if status != tc.status || !strings.Contains(body, tc.body) || chal != tc.challenge {
				t.Errorf("got %d %q (WWW-Authenticate %q), want %d %q (%q)", status, body, chal, tc.status, tc.body, tc.challenge)
			}
			if status != 200 && strings.Contains(body, tok.Reveal()[:16]) {
				t.Errorf("a refusal shows the token: %q", body)
			}
		})
	}
}

// TestHTTPRefusesOtherUID: a client of another uid (65534, nobody) WITH
// the valid token is refused before any MCP handling: the peer's socket
// is not the daemon owner's. The same client binary and token as our own
// uid is served. Needs root to run the client as another uid.
func TestHTTPRefusesOtherUID(t *testing.T) {
	if url := os.Getenv("AKK_MCP_HTTP_CHILD"); url != "" {
		httpChild(url, os.Getenv("AKK_MCP_HTTP_CHILD_TOKEN"))
		return
	}
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as uid 65534 (api.TestOwnerOnlyTCP checks the refusal as any user)")
	}
	_, url, tok := newHTTPFake(t)
	// The child binary in a directory nobody may enter (t.TempDir and
	// the go build's are 0700).
	dir := uidtest.SharedDir(t, "akk-mcp-http-")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "mcpserver.test")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(cred *syscall.Credential) string {
		cmd := exec.Command(bin, "-test.run=^TestHTTPRefusesOtherUID$")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "AKK_MCP_HTTP_CHILD="+url, "AKK_MCP_HTTP_CHILD_TOKEN="+tok.Reveal())
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, err := cmd.CombinedOutput()
		t.Logf("child (credential %+v): %v\n%s", cred, err, out)
		return string(out)
	}
	if out := run(&syscall.Credential{Uid: 65534, Gid: 65534}); !strings.Contains(out, "RESULT 403 ") ||
		!strings.Contains(out, "uid 65534 may not use this akk daemon") {
		t.Fatalf("a client of uid 65534 with the token was not refused:\n%s", out)
	}
	if out := run(nil); !strings.Contains(out, "RESULT 200 ") {
		t.Fatalf("the same client as uid %d was not served:\n%s", os.Getuid(), out)
	}
}

// httpChild is the client of TestHTTPRefusesOtherUID: one initialize
// with the token, and what came back.
func httpChild(url, token string) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	if err != nil {
		fmt.Printf("RESULT error %v\n", err)
		return
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Printf("RESULT error %v\n", err)
		return
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Printf("RESULT %d %s\n", resp.StatusCode, b)
}

// TestHTTPRefusesNonLoopback: the tools act with the local user's
// authority; no other host may reach them.
func TestHTTPRefusesNonLoopback(t *testing.T) {
	srv := New(Options{Socket: "/nonexistent", Token: newToken(t)})
	for _, addr := range []string{"0.0.0.0", "192.0.2.1", "::"} {
		ln := &stubListener{addr: &net.TCPAddr{IP: net.ParseIP(addr), Port: 8080}}
		if err := srv.ServeHTTP(context.Background(), ln); err == nil || !ln.closed {
			t.Errorf("ServeHTTP on %s: err %v, listener closed %v; want a refusal", addr, err, ln.closed)
		}
	}
}

// TestHTTPNeedsToken: without a token nothing is served.
func TestHTTPNeedsToken(t *testing.T) {
	srv := New(Options{Socket: "/nonexistent"})
	ln := &stubListener{addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}}
	if err := srv.ServeHTTP(context.Background(), ln); !errors.Is(err, ErrNoToken) || !ln.closed {
		t.Errorf("ServeHTTP without a token: err %v, listener closed %v; want ErrNoToken", err, ln.closed)
	}
}

// TestLoopbackNames: the Host and Origin checks' notion of loopback.
func TestLoopbackNames(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.0.0.1:80": true, "127.1.2.3:9": true, "[::1]:8765": true, "[::1]": true, "::1": true,
		"localhost": true, "LOCALHOST:1": true, "[::ffff:127.0.0.1]:1": true,
		"": false, "localhost.": false, "localhost.evil.example": false, "127.0.0.1.nip.io": false, "0.0.0.0:1": false,
		"[::]:1": false, "192.168.1.1": false, "[fe80::1%lo]:1": false, "[::1%lo]:1": false, "evil.example:80": false,
	} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
	for origin, want := range map[string]bool{
		"http://localhost:3000": true, "https://127.0.0.1": true, "http://[::1]": true,
		"null": false, "": false, "file://localhost": false, "http://user@localhost": false, "http://evil.example": false,
		"chrome-extension://abcdef": false, "http://localhost:3000/path%zz": false,
	} {
		if got := loopbackOrigin(origin); got != want {
			t.Errorf("loopbackOrigin(%q) = %v, want %v", origin, got, want)
		}
	}
}

// stubListener has an address and nothing behind it: no socket is opened
// on a non-loopback address.
type stubListener struct {
	addr   net.Addr
	closed bool
}

func (l *stubListener) Accept() (net.Conn, error) { return nil, net.ErrClosed }
func (l *stubListener) Close() error              { l.closed = true; return nil }
func (l *stubListener) Addr() net.Addr            { return l.addr }

// TestHTTPBodyTooLarge: a request over MaxBody is answered 413 with the
// limit in the message, as the unix API's and the web page's are.
func TestHTTPBodyTooLarge(t *testing.T) {
	_, url, tok := newHTTPFake(t)
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list","arguments":{"pad":"` +
		strings.Repeat("x", MaxBody) + `"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok.Reveal())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), fmt.Sprint(MaxBody)) {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	t.Logf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
}
