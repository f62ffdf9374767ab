package procid

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/netip"
	"os"
	"path/filepath"
)

// /proc/net/tcp and /proc/net/tcp6 (net/ipv4/tcp_ipv4.c get_tcp4_sock,
// net/ipv6/tcp_ipv6.c get_tcp6_sock) are one header line and then one
// line per socket of this network namespace:
//
//	  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ...
//	   5: 0100007F:8DF2 0100007F:E6E1 01 00000000:00000000 00:00000000 00000000 65534        0 3398074 2 ...
//
// An address is the 32-bit words of the address in network byte order,
// each printed with %08X as the host loads it (on a little-endian host
// 127.0.0.1 is 0100007F; an IPv6 address is four such words), a colon and
// the port in %04X. uid is the socket inode's owner (from_kuid_munged);
// inode is 0 for a socket no process holds (TIME_WAIT, orphans). Columns
// after inode differ by state (a TIME_WAIT row has two, a full socket
// seven) and newer kernels may add more: they are not read.

// TCPState is the st column (include/net/tcp_states.h).
type TCPState uint8

// The states TCPPeerUID tells apart.
const (
	TCPEstablished TCPState = 0x01
	TCPTimeWait    TCPState = 0x06
	TCPListen      TCPState = 0x0A
)

// TCPRow is one socket of /proc/net/tcp or /proc/net/tcp6. The addresses
// are as the kernel prints them: 4 bytes in tcp, 16 in tcp6 (an IPv4
// peer of a dual-stack socket is IPv4-mapped there).
type TCPRow struct {
	Local, Remote netip.AddrPort
	State         TCPState
	UID           int
	Inode         uint64
}

// Errors of TCPPeerUID.
var (
	// ErrNoTCPPeer: no live socket in /proc/net/tcp{,6} has the peer's
	// addresses (it has closed, or it is not in this network namespace).
	ErrNoTCPPeer = errors.New("procid: no socket in /proc/net/tcp for the peer")
	// ErrAmbiguousTCPPeer: two live sockets with the peer's addresses
	// have different owners.
	ErrAmbiguousTCPPeer = errors.New("procid: sockets of different uids have the peer's addresses")
)

// The table's states: the header comes first, then rows to the end.
type tableState uint8

const (
	stHeader tableState = iota
	stRows
)

// ScanTCPTable calls row for each socket of a /proc/net/tcp or tcp6 table
// until it returns false. A table that does not read as the kernel writes
// it is ErrSyntax, with the line number; nothing in b makes it panic.
func ScanTCPTable(b []byte, row func(TCPRow) bool) error {
	st := stHeader
	for n := 1; len(b) > 0; n++ {
		var line []byte
		line, b = cutLine(b)
		if isBlank(line) {
			continue
		}
		switch st {
		case stHeader:
			if !isTCPHeader(line) {
				return fmt.Errorf("%w: /proc/net/tcp line %d: not the header", ErrSyntax, n)
			}
			st = stRows
		case stRows:
			r, err := parseTCPRow(line)
			if err != nil {
				return fmt.Errorf("%w: /proc/net/tcp line %d: %v", ErrSyntax, n, err)
			}
			if !row(r) {
				return nil
			}
		}
	}
	if st == stHeader {
		return fmt.Errorf("%w: /proc/net/tcp: no header", ErrSyntax)
	}
	return nil
}

