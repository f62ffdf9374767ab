// Package hooktest gives tests the far side of a callback route: a real
// HTTP receiver on 127.0.0.1 that logs every raw request and answers as
// the test says, and command-route scripts.
package hooktest

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
)

// Receiver is a webhook receiver owned by one test (closed in Cleanup).
type Receiver struct {
	URL  string
	srv  *http.Server
	mu   sync.Mutex
	reqs []Request
	// answer decides the status for the n-th request (0-based) and how
	// long to hold it before answering.
	answer func(n int, req Request) (status int, hold time.Duration)
	log    *os.File // every raw request, one JSON line each
}

// Request is one request as the receiver got it.
type Request struct {
	Key  string          `json:"key"` // the Idempotency-Key header
	Body json.RawMessage `json:"body"`
	At   time.Time       `json:"at"`
}

// Start starts a receiver. logPath, if set, gets every request as a JSON
// line (appended: a crash test's child processes share one log); answer
// nil answers 200 at once.
func Start(t testing.TB, logPath string, answer func(n int, req Request) (status int, hold time.Duration)) *Receiver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Receiver{URL: "http://" + ln.Addr().String() + "/hook", answer: answer}
	if logPath != "" {
		if r.log, err = os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r.srv = &http.Server{Handler: http.HandlerFunc(r.serve)}
	go r.srv.Serve(ln)
	t.Cleanup(func() {
		r.srv.Close()
		if r.log != nil {
			r.log.Close()
		}
	})
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	rr := Request{Key: req.Header.Get("Idempotency-Key"), Body: body, At: time.Now()}
	r.mu.Lock()
	n := len(r.reqs)
	r.reqs = append(r.reqs, rr)
	if r.log != nil {
		line, _ := json.Marshal(rr)
		r.log.Write(append(line, '\n'))
	}
	r.mu.Unlock()
	status, hold := 200, time.Duration(0)
	if r.answer != nil {
		status, hold = r.answer(n, rr)
	}
	if hold > 0 {
		select {
		case <-time.After(hold):
		case <-req.Context().Done():
			return
		}
	}
	w.WriteHeader(status)
}

// Requests returns every request so far.
func (r *Receiver) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.reqs...)
}

// Script writes an executable /bin/sh script with body (a command route).
func Script(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "route.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// AwaitFinal waits until notification id reaches a final state in st (or
// retryable with its attempts exhausted) and returns it.
func AwaitFinal(t testing.TB, st *store.Store, id string, within time.Duration) store.Notification {
	t.Helper()
	var n store.Notification
	tmuxtest.Await(t, within, func() string {
		var err error
		if n, err = st.Notification(id); err != nil {
			return err.Error()
		}
		if !n.Final() {
			return "state " + n.State
		}
		return ""
	})
	return n
}
