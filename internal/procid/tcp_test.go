package procid

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tables in testdata were captured on a little-endian host (x86_64)
// with python sockets: listeners on 127.0.0.1:59105, [::1]:59009 and a
// dual-stack [::]:59215; as nobody (65534) a v4 client of the first, a v6
// client of the second and a v6 socket connected to ::ffff:127.0.0.1:59105;
// as root a v4 client of the dual-stack listener, a v6 client of the
// second, and connections left in TIME_WAIT.
const (
	tcpHeader  = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     \n"
	tcp6Header = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
)

func littleEndian(t testing.TB) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("the captured tables are a little-endian host's")
	}
}

func ap(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }

// TestParseTCPTable: real rows of both tables, each state's column count.
func TestParseTCPTable(t *testing.T) {
	littleEndian(t)
	tests := []struct {
		name string
		in   string
		want TCPRow
	}{
		{"v4 listener", tcpHeader + "   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1253 1 0000000020d32e88 100 0 0 10 0                      \n",
			TCPRow{ap("0.0.0.0:2024"), ap("0.0.0.0:0"), TCPListen, 0, 1253}},
		{"v4 client of nobody", tcpHeader + "   5: 0100007F:8DF2 0100007F:E6E1 01 00000000:00000000 00:00000000 00000000 65534        0 3398074 2 000000008f4ab959 20 0 0 10 -1                   \n",
			TCPRow{ap("127.0.0.1:36338"), ap("127.0.0.1:59105"), TCPEstablished, 65534, 3398074}},
		{"v4 time-wait (fewer columns, no inode)", tcpHeader + "   4: 0100007F:DC57 0100007F:85D8 06 00000000:00000000 03:000013A4 00000000     0        0 0 3 00000000b531bd9d                                      \n",
			TCPRow{ap("127.0.0.1:56407"), ap("127.0.0.1:34264"), TCPTimeWait, 0, 0}},
		{"v6 loopback client of nobody", tcp6Header + "   3: 00000000000000000000000001000000:C400 00000000000000000000000001000000:E681 01 00000000:00000000 00:00000000 00000000 65534        0 3398075 2 000000003de8445c 20 0 0 10 -1\n",
			TCPRow{ap("[::1]:50176"), ap("[::1]:59009"), TCPEstablished, 65534, 3398075}},
		{"v6 socket on an IPv4-mapped address", tcp6Header + "   7: 0000000000000000FFFF00000100007F:8E02 0000000000000000FFFF00000100007F:E6E1 01 00000000:00000000 00:00000000 00000000 65534        0 3398076 2 00000000aeaab23f 20 0 0 10 -1\n",
			TCPRow{ap("[::ffff:127.0.0.1]:36354"), ap("[::ffff:127.0.0.1]:59105"), TCPEstablished, 65534, 3398076}},
		{"v6 listener on any, last line without newline", tcp6Header + "   1: 00000000000000000000000000000000:E74F 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 3398060 1 00000000e85fc78d 100 0 0 10 0",
			TCPRow{ap("[::]:59215"), ap("[::]:0"), TCPListen, 0, 3398060}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := ParseTCPTable([]byte(tc.in))
			if err != nil || len(rows) != 1 || rows[0] != tc.want {
				t.Errorf("got %+v %v, want %+v", rows, err, tc.want)
			}
		})
	}
	for _, name := range []string{"net_tcp", "net_tcp6"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := ParseTCPTable(b)
		if want := strings.Count(string(b), "\n") - 1; err != nil || len(rows) != want {
			t.Errorf("%s: %d rows, %v; want %d", name, len(rows), err, want)
		}
	}
}

