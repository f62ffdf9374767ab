package mcpserver

import (
	"context"
	"net"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
)

// TestHTTPSessions: over streamable HTTP on loopback each host session is
// its own controller too: a status in one authorises a response in that
// one only.
func TestHTTPSessions(t *testing.T) {
	f, srv := newFakeServer(t)
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
	open := func(version string) *mcp.ClientSession {
		tr := &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String(), MaxRetries: -1}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(ctx, tr,
			&mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	answer := map[string]any{"turn_id": fakeTurn, "interaction_id": fakeInt, "answers": []any{map[string]any{
		"question_id": fakeQ, "response_kind": "single_select", "selected_option_ids": []any{fakeOpt}}}}
	for _, version := range []string{"2025-11-25", ""} {
		a, b := open(version), open(version)
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

// TestHTTPRefusesNonLoopback: the tools act with the local user's
// authority; no other host may reach them.
func TestHTTPRefusesNonLoopback(t *testing.T) {
	srv := New(Options{Socket: "/nonexistent"})
	for _, addr := range []string{"0.0.0.0", "192.0.2.1", "::"} {
		ln := &stubListener{addr: &net.TCPAddr{IP: net.ParseIP(addr), Port: 8080}}
		if err := srv.ServeHTTP(context.Background(), ln); err == nil || !ln.closed {
			t.Errorf("ServeHTTP on %s: err %v, listener closed %v; want a refusal", addr, err, ln.closed)
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
