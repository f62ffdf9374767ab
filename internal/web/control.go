package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// The control socket: how `akk web sessions` lists and revokes the
// paired browsers of a running `akk web`.
//
// Sessions live in akk web's memory (a restart unpairs every browser, and
// no cookie hash or CSRF token is ever on disk), so the command must reach
// that process. It does so through a unix socket of its own beside the
// daemon's, in the same private directory: ControlPath, created with
// api.Listen (the directory made or checked as the daemon's is, never
// through a symbolic link; the socket 0600), served only to peers of akk
// web's own uid (api.OwnerOnly: SO_PEERCRED), and dialled with
// api.DialOwned (the directory, the socket's owner and the server's uid
// checked before a byte is sent). One socket per listening port, so that
// two akk web on two ports each have theirs. A file of sessions that akk
// web re-reads was the other design; it would put the sessions on disk
// and race a revocation with requests in flight, for no gain.
//
// Two operations, JSON over HTTP: GET /v1/sessions lists them (id, user
// agent, paired, last seen, expiry: never a cookie or a CSRF token), POST
// /v1/revoke {"id"} ends one.

// ControlPath is the control socket of the akk web listening on port,
// in dir (the daemon socket's directory).
func ControlPath(dir, port string) string { return filepath.Join(dir, "web-"+port+".sock") }

// ErrNoSession: no paired browser has that id.
var ErrNoSession = errors.New("web: no such session")

// ServeControl answers the control socket's operations on ln until ctx
// ends. ln is the caller's (api.Listen, then api.OwnerOnly).
func ServeControl(ctx context.Context, ln net.Listener, sess *Sessions) error {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/sessions", func(w http.ResponseWriter, r *http.Request) {
		writeControl(w, http.StatusOK, sess.List())
	})
	mux.HandleFunc("POST /v1/revoke", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID string `json:"id"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 4<<10)).Decode(&req); err != nil {
			writeControl(w, http.StatusBadRequest, map[string]string{"error": "want {\"id\": SESSION}"})
			return
		}
		if !sess.Revoke(req.ID) {
			writeControl(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("no paired browser has the id %q", req.ID)})
			return
		}
		writeControl(w, http.StatusOK, map[string]string{"revoked": req.ID})
	})
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("web: control socket: %w", err)
	}
	return nil
}

func writeControl(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// ListSessions asks the akk web whose control socket is at path.
func ListSessions(ctx context.Context, path string) ([]SessionInfo, error) {
	var out []SessionInfo
	return out, control(ctx, path, http.MethodGet, "sessions", nil, &out)
}

// RevokeSession ends one paired browser of the akk web at path; an
// unknown id is ErrNoSession.
func RevokeSession(ctx context.Context, path, id string) error {
	body, _ := json.Marshal(map[string]string{"id": id})
	return control(ctx, path, http.MethodPost, "revoke", body, nil)
}

func control(ctx context.Context, path, method, op string, body []byte, out any) error {
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return api.DialOwned(ctx, path)
	}}}
	defer hc.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, method, "http://akk-web/v1/"+op, strings.NewReader(string(body)))
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is akk's own: the reason is what counts
		}
		return fmt.Errorf("web: the control socket %s (is akk web running for this daemon and port?): %w", path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("web: control socket: %w", err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%w: %s", ErrNoSession, strings.TrimSpace(string(data)))
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("web: control socket: HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(data)))
	case out == nil:
		return nil
	}
	return json.Unmarshal(data, out)
}