// TestParseTCPTableRefuses: what is not the kernel's table is ErrSyntax.
func TestParseTCPTableRefuses(t *testing.T) {
	row := "   0: 0100007F:8DF2 0100007F:E6E1 01 00000000:00000000 00:00000000 00000000 65534        0 3398074 2 0 20 0 0 10 -1\n"
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"no header", row},
		{"another file's header", "Inter-|   Receive\n" + row},
		{"too few columns", tcpHeader + "   0: 0100007F:8DF2 0100007F:E6E1 01 00000000:00000000 00:00000000 00000000 65534        0\n"},
		{"short address", tcpHeader + strings.Replace(row, "0100007F:8DF2", "100007F:8DF2", 1)},
		{"address of 12 digits", tcpHeader + strings.Replace(row, "0100007F:8DF2", "0100007F0000:8DF2", 1)},
		{"short port", tcpHeader + strings.Replace(row, ":8DF2", ":DF2", 1)},
		{"not hex", tcpHeader + strings.Replace(row, "0100007F:8DF2", "0100007G:8DF2", 1)},
		{"no colon", tcpHeader + strings.Replace(row, "0100007F:8DF2", "0100007F.8DF2", 1)},
		{"state of one digit", tcpHeader + strings.Replace(row, " 01 ", " 1 ", 1)},
		{"uid not a number", tcpHeader + strings.Replace(row, "65534", "6553x", 1)},
		{"uid past 32 bits", tcpHeader + strings.Replace(row, "65534", "4294967296", 1)},
		{"negative uid", tcpHeader + strings.Replace(row, "65534", "-1", 1)},
		{"inode past 64 bits", tcpHeader + strings.Replace(row, "3398074", "18446744073709551616", 1)},
		{"slot without colon", tcpHeader + strings.Replace(row, "0:", "0", 1)},
		{"queues without colon", tcpHeader + strings.Replace(row, "00000000:00000000", "0000000000000000", 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if rows, err := ParseTCPTable([]byte(tc.in)); !errors.Is(err, ErrSyntax) {
				t.Errorf("got %+v %v, want ErrSyntax", rows, err)
			}
		})
	}
	if rows, err := ParseTCPTable([]byte(tcpHeader)); err != nil || len(rows) != 0 {
		t.Errorf("a table of no sockets: %+v %v", rows, err)
	}
}

// TestPeerUIDIn: the owner of the other end, found by the accepted
// connection's addresses in the captured tables.
func TestPeerUIDIn(t *testing.T) {
	littleEndian(t)
	var tables [][]byte
	for _, name := range []string{"net_tcp", "net_tcp6"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, b)
	}
	tests := []struct {
		name          string
		local, remote string // the accepted connection's
		uid           int
		err           error
	}{
		{"nobody's v4 client", "127.0.0.1:59105", "127.0.0.1:36338", 65534, nil},
		{"nobody's v6 client", "[::1]:59009", "[::1]:50176", 65534, nil},
		{"nobody's v6 socket on ::ffff:127.0.0.1, in tcp6", "127.0.0.1:59105", "127.0.0.1:36354", 65534, nil},
		{"root's v4 client of a dual-stack listener, mapped", "[::ffff:127.0.0.1]:59215", "[::ffff:127.0.0.1]:52450", 0, nil},
		{"root's v6 client", "[::1]:59009", "[::1]:50182", 0, nil},
		{"a zone is not in the tables", "[::1%lo]:59009", "[::1%lo]:50182", 0, nil},
		{"the peer's socket is in TIME_WAIT", "127.0.0.1:56407", "127.0.0.1:34256", -1, ErrNoTCPPeer},
		{"no such connection", "127.0.0.1:59105", "127.0.0.1:1", -1, ErrNoTCPPeer},
		{"another port of ours", "127.0.0.1:59106", "127.0.0.1:36338", -1, ErrNoTCPPeer},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			uid, err := PeerUIDIn(tables, ap(tc.local), ap(tc.remote))
			if uid != tc.uid || !errors.Is(err, tc.err) {
				t.Errorf("uid %d %v, want %d %v", uid, err, tc.uid, tc.err)
			}
		})
	}
	two := tcpHeader +
		"   0: 0100007F:8DF2 0100007F:E6E1 01 00000000:00000000 00:00000000 00000000 65534        0 3398074 2 0 20 0 0 10 -1\n" +
		"   1: 0100007F:8DF2 0100007F:E6E1 01 00000000:00000000 00:00000000 00000000     0        0 3398075 2 0 20 0 0 10 -1\n"
	if uid, err := PeerUIDIn([][]byte{[]byte(two)}, ap("127.0.0.1:59105"), ap("127.0.0.1:36338")); !errors.Is(err, ErrAmbiguousTCPPeer) {
		t.Errorf("two owners: uid %d %v, want ErrAmbiguousTCPPeer", uid, err)
	}
	if uid, err := PeerUIDIn([][]byte{[]byte("garbage")}, ap("127.0.0.1:59105"), ap("127.0.0.1:36338")); !errors.Is(err, ErrSyntax) {
		t.Errorf("a table that does not parse: uid %d %v, want ErrSyntax", uid, err)
	}
}

