package fakemodel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// Request is one logged request.
type Request struct {
	Seq    int       `json:"seq"`
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Kind   string    `json:"kind,omitempty"`   // main, side, title, other
	Choice string    `json:"choice,omitempty"` // how the reply was chosen
	Prompt string    `json:"prompt,omitempty"` // latest user prompt text (main requests)
	Tool   string    `json:"tool,omitempty"`   // tool called by the reply
	// Auth is how the request authenticated (authOf): "api_key",
	// "oauth" (a subscription's token), "bearer" or "".
	// The credential itself is never logged.
	Auth string `json:"auth,omitempty"`
	// Status is the HTTP status of a scripted API error (Failure), else 0.
	Status int             `json:"status,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"`
	// Done: the response was written to its end.
	Done bool `json:"done"`

	// ToolInput is the input the reply gave its tool.
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
}

// Log keeps every request in memory, appends each as a JSON line to an
// optional writer when it is done, and lets a driver wait for one.
type Log struct {
	mu      sync.Mutex
	reqs    []Request
	changed chan struct{}
	w       io.Writer
	werr    error
}

// NewLog returns a log that also writes to w (nil: memory only).
func NewLog(w io.Writer) *Log {
	return &Log{changed: make(chan struct{}), w: w}
}

// begin reads r's body and records the request as being answered (its
// body when it is JSON, how it authenticated): what every fake server
// does first. err is the body's read error, recorded all the same.
func (l *Log) begin(r *http.Request) (body []byte, seq int, err error) {
	body, err = readBody(r)
	req := Request{Time: time.Now(), Method: r.Method, Path: r.URL.Path, Kind: "other", Auth: authOf(r.Header)}
	if json.Valid(body) {
		req.Body = body
	}
	return body, l.add(req), err
}

// fixed answers request seq with a canned JSON body and marks it done: the
// replies no Script chooses (token counts, model lists, errors).
func (l *Log) fixed(w http.ResponseWriter, seq, status int, body string) {
	l.done(seq, nil)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// add records a request that is being answered and returns its seq.
func (l *Log) add(r Request) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	r.Seq = len(l.reqs) + 1
	l.reqs = append(l.reqs, r)
	l.wake()
	return r.Seq
}

// done marks request seq answered (with its final fields) and writes it.
func (l *Log) done(seq int, update func(*Request)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := &l.reqs[seq-1]
	if update != nil {
		update(r)
	}
	r.Done = true
	if l.w != nil && l.werr == nil {
		b, _ := json.Marshal(r)
		_, l.werr = l.w.Write(append(b, '\n'))
	}
	l.wake()
}

func (l *Log) wake() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// Requests returns a copy of every request so far.
func (l *Log) Requests() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Request(nil), l.reqs...)
}

// Wait waits until a request after the first `after` ones matches ok, and
// returns it with its position (so the next wait can start after it).
func (l *Log) Wait(ctx context.Context, after int, ok func(Request) bool) (Request, int, error) {
	for {
		l.mu.Lock()
		for i := after; i < len(l.reqs); i++ {
			if ok(l.reqs[i]) {
				r := l.reqs[i]
				l.mu.Unlock()
				return r, i + 1, nil
			}
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return Request{}, after, fmt.Errorf("fakemodel: waiting for a request: %w", context.Cause(ctx))
		}
	}
}

// Len is the number of requests so far.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

// Main matches a main-loop request whose response was written in full.
func Main(r Request) bool { return r.Kind == "main" && r.Done }

// logTool records the tool call a reply makes, if any.
func logTool(q *Request, r Reply) {
	if r.Tool == nil {
		return
	}
	q.Tool = r.Tool.Name
	if b, err := json.Marshal(r.Tool.Input); err == nil {
		q.ToolInput = b
	}
}
