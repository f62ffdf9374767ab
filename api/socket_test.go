package api

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/uidtest"
)

// recorder is a fake daemon on a listener: it accepts and records every
// byte a client sends.
type recorder struct {
	mu    sync.Mutex
	conns int
	got   []byte
	ended chan struct{} // one per connection the client closed
}

func record(t *testing.T, ln net.Listener) *recorder {
	r := &recorder{ended: make(chan struct{}, 64)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.conns++
			r.mu.Unlock()
			go func() {
				b, _ := io.ReadAll(c)
				c.Close()
				r.mu.Lock()
				r.got = append(r.got, b...)
				r.mu.Unlock()
				r.ended <- struct{}{}
			}()
		}
	}()
	return r
}

func (r *recorder) counts() (int, []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conns, append([]byte(nil), r.got...)
}

// clientCalls are what a victim runs against a socket: a look and an act
// that carries a secret.
func clientCalls(sock string) map[string]error {
	c := NewClient(sock)
	defer c.Close()
	c.SetTimeout(5 * time.Second) // a client that did connect and send waits for no answer
	ctx := context.Background()
	_, lerr := c.List(ctx)
	_, serr := c.Send(ctx, SendRequest{TerminalID: "term_a", Request: "deploy with password hunter2"})
	return map[string]error{"list": lerr, "send": serr}
}

// linkedVictim makes base/victim, a directory of ours (0755), and a
// symbolic link base/name to it: what akk must refuse to go through, and
// leave as it was.
func linkedVictim(t *testing.T, base, name string) (victim, link string) {
	t.Helper()
	victim = filepath.Join(base, "victim")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	link = filepath.Join(base, name)
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	return victim, link
}

func wantRefused(t *testing.T, what string, err, target error, says string) {
	t.Helper()
	if !errors.Is(err, target) || !strings.Contains(err.Error(), says) {
		t.Errorf("%s: %v; want %v saying %q", what, err, target, says)
		return
	}
	t.Logf("%s: %v", what, err)
}

// TestPrivateDir: the daemon's directory rules, as any user: a link to a
// directory of ours is refused and the directory left as it was, one
// others may write is refused, one others may read is tightened; the
// clients want exactly 0700.
func TestPrivateDir(t *testing.T) {
	base := t.TempDir()
	victim, link := linkedVictim(t, base, "link")
	_, err := Listen(filepath.Join(link, SocketName))
	wantRefused(t, "listen behind a link", err, ErrSocketNotOwned, "is a symbolic link")
	if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o755 {
		t.Errorf("the link's target was changed to %v", fi.Mode().Perm())
	}
	if _, err := os.Lstat(filepath.Join(victim, SocketName)); err == nil {
		t.Error("a socket was made behind the link")
	}
	wantRefused(t, "a client behind a link", clientCalls(filepath.Join(link, SocketName))["list"], ErrSocketNotOwned, "rm "+link)

	open := filepath.Join(base, "open")
	os.Mkdir(open, 0o777)
	os.Chmod(open, 0o777)
	_, err = Listen(filepath.Join(open, SocketName))
	wantRefused(t, "listen in a 0777 directory", err, ErrSocketNotOwned, "chmod 700")

	readable := filepath.Join(base, "readable")
	os.Mkdir(readable, 0o755)
	if err := CheckPrivateDir(readable); err != nil {
		t.Errorf("a reader of a 0755 directory of ours: %v", err)
	}
	if ln, err := net.Listen("unix", filepath.Join(readable, SocketName)); err == nil {
		wantRefused(t, "a client of a socket in a 0755 directory", clientCalls(filepath.Join(readable, SocketName))["list"], ErrSocketNotOwned, "mode 0755")
		ln.Close()
	}
	ln, err := Listen(filepath.Join(readable, SocketName))
	if err != nil {
		t.Fatalf("listen in a 0755 directory of ours: %v", err)
	}
	ln.Close()
	if fi, _ := os.Stat(readable); fi.Mode().Perm() != 0o700 {
		t.Errorf("not tightened: %v", fi.Mode().Perm())
	}

	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	_, err = Listen(filepath.Join(file, SocketName))
	wantRefused(t, "listen under a file", err, ErrSocketNotOwned, "not a directory")
}

