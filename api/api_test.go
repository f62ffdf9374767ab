package api

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
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// fakeHandler serves fixed answers and a controllable event log.
type fakeHandler struct {
	Unimplemented // the reads and events only
	mu            sync.Mutex
	events        []Event
	wake          chan struct{}
}

func (f *fakeHandler) List(context.Context) (ListResponse, error) {
	return ListResponse{V: 1, Terminals: []Terminal{{TerminalID: "term_a", Agent: "claude", ScreenState: contract.ScreenIdle}}}, nil
}

func (f *fakeHandler) Status(_ context.Context, req StatusRequest) (StatusResponse, error) {
	if req.TerminalID != "term_a" {
		return StatusResponse{}, Errorf(CodeNotFound, "no terminal %s", req.TerminalID)
	}
	return StatusResponse{V: 1, Terminal: Terminal{TerminalID: "term_a"}}, nil
}

func (f *fakeHandler) Health(context.Context) (Health, error) {
	return Health{}, errors.New("boom")
}

func (f *fakeHandler) add(e Event) {
	f.mu.Lock()
	f.events = append(f.events, e)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *fakeHandler) Events(ctx context.Context, after uint64, follow bool, emit func(Event) error) error {
	for {
		f.mu.Lock()
		evs := append([]Event(nil), f.events...)
		f.mu.Unlock()
		for _, e := range evs {
			if e.Seq > after {
				if err := emit(e); err != nil {
					return err
				}
				after = e.Seq
			}
		}
		if !follow {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-f.wake:
		}
	}
}

func serveT(t *testing.T, h Handler, dir string) (*Client, string) {
	t.Helper()
	sock := filepath.Join(dir, "akk", SocketName)
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, ServerOptions{UID: -1}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	c := NewClient(sock)
	t.Cleanup(c.Close)
	return c, sock
}

func TestClientServer(t *testing.T) {
	c, sock := serveT(t, &fakeHandler{wake: make(chan struct{}, 1)}, t.TempDir())
	ctx := context.Background()
	l, err := c.List(ctx)
	if err != nil || len(l.Terminals) != 1 || l.Terminals[0].Agent != "claude" {
		t.Fatalf("List: %+v %v", l, err)
	}
	if _, err := c.Status(ctx, StatusRequest{TerminalID: "term_x"}); !IsCode(err, CodeNotFound) {
		t.Fatalf("Status of a missing terminal: %v", err)
	}
	if _, err := c.Status(ctx, StatusRequest{}); !IsCode(err, CodeBadRequest) {
		t.Fatalf("Status without id: %v", err)
	}
	if _, err := c.Health(ctx); !IsCode(err, CodeInternal) || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("Health error: %v", err)
	}
	if err := c.call(ctx, "approve", nil, &struct{}{}); !IsCode(err, CodeNoOp) {
		t.Fatalf("unknown op: %v", err)
	}
	fi, err := os.Stat(sock)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v %v", fi.Mode(), err)
	}
	di, _ := os.Stat(filepath.Dir(sock))
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("socket dir mode %v", di.Mode())
	}
	if _, err := Listen(sock); !errors.Is(err, ErrInUse) {
		t.Fatalf("second Listen on a live socket: %v", err)
	}
}

