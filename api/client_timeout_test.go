package api

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// TestClientTimeout: a daemon that takes a request and never answers
// (a stuck tmux behind it) ends the call at the client's deadline: an act
// as ErrNoReply (it may have been carried out: uncertain, never resent),
// and a look with the deadline named. A refused connection is not a
// reply lost.
func TestClientTimeout(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "akk.sock")
	if err := PrivateDir(filepath.Dir(sock)); err != nil { // t.TempDir's own is 0755
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{}, 4)
	release := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- struct{}{}
		<-release // never answers while the test runs
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { close(release); srv.Close() })

	cl := NewClient(sock)
	defer cl.Close()
	cl.SetTimeout(200 * time.Millisecond)
	_, err = cl.Approve(context.Background(), ApproveRequest{TerminalID: "term_x"})
	if !errors.Is(err, ErrNoReply) {
		t.Fatalf("approve with no answer: %v, want ErrNoReply", err)
	}
	select {
	case <-got:
	default:
		t.Fatal("the request never reached the daemon")
	}
	if _, err := cl.List(context.Background()); err == nil || !errors.Is(err, ErrNoReply) {
		t.Fatalf("list with no answer: %v", err)
	}
	// The caller's own cancellation is not the deadline's message.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cl.List(ctx); err == nil || errors.Is(err, ErrNoReply) {
		t.Fatalf("list on a cancelled context: %v", err)
	}
}
