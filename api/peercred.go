package api

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

// PeerUID returns the uid of the process at the other end of a unix
// socket connection (SO_PEERCRED: the kernel's record from connect time,
// which the peer cannot forge).
func PeerUID(c net.Conn) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1, fmt.Errorf("api: peer credentials: %T is not a unix connection", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, fmt.Errorf("api: peer credentials: %w", err)
	}
	var cred *syscall.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return -1, fmt.Errorf("api: peer credentials: %w", err)
	}
	if serr != nil {
		return -1, fmt.Errorf("api: peer credentials: %w", serr)
	}
	return int(cred.Uid), nil
}

// OwnerOnly wraps a unix listener so that it accepts only connections
// whose peer uid is uid (SO_PEERCRED), as Serve does: any other gets a
// 403 and is closed before an HTTP server sees it. refused (may be nil)
// is told the peer's uid and why, to log. For a private socket of akk's
// other than the API's (`akk web`'s control socket).
func OwnerOnly(ln *net.UnixListener, uid int, refused func(peer int, err error)) net.Listener {
	return &peerListener{UnixListener: ln, uid: uid, refuse: refused}
}

// errPeer: a connection from another uid (or one whose uid is unknown).
var errPeer = errors.New("api: peer refused")

// peerListener accepts only connections whose peer uid is uid. Others get
// a 403 reply and are closed before the HTTP server sees them.
type peerListener struct {
	*net.UnixListener
	uid    int
	refuse func(peer int, err error)
}

func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.UnixListener.Accept()
		if err != nil {
			return nil, err
		}
		peer, err := PeerUID(c)
		if err == nil && peer == l.uid {
			return c, nil
		}
		if l.refuse != nil {
			l.refuse(peer, err)
		}
		go refuse(c, fmt.Sprintf("uid %d may not use this akk daemon", peer))
	}
}

// refuse answers one 403 and closes, so that a refused client gets a
// readable error instead of a reset.
func refuse(c net.Conn, message string) {
	defer c.Close()
	// Read the request head first: a reply written before the client has
	// written its request would give it a broken pipe, not the reason.
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	br := bufio.NewReaderSize(io.LimitReader(c, 64<<10), 4096)
	for {
		line, err := br.ReadString('\n')
		if err != nil || line == "\r\n" || line == "\n" {
			break
		}
	}
	body := fmt.Sprintf(`{"error":{"code":%q,"message":%q}}`, CodeForbidden, message)
	fmt.Fprintf(c, "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
	// Then a lingering close, as net/http's own: closing with the
	// request's body unread would reset a TCP connection, and the reset
	// can reach the client before it has read the reply.
	if cw, ok := c.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(c, 256<<10))
	}
}