func TestEventsFollow(t *testing.T) {
	h := &fakeHandler{wake: make(chan struct{}, 1)}
	h.add(Event{Seq: 1, Type: "a", TerminalID: "term_a", Attrs: map[string]string{"to": "idle"}})
	c, _ := serveT(t, h, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got := make(chan Event, 10)
	done := make(chan error, 1)
	go func() {
		done <- c.Events(ctx, 0, true, func(e Event) error {
			got <- e
			if e.Seq == 3 {
				return io.EOF
			}
			return nil
		})
	}()
	first := <-got
	if first.Seq != 1 || first.Attrs["to"] != "idle" || first.TerminalID != "term_a" {
		t.Fatalf("first event %+v", first)
	}
	h.add(Event{Seq: 2, Type: "b"})
	h.add(Event{Seq: 3, Type: "c"})
	if e := <-got; e.Seq != 2 {
		t.Fatalf("second event %+v", e)
	}
	if err := <-done; err != io.EOF {
		t.Fatalf("Events returned %v", err)
	}
	var n int
	if err := c.Events(ctx, 1, false, func(Event) error { n++; return nil }); err != nil || n != 2 {
		t.Fatalf("Events after 1 without follow: %d %v", n, err)
	}
}

func TestDaemonNotRunning(t *testing.T) {
	dir := t.TempDir()
	c := NewClient(filepath.Join(dir, SocketName))
	_, err := c.List(context.Background())
	if !errors.Is(err, ErrDaemonNotRunning) || !strings.Contains(err.Error(), "akk attach") {
		t.Fatalf("List without daemon: %v", err)
	}
	// A socket file left by a killed daemon: refused connections, and
	// Listen replaces it.
	sock := filepath.Join(dir, "s", SocketName)
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := NewClient(sock).List(context.Background()); !errors.Is(err, ErrDaemonNotRunning) {
		t.Fatalf("List on a stale socket: %v", err)
	}
	ln, err = Listen(sock)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	ln.Close()
}

// TestPeerOfAnotherUIDRefused runs a client as uid 65534 (needs root to
// switch uid). The socket and its directory are opened up for the test so
// that only the SO_PEERCRED check stands between that client and the API.
func TestPeerOfAnotherUIDRefused(t *testing.T) {
	if os.Getenv("AKK_API_PEER_CHILD") != "" {
		peerChild(os.Getenv("AKK_API_PEER_CHILD"))
		return
	}
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another uid; the check is PeerUID against the daemon's uid")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755) // t.TempDir's parent is 0700 too
	_, sock := serveT(t, &fakeHandler{wake: make(chan struct{}, 1)}, dir)
	os.Chmod(filepath.Dir(sock), 0o755)
	os.Chmod(sock, 0o666)
	bin := filepath.Join(dir, "api.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestPeerOfAnotherUIDRefused$")
	cmd.Env = append(os.Environ(), "AKK_API_PEER_CHILD="+sock)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	t.Logf("child: %v", err)
	if !strings.Contains(string(out), `RESULT 403 {"error":{"code":"forbidden","message":"uid 65534 may not use this akk daemon"}}`) {
		t.Fatalf("client of uid 65534 was not refused:\n%s", out)
	}
	// The same socket still serves our own uid (whose client wants the
	// directory 0700 again).
	os.Chmod(filepath.Dir(sock), 0o700)
	if _, err := NewClient(sock).List(context.Background()); err != nil {
		t.Fatalf("own uid after a refusal: %v", err)
	}
}

// peerChild posts /v1/list as a raw HTTP client: NewClient would refuse
// the directory (not this uid's) before the server's check is reached.
func peerChild(sock string) {
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}}
	resp, err := hc.Post("http://akk/v1/list", "application/json", nil)
	if err != nil {
		fmt.Printf("RESULT %v\n", err)
		return
	}
	b, _ := io.ReadAll(resp.Body)
	fmt.Printf("RESULT %d %s\n", resp.StatusCode, strings.TrimSpace(string(b)))
}

func TestPeerUIDOfSelf(t *testing.T) {
	a, b := socketPair(t)
	defer a.Close()
	defer b.Close()
	uid, err := PeerUID(a)
	if err != nil || uid != os.Getuid() {
		t.Fatalf("PeerUID = %d, %v", uid, err)
	}
	if _, err := PeerUID(&net.TCPConn{}); err == nil {
		t.Fatal("PeerUID of a TCP conn succeeded")
	}
}

func socketPair(t *testing.T) (net.Conn, net.Conn) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(fd int) net.Conn {
		f := os.NewFile(uintptr(fd), "sp")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return mk(fds[0]), mk(fds[1])
}

func TestEventJSON(t *testing.T) {
	e := Event{Seq: 7, Time: time.Unix(1, 0).UTC(), Type: EventTerminalState, TerminalID: "term_a",
		Attrs: map[string]string{"from": "working", "to": "idle", "seq": "shadow"}}
	b, err := e.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"seq":7`) || !strings.Contains(string(b), `"to":"idle"`) {
		t.Fatalf("event json %s", b)
	}
	var back Event
	if err := back.UnmarshalJSON(b); err != nil || back.Seq != 7 || back.Attrs["from"] != "working" || !back.Time.Equal(e.Time) {
		t.Fatalf("round trip %+v %v", back, err)
	}
	_ = http.StatusOK
}