// TestSocketSquat: another local user at the socket's path (the security
// review's finding 1). The daemon refuses to listen there, and the
// clients refuse to talk there, before a byte: (a) a directory another
// uid made, with a listener in it; (b) a symbolic link to a directory of
// the victim's (attach must not touch it) and then to the squatter's;
// (c) the directory and socket right, but another uid's process answers
// on it (the peer-credential check alone). The fake listener records
// every byte it is sent: none.
func TestSocketSquat(t *testing.T) {
	if os.Getenv("AKK_API_SQUAT_CHILD") != "" {
		// fd 3: a socket the parent bound; listen() makes this process,
		// another uid's, the one a client's SO_PEERCRED names.
		err := syscall.Listen(3, 8)
		os.Stdout.WriteString("LISTEN " + errString(err) + "\n")
		return
	}
	other := uidtest.Other(t)
	owner := "owned by uid " + strconv.Itoa(other.UID)
	base, err := os.MkdirTemp("", "akk-squat-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	// squatDir is a directory the other user made, 0777, with a listener.
	squatDir := func(name string) (string, *recorder) {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(dir, 0o777)
		ln, err := net.Listen("unix", filepath.Join(dir, SocketName))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{dir, filepath.Join(dir, SocketName)} {
			if err := os.Lchown(p, other.UID, other.GID); err != nil {
				t.Fatal(err)
			}
		}
		return dir, record(t, ln)
	}

	t.Run("foreign directory", func(t *testing.T) {
		dir, rec := squatDir("a")
		sock := filepath.Join(dir, SocketName)
		_, err := Listen(sock)
		wantRefused(t, "attach", err, ErrSocketNotOwned, owner)
		for what, err := range clientCalls(sock) {
			wantRefused(t, what, err, ErrSocketNotOwned, owner)
		}
		assertNothingSent(t, rec, 0)
	})

	t.Run("symbolic link", func(t *testing.T) {
		victim, link := linkedVictim(t, base, "b")
		os.Lchown(link, other.UID, other.GID)
		_, err := Listen(filepath.Join(link, SocketName))
		wantRefused(t, "attach", err, ErrSocketNotOwned, "is a symbolic link")
		if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o755 {
			t.Errorf("attach changed the victim's directory to %v", fi.Mode().Perm())
		}
		if ents, _ := os.ReadDir(victim); len(ents) != 0 {
			t.Errorf("attach made %v in the victim's directory", ents)
		}
		// The swap: the link now leads to the squatter's directory.
		dir, rec := squatDir("b-swapped")
		os.Remove(link)
		if err := os.Symlink(dir, link); err != nil {
			t.Fatal(err)
		}
		for what, err := range clientCalls(filepath.Join(link, SocketName)) {
			wantRefused(t, what, err, ErrSocketNotOwned, "is a symbolic link")
		}
		assertNothingSent(t, rec, 0)
	})

	t.Run("foreign server", func(t *testing.T) {
		dir := filepath.Join(base, "c")
		if err := PrivateDir(dir); err != nil {
			t.Fatal(err)
		}
		sock := filepath.Join(dir, SocketName)
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		f := os.NewFile(uintptr(fd), "squat")
		defer f.Close()
		if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
			t.Fatal(err)
		}
		os.Chmod(sock, 0o666) // the other uid's process has no need to reach it: it listens on the fd
		cmd := uidtest.Child(t, other, "TestSocketSquat", "AKK_API_SQUAT_CHILD=1")
		cmd.ExtraFiles = []*os.File{f}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "LISTEN ok") {
			t.Fatalf("the other uid's listen: %v\n%s", err, out)
		}
		ln, err := net.FileListener(f)
		if err != nil {
			t.Fatal(err)
		}
		rec := record(t, ln)
		if err := CheckPrivateDir(dir); err != nil {
			t.Fatalf("the directory is not right: %v", err)
		}
		calls := clientCalls(sock)
		for what, err := range calls {
			wantRefused(t, what, err, ErrServerNotOwned, "runs as uid "+strconv.Itoa(other.UID))
		}
		assertNothingSent(t, rec, len(calls))
	})
}

// assertNothingSent waits until the recorder saw conns connections end,
// then checks it got no byte.
func assertNothingSent(t *testing.T, rec *recorder, conns int) {
	t.Helper()
	for range conns {
		<-rec.ended
	}
	n, got := rec.counts()
	if n != conns || len(got) != 0 {
		t.Errorf("the fake listener had %d connections (want %d) and got %q", n, conns, got)
	}
}

func errString(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}
