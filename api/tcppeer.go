package api

import (
	"fmt"
	"net"

	"github.com/agent-knock-knock/akk/internal/procid"
)

// OwnerOnlyTCP wraps a loopback TCP listener so that it accepts only
// connections whose other end is a socket owned by uid: the TCP face's
// counterpart of the unix socket's SO_PEERCRED check. TCP carries no peer
// credentials, but on loopback both ends are in this host's socket tables
// (/proc/net/tcp and tcp6, procid.TCPPeerUID), where the kernel records
// each socket's owner. A connection from another uid, or one whose socket
// cannot be found (it closed, or the tables do not read as expected), is
// answered 403 and closed before the HTTP server sees it: the check fails
// closed. refused (may be nil) is told the peer uid (-1 if unknown) and
// why, to log.
func OwnerOnlyTCP(ln net.Listener, uid int, refused func(peer int, err error)) net.Listener {
	return &tcpOwnerListener{Listener: ln, uid: uid, refused: refused}
}

type tcpOwnerListener struct {
	net.Listener
	uid     int
	refused func(peer int, err error)
}

// errOtherUID: the peer's socket belongs to another uid.
var errOtherUID = fmt.Errorf("%w: another uid", errPeer)

func (l *tcpOwnerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		peer, err := tcpPeerUID(c)
		if err == nil && peer == l.uid {
			return c, nil
		}
		if err == nil {
			err = errOtherUID
		}
		if l.refused != nil {
			l.refused(peer, err)
		}
		msg := "the owner of this connection is unknown: it may not use this akk daemon"
		if peer >= 0 {
			msg = fmt.Sprintf("uid %d may not use this akk daemon", peer)
		}
		go refuse(c, msg)
	}
}

func tcpPeerUID(c net.Conn) (int, error) {
	local, ok1 := c.LocalAddr().(*net.TCPAddr)
	remote, ok2 := c.RemoteAddr().(*net.TCPAddr)
	if !ok1 || !ok2 {
		return -1, fmt.Errorf("%w: %T is not a TCP connection", errPeer, c)
	}
	uid, err := procid.TCPPeerUID(local, remote)
	if err != nil {
		return -1, fmt.Errorf("%w: %w", errPeer, err)
	}
	return uid, nil
}