// ParseTCPTable returns every socket of a /proc/net/tcp or tcp6 table.
func ParseTCPTable(b []byte) ([]TCPRow, error) {
	var rows []TCPRow
	err := ScanTCPTable(b, func(r TCPRow) bool { rows = append(rows, r); return true })
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// TCPPeerUID returns the uid that owns the other end of a TCP connection
// this process accepted on a loopback address: local and remote are the
// accepted connection's LocalAddr and RemoteAddr. The peer's socket is
// the row whose local address is remote and whose remote address is local,
// in /proc/net/tcp or /proc/net/tcp6 (an IPv4 peer may be either: a v6
// socket connected to ::ffff:127.0.0.1 is in tcp6). Only loopback peers
// are in this host's tables; any other is ErrNoTCPPeer.
func TCPPeerUID(local, remote *net.TCPAddr) (int, error) {
	if local == nil || remote == nil {
		return -1, fmt.Errorf("%w: no address", ErrNoTCPPeer)
	}
	var tables [][]byte
	for _, name := range []string{"net/tcp", "net/tcp6"} {
		b, err := os.ReadFile(filepath.Join(procRoot, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a kernel without IPv6
		}
		if err != nil {
			return -1, fmt.Errorf("procid: %w", err)
		}
		tables = append(tables, b)
	}
	return PeerUIDIn(tables, local.AddrPort(), remote.AddrPort())
}

// PeerUIDIn is TCPPeerUID over tables already read. A row counts only
// while a process holds its socket (inode not 0, not TIME_WAIT or LISTEN);
// if none does the answer is ErrNoTCPPeer, never a guess.
func PeerUIDIn(tables [][]byte, local, remote netip.AddrPort) (int, error) {
	local, remote = plainAddrPort(local), plainAddrPort(remote)
	uid, found := -1, false
	var ambiguous bool
	for _, t := range tables {
		err := ScanTCPTable(t, func(r TCPRow) bool {
			if r.Inode == 0 || r.State == TCPTimeWait || r.State == TCPListen ||
				plainAddrPort(r.Local) != remote || plainAddrPort(r.Remote) != local {
				return true
			}
			if found && r.UID != uid {
				ambiguous = true
				return false
			}
			uid, found = r.UID, true
			return true
		})
		if err != nil {
			return -1, err
		}
		if ambiguous {
			return -1, ErrAmbiguousTCPPeer
		}
	}
	if !found {
		return -1, fmt.Errorf("%w: %s -> %s", ErrNoTCPPeer, remote, local)
	}
	return uid, nil
}

// plainAddrPort compares as the kernel's rows do: IPv4-mapped IPv6 as
// IPv4, and no zone (the tables have none).
func plainAddrPort(ap netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(ap.Addr().Unmap().WithZone(""), ap.Port())
}

// tcpColumns are a row's columns in order, each with the check of its
// text and, for the ones TCPPeerUID reads, where it goes. A row may have
// more columns (state-dependent, or added by a newer kernel); it may not
// have fewer.
var tcpColumns = [...]struct {
	name  string
	parse func(r *TCPRow, f []byte) bool
}{
	{"sl", func(_ *TCPRow, f []byte) bool {
		return len(f) > 1 && f[len(f)-1] == ':' && isDecimal(f[:len(f)-1])
	}},
	{"local_address", func(r *TCPRow, f []byte) (ok bool) { r.Local, ok = parseTCPAddr(f); return ok }},
	{"rem_address", func(r *TCPRow, f []byte) (ok bool) { r.Remote, ok = parseTCPAddr(f); return ok }},
	{"st", func(r *TCPRow, f []byte) bool {
		v, ok := parseHex(f, 2)
		r.State = TCPState(v)
		return ok && len(f) == 2
	}},
	{"tx_queue:rx_queue", isHexPair},
	{"tr:tm->when", isHexPair},
	{"retrnsmt", func(_ *TCPRow, f []byte) bool { _, ok := parseHex(f, 8); return ok }},
	{"uid", func(r *TCPRow, f []byte) bool {
		v, ok := parseDecimal(f, 1<<32-1)
		r.UID = int(v)
		return ok
	}},
	{"timeout", func(_ *TCPRow, f []byte) bool {
		if len(f) > 0 && f[0] == '-' {
			f = f[1:]
		}
		return isDecimal(f)
	}},
	{"inode", func(r *TCPRow, f []byte) (ok bool) { r.Inode, ok = parseDecimal(f, 1<<64-1); return ok }},
}

// parseTCPRow reads a row's columns left to right.
func parseTCPRow(line []byte) (TCPRow, error) {
	var r TCPRow
	for _, col := range tcpColumns {
		var f []byte
		f, line = nextField(line)
		if len(f) == 0 {
			return TCPRow{}, fmt.Errorf("no %s column", col.name)
		}
		if !col.parse(&r, f) {
			return TCPRow{}, fmt.Errorf("%s %q", col.name, clip(f))
		}
	}
	return r, nil
}

// parseTCPAddr reads ADDR:PORT: 8 hex digits (IPv4) or 32 (IPv6), each
// 8 a 32-bit word in host byte order, then a 4-digit port.
func parseTCPAddr(f []byte) (netip.AddrPort, bool) {
	if len(f) != 8+1+4 && len(f) != 32+1+4 {
		return netip.AddrPort{}, false
	}
	addr, port := f[:len(f)-5], f[len(f)-4:]
	if f[len(f)-5] != ':' {
		return netip.AddrPort{}, false
	}
	p, ok := parseHex(port, 4)
	if !ok || len(port) != 4 {
		return netip.AddrPort{}, false
	}
	var ip [16]byte
	for i := 0; i < len(addr)/8; i++ {
		w, ok := parseHex(addr[8*i:8*i+8], 8)
		if !ok {
			return netip.AddrPort{}, false
		}
		binary.NativeEndian.PutUint32(ip[4*i:], uint32(w))
	}
	if len(addr) == 8 {
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte(ip[:4])), uint16(p)), true
	}
	return netip.AddrPortFrom(netip.AddrFrom16(ip), uint16(p)), true
}

