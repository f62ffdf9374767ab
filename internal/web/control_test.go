package web

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-knock-knock/akk/api"
)

// TestControlSocket: `akk web sessions` through the control socket: it
// lists the paired browsers, revokes one by id, says so of an unknown
// id; the socket is 0600 in a 0700 directory, and a client refuses it
// behind a symbolic link before sending a byte.
func TestControlSocket(t *testing.T) {
	sessions := NewSessions(nil, 0)
	s1, _, _ := sessions.Redeem(sessions.NewCode(), "phone")
	sessions.Redeem(sessions.NewCode(), "laptop")
	dir := filepath.Join(t.TempDir(), "akk")
	path := ControlPath(dir, "7717")
	ln, err := api.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeControl(ctx, api.OwnerOnly(ln, os.Getuid(), nil), sessions) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	for p, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, path: 0o600 | os.ModeSocket} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v %v, want %v", p, fi.Mode(), err, want)
		}
	}
	list, err := ListSessions(ctx, path)
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := RevokeSession(ctx, path, s1.ID); err != nil {
		t.Fatal(err)
	}
	if err := RevokeSession(ctx, path, s1.ID); !errors.Is(err, ErrNoSession) {
		t.Errorf("revoke twice: %v", err)
	}
	if list, _ := ListSessions(ctx, path); len(list) != 1 || list[0].UserAgent != "laptop" {
		t.Errorf("after revoke: %+v", list)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ListSessions(ctx, ControlPath(link, "7717")); !errors.Is(err, api.ErrSocketNotOwned) {
		t.Errorf("through a link: %v", err)
	}
}
