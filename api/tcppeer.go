package api

import (
	"fmt"
	"net"
)

// PeerLookup says which uid owns the socket at the other end of a
// connection. TCP carries no peer credentials, but on loopback both ends
// are in this host's socket tables (/proc/net/tcp and tcp6), where the
// kernel records each socket's owner: procid.ConnPeerUID reads them. api
// imports nothing of akk but the contract (a client links no /proc
// reader), so the daemon's side hands the lookup in.
type PeerLookup func(c net.Conn) (int, error)

// OwnerOnlyTCP wraps a loopback TCP listener so that it accepts only
// connections whose other end is a socket owned by uid: the TCP face's
// counterpart of the unix socket's SO_PEERCRED check. A connection from
// another uid, or one whose socket lookup cannot find (it closed, or the
// tables do not read as expected; or lookup is nil), is answered 403 and
// closed before the HTTP server sees it: the check fails closed. refused
// (may be nil) is told the peer uid (-1 if unknown) and why, to log.
func OwnerOnlyTCP(ln net.Listener, uid int, lookup PeerLookup, refused func(peer int, err error)) net.Listener {
	return &tcpOwnerListener{Listener: ln, uid: uid, lookup: lookup, refused: refused}
}

type tcpOwnerListener struct {
	net.Listener
	uid     int
	lookup  PeerLookup
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
		peer, err := l.peerUID(c)
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

func (l *tcpOwnerListener) peerUID(c net.Conn) (int, error) {
	if l.lookup == nil {
		return -1, fmt.Errorf("%w: no way to look the peer up", errPeer)
	}
	uid, err := l.lookup(c)
	if err != nil {
		return -1, fmt.Errorf("%w: %w", errPeer, err)
	}
	return uid, nil
}
