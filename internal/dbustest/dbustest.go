// Package dbustest runs a private D-Bus bus with a freedesktop
// notification server on it, for tests of akk's desktop notices: a real
// dbus-daemon on a socket of the test's own (never the user's session
// bus), and a listener that owns org.freedesktop.Notifications and
// records every Notify call.
package dbustest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// busConfig is a session bus with no service activation (a notification
// daemon installed on the machine must not start for the test) that
// allows everything between the test's own connections.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// Bus is a private dbus-daemon.
type Bus struct {
	Addr string // unix:path=...
	cmd  *exec.Cmd
}

// Start runs a private bus for the test (tier dbus: AKK_REQUIRE=dbus
// fails a run without dbus-daemon); Cleanup ends it.
func Start(t testing.TB) *Bus {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	tmuxtest.Require(t, "dbus", err == nil, "dbus-daemon not installed (Debian: apt-get install dbus)")
	dir := t.TempDir()
	sock := filepath.Join(dir, "bus")
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(busConfig, sock)), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config-file="+conf, "--nofork", "--nopidfile", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer // "Failed to set fd limit" as root, and worse on failures
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-daemon: %v", err)
	}
	b := &Bus{cmd: cmd}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("dbus-daemon's stderr:\n%s", stderr.String())
		}
	})
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(out)
		if s.Scan() {
			line <- s.Text()
		}
		close(line)
	}()
	select {
	case l, ok := <-line:
		if !ok || !strings.HasPrefix(l, "unix:") {
			t.Fatalf("dbus-daemon printed no address (%q)", l)
		}
		b.Addr = l
	case <-time.After(10 * time.Second):
		t.Fatal("dbus-daemon: no address after 10 s")
	}
	return b
}

// Dial connects to the bus.
func (b *Bus) Dial(t testing.TB) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Dial(b.Addr)
	if err == nil {
		if err = conn.Auth(nil); err == nil {
			err = conn.Hello()
		}
	}
	if err != nil {
		t.Fatalf("dial the test bus: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// Notice is one Notify call as the server got it.
type Notice struct {
	App     string
	Summary string
	Body    string
	Hints   map[string]dbus.Variant
	Expire  int32
}

// Server is a notification server on the bus.
type Server struct {
	mu      sync.Mutex
	got     []Notice
	changed chan struct{}
}

// Serve claims org.freedesktop.Notifications on the bus and records the
// notices it gets.
func (b *Bus) Serve(t testing.TB) *Server {
	t.Helper()
	conn := b.Dial(t)
	s := &Server{changed: make(chan struct{})}
	if err := conn.Export(notifier{s}, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own org.freedesktop.Notifications: %v (%v)", reply, err)
	}
	return s
}

// notifier is the exported object (its methods are the interface's).
type notifier struct{ s *Server }

// Notify is the specification's method.
func (n notifier) Notify(app string, replaces uint32, icon, summary, body string, actions []string,
	hints map[string]dbus.Variant, expire int32) (uint32, *dbus.Error) {
	n.s.mu.Lock()
	defer n.s.mu.Unlock()
	n.s.got = append(n.s.got, Notice{App: app, Summary: summary, Body: body, Hints: hints, Expire: expire})
	close(n.s.changed)
	n.s.changed = make(chan struct{})
	return uint32(len(n.s.got)), nil
}

// Notices is what the server got so far.
func (s *Server) Notices() []Notice {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Notice(nil), s.got...)
}

// Await waits until the server got n notices.
func (s *Server) Await(ctx context.Context, n int) ([]Notice, error) {
	for {
		s.mu.Lock()
		got, ch := append([]Notice(nil), s.got...), s.changed
		s.mu.Unlock()
		if len(got) >= n {
			return got, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return got, fmt.Errorf("dbustest: %d notices, want %d: %w", len(got), n, ctx.Err())
		}
	}
}