// isHexPair checks HEX:HEX (the queue and timer columns).
func isHexPair(_ *TCPRow, f []byte) bool {
	for i, c := range f {
		if c == ':' {
			_, ok1 := parseHex(f[:i], 16)
			_, ok2 := parseHex(f[i+1:], 16)
			return ok1 && ok2
		}
	}
	return false
}

// parseHex reads 1 to max hex digits (either case).
func parseHex(f []byte, max int) (uint64, bool) {
	if len(f) == 0 || len(f) > max || len(f) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range f {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		default:
			return 0, false
		}
		v = v<<4 | uint64(d)
	}
	return v, true
}

// parseDecimal reads an unsigned decimal no larger than max.
func parseDecimal(f []byte, max uint64) (uint64, bool) {
	if !isDecimal(f) || len(f) > 20 {
		return 0, false
	}
	var v uint64
	for _, c := range f {
		d := uint64(c - '0')
		if v > (max-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

func isDecimal(f []byte) bool {
	if len(f) == 0 {
		return false
	}
	for _, c := range f {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isTCPHeader: the header's first column is "sl" and its second names
// the local address ("local_address" in both tables).
func isTCPHeader(line []byte) bool {
	sl, rest := nextField(line)
	local, _ := nextField(rest)
	return string(sl) == "sl" && string(local) == "local_address"
}

// nextField splits off the next space-separated field.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' {
		j++
	}
	return b[i:j], b[j:]
}

func cutLine(b []byte) (line, rest []byte) {
	for i, c := range b {
		if c == '\n' {
			return b[:i], b[i+1:]
		}
	}
	return b, nil
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// clip keeps an error's quote of bad input short.
func clip(f []byte) []byte {
	if len(f) > 40 {
		return f[:40]
	}
	return f
}

// ConnPeerUID is TCPPeerUID of a connection's two ends: the uid that owns
// the socket at the other end of a loopback TCP connection.
func ConnPeerUID(c net.Conn) (int, error) {
	local, ok1 := c.LocalAddr().(*net.TCPAddr)
	remote, ok2 := c.RemoteAddr().(*net.TCPAddr)
	if !ok1 || !ok2 {
		return -1, fmt.Errorf("%w: %T is not a TCP connection", ErrNoTCPPeer, c)
	}
	return TCPPeerUID(local, remote)
}
