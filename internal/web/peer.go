package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"

	"github.com/agent-knock-knock/akk/internal/procid"
)

// The peer check (DESIGN invariant 10; the security review's finding 3).
// akk web listens on loopback TCP, which any local user may reach, and
// its cookie was the only barrier: a stolen cookie worked from any uid.
// Now a connection is served only when the process at its other end runs
// as akk web's own uid, or as a uid the configuration names as a tunnel
// (web.allow_uids): a tunnel's process is the peer of every request it
// forwards (tailscaled often runs as root, cloudflared as its own user;
// an `ssh -L` forward runs as the user who ran ssh). The uid is the
// kernel's record of the peer's socket (/proc/net/tcp, procid.TCPPeerUID,
// as `akk mcp --http` checks); a connection whose socket cannot be found
// is refused too. The refusal names the peer's uid and the configuration
// line that would allow it, so that a phone behind a tunnel of another
// uid gets an explanation, not a blank page.

type peerKey struct{}

type peer struct {
	uid int
	err error
}

// ConnContext is the http.Server's ConnContext of `akk web`: it looks the
// peer's uid up once, when the connection is accepted (its socket is
// live then), for every request of the connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, peerKey{}, lookupPeer(c))
}

func lookupPeer(c net.Conn) peer {
	uid, err := procid.ConnPeerUID(c)
	if err != nil {
		return peer{uid: -1, err: err}
	}
	return peer{uid: uid}
}

// connPeerUID is the uid ConnContext found for r's connection.
func connPeerUID(r *http.Request) (int, error) {
	p, ok := r.Context().Value(peerKey{}).(peer)
	if !ok {
		return -1, errors.New("the connection's peer was not looked up (no ConnContext)")
	}
	return p.uid, p.err
}

// peerRefusal is why r's peer may not use the page ("" : it may).
func (s *Server) peerRefusal(r *http.Request) (string, int) {
	uid, err := s.peerUID(r)
	switch {
	case err != nil:
		s.lg.Warn("web: refused a connection whose owner is unknown", "err", err)
		return "akk web: the owner of this connection is unknown (" + err.Error() + "), so it is refused.\n", -1
	case uid == s.uid || slices.Contains(s.allowUIDs, uid):
		return "", uid
	}
	line := fmt.Sprintf("[web]\nallow_uids = [%d]", uid)
	s.lg.Warn("web: refused a connection of another uid", "peer_uid", uid, "own_uid", s.uid,
		"allow_with", fmt.Sprintf("allow_uids = [%d] under [web] in %s", uid, s.configPath))
	return fmt.Sprintf(`akk web: a connection from uid %d is refused.

akk web serves its own user (uid %d) and the tunnels named in its
configuration. If uid %d is the tunnel you reach this page through
(tailscaled often runs as root, uid 0; cloudflared or another tunnel
daemon as its own user; an ssh -L forward as the user who runs ssh),
allow it in %s:

%s

and restart akk web. Every process of that uid may then connect (the
pairing cookie still guards the page).
`, uid, s.uid, uid, s.configPath, line), uid
}

// ownUID is akk web's own uid.
func ownUID() int { return os.Getuid() }