// TestTCPPeerUIDLive: both ends of a live loopback connection, IPv4 and
// IPv6, are this process's.
func TestTCPPeerUIDLive(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Logf("%s: %v (no such loopback here)", addr, err)
			continue
		}
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		s, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		uid, err := TCPPeerUID(s.LocalAddr().(*net.TCPAddr), s.RemoteAddr().(*net.TCPAddr))
		if err != nil || uid != os.Getuid() {
			t.Errorf("%s: the client's owner is %d %v, want %d", addr, uid, err, os.Getuid())
		}
		// The dialer's view finds the accepted socket, also ours.
		uid, err = TCPPeerUID(c.LocalAddr().(*net.TCPAddr), c.RemoteAddr().(*net.TCPAddr))
		if err != nil || uid != os.Getuid() {
			t.Errorf("%s: the server's owner is %d %v, want %d", addr, uid, err, os.Getuid())
		}
		c.Close()
		s.Close()
		ln.Close()
	}
	if _, err := TCPPeerUID(nil, nil); !errors.Is(err, ErrNoTCPPeer) {
		t.Errorf("no addresses: %v", err)
	}
}

// formatTCPRow writes a row as the kernel does (get_tcp4_sock,
// get_tcp6_sock), for the fuzz target's round trip.
func formatTCPRow(i int, r TCPRow) string {
	addr := func(a netip.AddrPort) string {
		b := a.Addr().AsSlice()
		var s strings.Builder
		for w := 0; w < len(b); w += 4 {
			fmt.Fprintf(&s, "%08X", binary.NativeEndian.Uint32(b[w:]))
		}
		fmt.Fprintf(&s, ":%04X", a.Port())
		return s.String()
	}
	return fmt.Sprintf("%4d: %s %s %02X 00000000:00000000 00:00000000 00000000 %5d        0 %d 1 0000000000000000 20 0 0 10 -1\n",
		i, addr(r.Local), addr(r.Remote), uint8(r.State), r.UID, r.Inode)
}

// FuzzParseTCPTable: no input makes the parser panic, and what it reads
// it reads again, the same, from the kernel's own formatting of it.
func FuzzParseTCPTable(f *testing.F) {
	for _, name := range []string{"net_tcp", "net_tcp6"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(tcpHeader))
	f.Add([]byte(tcp6Header + "   0: 0000000000000000FFFF00000100007F:8E02 0000000000000000FFFF00000100007F:E6E1 01 0:0 0:0 0 4294967295 -1 18446744073709551615"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, err := ParseTCPTable(b)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("an error that is not ErrSyntax: %v", err)
			}
			return
		}
		var again strings.Builder
		again.WriteString(tcpHeader)
		for i, r := range rows {
			if r.UID < 0 || uint64(r.UID) > 1<<32-1 {
				t.Fatalf("row %d: %+v", i, r)
			}
			again.WriteString(formatTCPRow(i, r))
		}
		rows2, err := ParseTCPTable([]byte(again.String()))
		if err != nil || len(rows2) != len(rows) {
			t.Fatalf("the kernel's formatting of %+v reads as %+v %v", rows, rows2, err)
		}
		for i := range rows {
			if rows[i] != rows2[i] {
				t.Fatalf("row %d: %+v, then %+v", i, rows[i], rows2[i])
			}
		}
	})
}
