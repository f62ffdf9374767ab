package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
)

// ErrNoToken: ServeHTTP was given no bearer token (Options.Token).
var ErrNoToken = errors.New("mcpserver: HTTP needs a bearer token")

// ServeHTTP serves streamable HTTP on ln until ctx ends. The tools act
// with the daemon owner's authority, so this face is as strict as the
// unix socket (DESIGN invariant 10), and each check fails closed:
//   - ln must be a loopback listener, and Options.Token set;
//   - every connection's other end must be a socket of this process's uid
//     (api.OwnerOnlyTCP with Options.PeerUID: the peer's row in
//     /proc/net/tcp; without PeerUID every connection is refused); another uid, or
//     a socket that cannot be found, gets 403 and the connection closes;
//   - every request must name a loopback Host (a DNS-rebound name is not)
//     and, if it has an Origin, a loopback one (a web page of another
//     site is not): else 403;
//   - and carry `Authorization: Bearer <token>`: else 401.
//
// The bearer header is the CSRF protection too: a browser sends no
// Authorization header of its own, and no page may set one cross-origin
// without a CORS preflight, which this server never grants.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener) error {
	if !isLoopback(ln.Addr()) {
		ln.Close()
		return fmt.Errorf("mcpserver: %s is not a loopback address", ln.Addr())
	}
	if s.opts.Token.IsZero() {
		ln.Close()
		return ErrNoToken
	}
	ln = api.OwnerOnlyTCP(ln, os.Getuid(), s.opts.PeerUID, func(peer int, err error) {
		s.lg.Warn("mcp http: connection refused", "peer_uid", peer, "reason", err)
	})
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.FollowEvents(ctx)
	defer s.closeSessions()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv },
		&mcp.StreamableHTTPOptions{Logger: s.lg, MaxRequestBodyBytes: MaxBody})
	hs := &http.Server{Handler: s.guard(h), BaseContext: func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("mcpserver: http: %w", err)
	case <-ctx.Done():
	}
	hs.Close()
	<-done
	return nil
}

// MaxBody bounds an HTTP request's body: a larger one is answered 413
// "request body exceeds 4194304 bytes" (the SDK's answer, its default
// limit named here so that it is akk's).
const MaxBody = 4 << 20

// The bodies of refused requests: what to fix, never what was sent.
const (
	msgHost   = "akk mcp: the Host header must name a loopback address (127.0.0.1, [::1] or localhost)"
	msgOrigin = "akk mcp: requests from a web page are refused unless its origin is a loopback address"
	msgToken  = "akk mcp: this server needs the header Authorization: Bearer <token>; `akk mcp --print-token` prints the token"
)

// guard is what every request must show before MCP sees it (ServeHTTP).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			s.deny(w, http.StatusForbidden, "host", msgHost)
			return
		}
		if origins := r.Header.Values("Origin"); len(origins) > 1 || len(origins) == 1 && !loopbackOrigin(origins[0]) {
			s.deny(w, http.StatusForbidden, "origin", msgOrigin)
			return
		}
		presented, ok := bearer(r.Header.Get("Authorization"))
		if !s.opts.Token.Matches(presented) {
			challenge := `Bearer realm="akk mcp"`
			if ok {
				challenge += `, error="invalid_token"`
			}
			w.Header().Set("WWW-Authenticate", challenge)
			s.deny(w, http.StatusUnauthorized, "token", msgToken)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// deny answers a refused request. The log says which check refused it,
// never the header's value.
func (s *Server) deny(w http.ResponseWriter, code int, check, msg string) {
	s.lg.Warn("mcp http: request refused", "check", check, "status", code)
	http.Error(w, msg, code)
}

// bearer is the token of an `Authorization: Bearer <token>` header (the
// scheme is case-insensitive, RFC 6750 and 9110); ok says there was one.
func bearer(h string) (token string, ok bool) {
	scheme, tok, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// loopbackHost: host[:port] names a loopback address (127.0.0.0/8, ::1,
// IPv4-mapped loopback) or localhost. A name that resolves to loopback
// today is not enough: that is what DNS rebinding exploits.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.Unmap().IsLoopback()
}

// loopbackOrigin: an Origin header (scheme://host[:port]) of a loopback
// host. "null" (a sandboxed or file: page) is not.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil {
		return false
	}
	return loopbackHost(u.Host)
}

func isLoopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}
