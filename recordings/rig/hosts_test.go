package rig

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeHost lays out name@version in the hosts cache as npm would (the
// package's package.json and its .bin command), with the Node mark.
func fakeHost(t *testing.T, dir, name, version, mark string) {
	t.Helper()
	h := Hosts[name]
	root := filepath.Join(dir, name+"@"+version)
	for path, content := range map[string]string{
		filepath.Join(root, "node_modules", h.Package, "package.json"): `{"name":"` + h.Package + `","version":"` + version + `"}`,
		filepath.Join(root, "node_modules", ".bin", h.Bin):             "#!/bin/sh\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if mark != "" {
		if err := os.WriteFile(filepath.Join(root, nodeMark), []byte(mark+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLookupHost: a host is installed only with its package at the
// version, its command, the pinned Node beside it and the mark that it
// was installed with that Node; InstallHost then runs no npm at all.
func TestLookupHost(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, err := HostsDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LookupHost("openclaw", "2026.9.6"); !errors.Is(err, ErrHostNotInstalled) {
		t.Fatalf("empty cache: %v, want ErrHostNotInstalled", err)
	}
	fakeHost(t, dir, "openclaw", "2026.9.6", HostNode)
	if _, err := LookupHost("openclaw", "2026.9.6"); !errors.Is(err, ErrHostNotInstalled) {
		t.Errorf("no Node: %v, want ErrHostNotInstalled", err)
	}
	fakeHost(t, dir, "node", HostNode, "")
	in, err := LookupHost("openclaw", "2026.9.6")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "node@"+HostNode, "node_modules", ".bin", "node"); in.Node != want {
		t.Errorf("Node %s, want %s", in.Node, want)
	}
	if _, err := LookupHost("openclaw", "2026.9.5"); !errors.Is(err, ErrHostNotInstalled) {
		t.Errorf("another version: %v, want ErrHostNotInstalled", err)
	}
	fakeHost(t, dir, "pi", "1.6.0", "20.0.0")
	if _, err := LookupHost("pi", "1.6.0"); !errors.Is(err, ErrHostNotInstalled) {
		t.Errorf("installed with another Node: %v, want ErrHostNotInstalled", err)
	}
	// Installed: no npm (PATH has none), no lock taken.
	t.Setenv("PATH", t.TempDir())
	if _, err := InstallHost(context.Background(), slog.New(slog.DiscardHandler), "openclaw", "2026.9.6"); err != nil {
		t.Errorf("InstallHost of an installed host: %v", err)
	}
	if _, err := LookupHost("hermes", "1"); err == nil || errors.Is(err, ErrHostNotInstalled) {
		t.Errorf("unknown host: %v", err)
	}
}

// TestInstallLock: a second lockFile waits until the first is released
// (flock is per open file, so this holds within one process too).
func TestInstallLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".install.lock")
	unlock, err := lockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	go func() {
		u, err := lockFile(path)
		if err == nil {
			u()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("the second lock was taken while the first was held")
	case <-time.After(200 * time.Millisecond):
	}
	unlock()
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("the second lock was not taken after the first was released")
	}
}
