package fakemodel

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Server is a fake model API listening on 127.0.0.1.
type Server struct {
	Log *Log
	ln  net.Listener
	srv *http.Server
	url string
}

// start listens on 127.0.0.1 (port 0: any free port) and serves h.
func start(h http.Handler, port int, lg *slog.Logger) (*Server, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("fakemodel: listen: %w", err)
	}
	s := &Server{ln: ln, url: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if lg != nil {
		s.srv.ErrorLog = slog.NewLogLogger(lg.Handler(), slog.LevelWarn)
	}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && lg != nil {
			lg.Warn("fakemodel: serve", "err", err)
		}
	}()
	return s, nil
}

// api is what every fake API holds: the Script's replies and the log its
// requests go to.
type api struct {
	choose *chooser
	log    *Log
}

// answerer is one fake API: it answers a request that logged has read and
// recorded as seq, and marks seq done.
type answerer interface {
	answer(w http.ResponseWriter, r *http.Request, seq int, body []byte)
}

// serve starts a on any free port, every request read and logged first
// (a body that cannot be read is refused here, for every API alike).
func serve(a answerer, log *Log, lg *slog.Logger) (*Server, error) {
	s, err := start(logged{a: a, log: log}, 0, lg)
	if err != nil {
		return nil, err
	}
	s.Log = log
	return s, nil
}

// logged is the http.Handler in front of an answerer.
type logged struct {
	a   answerer
	log *Log
}

func (l logged) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, seq, err := l.log.begin(r)
	if err != nil {
		l.log.done(seq, nil)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	l.a.answer(w, r, seq, body)
}

// URL is the server's base URL, http://127.0.0.1:PORT.
func (s *Server) URL() string { return s.url }

// Port is the port it listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Close stops the server, cutting open streams.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		return s.srv.Close()
	}
	return nil
}

// readBody reads a request body, gunzipping it when it says so.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("fakemodel: read body: %w", err)
	}
	switch r.Header.Get("Content-Encoding") {
	case "", "identity":
		return b, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("fakemodel: gzip body: %w", err)
		}
		return io.ReadAll(zr)
	default:
		return nil, fmt.Errorf("fakemodel: unsupported content encoding %q", r.Header.Get("Content-Encoding"))
	}
}

// sse writes server-sent events and flushes each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

func (s *sse) event(name string, data []byte) {
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, data)
	if s.f != nil {
		s.f.Flush()
	}
}

// data writes one unnamed event (the Gemini API's "data: {json}" lines).
func (s *sse) data(b []byte) {
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if s.f != nil {
		s.f.Flush()
	}
}

// sleep waits d or until ctx ends; it reports whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// words splits text after each space, keeping the spaces.
func words(text string) []string {
	var out []string
	for len(text) > 0 {
		i := bytes.IndexByte([]byte(text), ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}
