package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

// ServerOptions tune Serve.
type ServerOptions struct {
	Logger *slog.Logger
	// UID is the only peer uid served (-1: os.Getuid()).
	UID int
}

// Serve answers the API on ln until ctx ends; then it stops accepting,
// ends open event streams and returns nil. It closes ln.
func Serve(ctx context.Context, ln *net.UnixListener, h Handler, opts ServerOptions) error {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	uid := opts.UID
	if uid < 0 {
		uid = os.Getuid()
	}
	pl := &peerListener{UnixListener: ln, uid: uid, refuse: func(peer int, err error) {
		lg.Warn("api: connection refused", "peer_uid", peer, "err", err)
	}}
	srv := &http.Server{
		Handler:           routes(h, lg, uid),
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: 10 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(pl) }()
	select {
	case err := <-done:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("api: serve: %w", err)
	case <-ctx.Done():
	}
	// ctx is every request's base context: streams end with it, so
	// Shutdown only waits for replies in flight.
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	<-done
	return nil
}

// MaxBody bounds a request's body on the unix API. A larger one is
// answered 413, CodeTooLarge, with the limit in the message (not cut
// short and then misread as broken JSON).
const MaxBody = 1 << 20

// CodeTooLarge: the request's body is over its face's limit (HTTP 413).
const CodeTooLarge = "body_too_large"

// readBody reads r's body up to MaxBody; over it, an *Error of
// CodeTooLarge.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, Errorf(CodeTooLarge, "request body exceeds %d bytes", mbe.Limit)
	case err != nil:
		return nil, Errorf(CodeBadRequest, "read body: %v", err)
	}
	return body, nil
}

// routes serves the table (handler.go) and the event stream.
func routes(h Handler, lg *slog.Logger, uid int) http.Handler {
	mux := http.NewServeMux()
	op := func(name string, fn func(ctx context.Context, body []byte) (any, error)) {
		mux.HandleFunc("POST /v1/"+name, func(w http.ResponseWriter, r *http.Request) {
			body, err := readBody(w, r)
			if err != nil {
				writeError(w, err)
				return
			}
			out, err := fn(WithController(r.Context(), controllerOf(r, uid)), body)
			if err != nil {
				lg.Debug("api: op failed", "op", name, "err", err)
				writeError(w, err)
				return
			}
			writeJSON(w, http.StatusOK, out)
		})
	}
	for _, rt := range table(h) {
		op(rt.op, rt.fn)
	}
	mux.HandleFunc("GET /v1/events", func(w http.ResponseWriter, r *http.Request) {
		serveEvents(w, r.WithContext(WithController(r.Context(), controllerOf(r, uid))), h)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, Errorf(CodeNoOp, "%s %s is not an operation of this akk", r.Method, r.URL.Path))
	})
	return mux
}

func serveEvents(w http.ResponseWriter, r *http.Request, h Handler) {
	q := r.URL.Query()
	var after uint64
	if s := q.Get("after"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			writeError(w, Errorf(CodeBadRequest, "after=%q: want a sequence number", s))
			return
		}
		after = n
	}
	follow := q.Get("follow") == "1"
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	if fl != nil {
		fl.Flush() // the follower knows at once that it is connected
	}
	enc := json.NewEncoder(w)
	_ = h.Events(r.Context(), after, follow, func(e Event) error {
		if err := enc.Encode(e); err != nil {
			return err
		}
		if fl != nil {
			fl.Flush()
		}
		return nil
	})
}

func decodeBody(body []byte, v any) error {
	if len(body) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return Errorf(CodeBadRequest, "body: %v", err)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Code: CodeInternal, Message: err.Error()}
	}
	status := http.StatusInternalServerError
	switch e.Code {
	case CodeNotFound, CodeNoOp:
		status = http.StatusNotFound
	case CodeBadRequest:
		status = http.StatusBadRequest
	case CodeForbidden:
		status = http.StatusForbidden
	case CodeTooLarge:
		status = http.StatusRequestEntityTooLarge
	}
	writeJSON(w, status, errorBody{Error: e})
}
