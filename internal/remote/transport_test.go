package remote

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-knock-knock/akk/api"
)

// daemonAt answers the API on a unix socket of the test, as a daemon with
// the given rows would: list, and approve by terminal id (recording what
// it got). It stands in for the daemons only in this test of the
// mapping; the sshd test runs real ones.
type daemonAt struct {
	sock string
	mu   sync.Mutex
	got  []string
}

func startDaemonAt(t *testing.T, rows ...api.Terminal) *daemonAt {
	t.Helper()
	d := &daemonAt{sock: filepath.Join(t.TempDir(), "akk.sock")}
	if err := api.PrivateDir(filepath.Dir(d.sock)); err != nil { // t.TempDir's own is 0755
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", d.sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		d.mu.Lock()
		d.got = append(d.got, r.URL.Path+" "+string(b))
		d.mu.Unlock()
		switch r.URL.Path {
		case "/v1/list":
			json.NewEncoder(w).Encode(api.ListResponse{V: 1, Terminals: rows})
		case "/v1/approve":
			var req api.ApproveRequest
			json.Unmarshal(b, &req)
			json.NewEncoder(w).Encode(api.ActionResult{V: 1, Op: "approve", Outcome: api.OutcomeAccepted, TerminalID: req.TerminalID,
				ReceiptID: "rcpt_aaaaaaaaaaaaaaaaaaaaaaaaaa"})
		case "/v1/events":
			w.Write([]byte(`{"seq":1,"type":"terminal.state","terminal_id":"term_abcdefghijklmnopqrstuvwxyz"}` + "\n"))
			w.Write([]byte(`{"seq":2,"type":"dispatch.reserved","terminal_id":"term_abcdefghijklmnopqrstuvwxyz","op":"approve"}` + "\n"))
		case "/v1/cancel":
			// The connection drops after the request arrived.
			hj, _ := w.(http.Hijacker)
			c, _, _ := hj.Hijack()
			c.Close()
		}
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return d
}

// TestTransportMapsIDs: two daemons whose rows carry the same remote id
// show as one list with two distinct local ids of the same form, each
// with its host; an approve by a local id reaches its host only, with the
// remote id, and its reply's ids come back mapped; an unknown id is
// refused before any host sees it; a dropped connection after the request
// was sent is ErrNoReply (the CLI's uncertain), never a second send.
func TestTransportMapsIDs(t *testing.T) {
	const same = "term_abcdefghijklmnopqrstuvwxyz"
	a := startDaemonAt(t, api.Terminal{TerminalID: same, Agent: "claude", Session: "main"})
	b := startDaemonAt(t, api.Terminal{TerminalID: same, Agent: "codex", Session: "work"})
	ids := NewIDs([]byte("test key"))
	cl := api.NewClientOver("test", &Transport{IDs: ids, Hosts: []Host{{Name: "alice@a", RT: SocketRT(a.sock)}, {Name: "b:2222", RT: SocketRT(b.sock)}}})
	ctx := context.Background()

	l, err := cl.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Terminals) != 2 || l.Terminals[0].Host != "alice@a" || l.Terminals[1].Host != "b:2222" {
		t.Fatalf("merged rows %+v", l.Terminals)
	}
	la, lb := l.Terminals[0].TerminalID, l.Terminals[1].TerminalID
	if la == lb || la == same || !semanticID.MatchString(la) || !strings.HasPrefix(lb, "term_") {
		t.Fatalf("local ids %s %s for remote %s", la, lb, same)
	}

	res, err := cl.Approve(ctx, api.ApproveRequest{TerminalID: lb})
	if err != nil || res.Outcome != api.OutcomeAccepted || res.TerminalID != lb || res.ReceiptID == "rcpt_aaaaaaaaaaaaaaaaaaaaaaaaaa" {
		t.Fatalf("approve: %+v %v", res, err)
	}
	if got := strings.Join(b.got, "|"); !strings.Contains(got, `"terminal_id":"`+same+`"`) {
		t.Errorf("host b got %s, want the approve with the remote id", got)
	}
	for _, g := range a.got {
		if strings.HasPrefix(g, "/v1/approve") {
			t.Errorf("host a got an approve meant for b: %s", g)
		}
	}

	before := len(a.got) + len(b.got)
	if _, err := cl.Approve(ctx, api.ApproveRequest{TerminalID: "term_zzzzzzzzzzzzzzzzzzzzzzzzzz"}); !api.IsCode(err, api.CodeNotFound) {
		t.Errorf("an unknown id: %v, want not_found", err)
	}
	if n := len(a.got) + len(b.got); n != before {
		t.Errorf("an unknown id reached a host")
	}

	_, err = cl.Cancel(ctx, api.CancelRequest{TurnID: ids.Local("alice@a", "turn_abcdefghijklmnopqrstuvwxyz")})
	if !errors.Is(err, api.ErrNoReply) {
		t.Errorf("a dropped connection: %v, want ErrNoReply", err)
	}
	n := 0
	for _, g := range a.got {
		if strings.HasPrefix(g, "/v1/cancel") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the dropped cancel reached host a %d times, want once", n)
	}
}

// TestTransportEvents: one host's event log, its ids mapped, to its end.
func TestTransportEvents(t *testing.T) {
	a := startDaemonAt(t)
	ids := NewIDs([]byte("test key"))
	cl := api.NewClientOver("test", &Transport{IDs: ids, Hosts: []Host{{Name: "a", RT: SocketRT(a.sock)}}})
	var got []api.Event
	if err := cl.Events(context.Background(), 0, false, func(e api.Event) error { got = append(got, e); return nil }); err != nil {
		t.Fatal(err)
	}
	want := ids.Local("a", "term_abcdefghijklmnopqrstuvwxyz")
	if len(got) != 2 || got[0].TerminalID != want || got[1].Attrs["op"] != "approve" {
		t.Errorf("events %+v, want two of %s", got, want)
	}
}

// TestIDsPersist: an id one client listed maps back in the next.
func TestIDsPersist(t *testing.T) {
	dir := t.TempDir()
	m1, err := OpenIDs(dir)
	if err != nil {
		t.Fatal(err)
	}
	loc := m1.Local("box", "turn_abcdefghijklmnopqrstuvwxyz")
	m2, err := OpenIDs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if h, id, ok := m2.Remote(loc); !ok || h != "box" || id != "turn_abcdefghijklmnopqrstuvwxyz" {
		t.Errorf("the next client maps %s to %s %s %v", loc, h, id, ok)
	}
	if m2.Local("box", "turn_abcdefghijklmnopqrstuvwxyz") != loc {
		t.Error("the same key gives another id")
	}
}
