package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/syncbuf"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// closedInput is what `printf '...' | akk mcp` gives the server: three
// calls and a notification, then the end of input at once.
func closedInput() string {
	return strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, ToolList),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":%q,"arguments":{"terminal_id":%q}}}`, ToolStatus, fakeTerm),
	}, "\n") + "\n"
}

// replies are the responses in out by id: "ok" for a result (for a tool,
// one that is no tool error and names the fake terminal), else the error.
func replies(t *testing.T, out []byte) map[int]string {
	t.Helper()
	got := map[int]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("output line %q: %v", sc.Bytes(), err)
		}
		if m.ID == nil {
			continue // a notification
		}
		switch {
		case m.Error != nil:
			got[*m.ID] = "error " + string(m.Error)
		case *m.ID > 1 && (bytes.Contains(m.Result, []byte(`"isError":true`)) || !bytes.Contains(m.Result, []byte(fakeTerm))):
			got[*m.ID] = "tool result " + string(m.Result)
		default:
			got[*m.ID] = "ok"
		}
	}
	return got
}

func wantAllReplies(t *testing.T, got map[int]string) {
	t.Helper()
	for id := 1; id <= 3; id++ {
		if got[id] != "ok" {
			t.Errorf("request %d: %q, want a reply", id, got[id])
		}
	}
}

// syncBuffer is a writer the server's goroutines may share; the
// transport closes it.
type syncBuffer struct{ syncbuf.Buffer }

func (s *syncBuffer) Close() error { return nil }

// runClosedInput serves closedInput on t (wrapped as wrap says) and
// returns what the server wrote, once Run has returned.
func runClosedInput(t *testing.T, srv *Server, wrap func(mcp.Transport) mcp.Transport) []byte {
	t.Helper()
	var out syncBuffer
	tr := wrap(&mcp.IOTransport{Reader: io.NopCloser(strings.NewReader(closedInput())), Writer: &out})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Run(ctx, tr); err != nil {
		t.Logf("Run: %v", err)
	}
	return out.Bytes()
}

// TestStdioRepliesAfterEOF: a host that closes its input right after its
// last request gets every reply, even one the daemon takes a while over;
// the SDK's transport alone drops it (jsonrpc2 ends the connection at the
// end of input), which is why drainTransport exists.
func TestStdioRepliesAfterEOF(t *testing.T) {
	f, srv := newFakeServer(t)
	f.mu.Lock()
	f.listDelay = 300 * time.Millisecond
	f.mu.Unlock()
	wantAllReplies(t, replies(t, runClosedInput(t, srv, func(tr mcp.Transport) mcp.Transport { return drainTransport{inner: tr} })))

	// The same delay on the SDK's own transport: without it the reply can
	// beat the end of input, and this canary would only be a race.
	pf, plainSrv := newFakeServer(t)
	pf.mu.Lock()
	pf.listDelay = 300 * time.Millisecond
	pf.mu.Unlock()
	got := replies(t, runClosedInput(t, plainSrv, func(tr mcp.Transport) mcp.Transport { return tr }))
	if got[2] == "ok" {
		t.Errorf("the SDK's own transport now answers after the end of input: drainTransport may no longer be needed")
	}
}

// TestStdioDrainLimit: a reply that never comes does not keep the
// connection open past the limit.
func TestStdioDrainLimit(t *testing.T) {
	f, srv := newFakeServer(t)
	f.mu.Lock()
	f.listDelay = time.Hour
	f.mu.Unlock()
	start := time.Now()
	got := replies(t, runClosedInput(t, srv, func(tr mcp.Transport) mcp.Transport {
		return drainTransport{inner: tr, limit: 200 * time.Millisecond}
	}))
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run returned after %v", d)
	}
	if got[1] != "ok" || got[3] != "ok" {
		t.Errorf("replies %v: want initialize and status answered", got)
	}
}

// TestStdioBinaryEOF: the real `akk mcp` with its input closed after the
// last request (`printf ... | akk mcp --socket S`) prints every reply
// before it exits.
func TestStdioBinaryEOF(t *testing.T) {
	f, sock := startFake(t)
	f.mu.Lock()
	f.listDelay = 300 * time.Millisecond
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, buildAkk(t), "mcp", "--socket", sock)
	cmd.Stdin = strings.NewReader(closedInput())
	cmd.Stderr = &testWriter{t: t}
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("akk mcp: %v", err)
	}
	wantAllReplies(t, replies(t, out))
}

// connectStdio opens one MCP session with the real `akk mcp` on stdio, a
// process of its own, as a host starts it.
func connectStdio(t *testing.T, sock string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(buildAkk(t), "mcp", "--socket", sock)
	cmd.Stderr = &testWriter{t: t}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("akk mcp: %v", err)
		}
	})
	return cs
}
