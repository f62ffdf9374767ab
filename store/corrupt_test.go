package store

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damagedStore writes n reservations to a new store in dir; flush puts
// them in an sstable (else they stay in the WAL). It returns the store's
// files by suffix.
func damagedStore(t *testing.T, dir string, n int, flush bool) map[string][]string {
	t.Helper()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if _, err := s.Apply(reservation(fmt.Sprintf("rcpt_%03d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if flush {
		if err := s.db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	files := map[string][]string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "MANIFEST-"):
			files["MANIFEST"] = append(files["MANIFEST"], name)
		default:
			files[filepath.Ext(name)] = append(files[filepath.Ext(name)], name)
		}
	}
	return files
}

// flip inverts 8 bytes in the middle of path.
func flip(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mid := len(b) / 2
	for i := mid; i < mid+8 && i < len(b); i++ {
		b[i] ^= 0xff
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// clearMessage: one line, no Go stack, the file and what to do named.
func clearMessage(t *testing.T, err error, file string) {
	t.Helper()
	msg := err.Error()
	if strings.Contains(msg, "\n") || strings.Contains(msg, "goroutine ") || strings.Contains(msg, "panic") {
		t.Fatalf("not one clear line: %q", msg)
	}
	if !strings.Contains(msg, file) || !strings.Contains(msg, "akk doctor --store") {
		t.Fatalf("message names neither %s nor akk doctor: %s", file, msg)
	}
}

// TestCorruptTable: a block of an sstable flipped: Open refuses with
// ErrCorrupt, naming the table, without a panic; Check says the same.
func TestCorruptTable(t *testing.T) {
	dir := t.TempDir()
	files := damagedStore(t, dir, 200, true)
	if len(files[".sst"]) != 1 {
		t.Fatalf("tables %v", files)
	}
	sst := files[".sst"][0]
	flip(t, filepath.Join(dir, sst))
	_, err := Open(dir, nil)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("open: %v, want ErrCorrupt", err)
	}
	clearMessage(t, err, sst)
	r, err := Check(dir, nil)
	if err != nil || r.Err == nil || filepath.Base(r.Damaged) != sst {
		t.Fatalf("check: %+v %v", r, err)
	}
	t.Logf("open: %v\ncheck: damaged %s: %v", err, r.Damaged, r.Err)
}

// TestCorruptWALMiddle: a WAL record flipped mid-file: pebble replays up
// to it and opens; the high-water mark shows the lost tail, Open reports
// it (Lost, and a log line), sequence numbers go on after the mark, and
// Check says what is lost.
func TestCorruptWALMiddle(t *testing.T) {
	dir := t.TempDir()
	files := damagedStore(t, dir, 200, false)
	if len(files[".log"]) == 0 {
		t.Fatalf("no WAL: %v", files)
	}
	flip(t, filepath.Join(dir, files[".log"][len(files[".log"])-1]))
	var log lines
	s, err := Open(dir, &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			clearMessage(t, err, ".log")
			t.Logf("open refused: %v", err)
			return
		}
		t.Fatal(err)
	}
	lost := s.Lost()
	if lost == nil || lost.ToSeq != 200 || lost.FromSeq < 2 || lost.FromSeq > 200 || lost.Reservation != "rcpt_200" {
		t.Fatalf("lost %+v", lost)
	}
	if !strings.Contains(log.String(), "lost writes") {
		t.Fatalf("not logged:\n%s", log.String())
	}
	if s.LastSeq() != 200 {
		t.Fatalf("last seq %d: a follower would see numbers again", s.LastSeq())
	}
	s.Close()
	r, err := Check(dir, nil)
	if err != nil || r.Lost == nil || r.Lost.Reservation != "rcpt_200" {
		t.Fatalf("check: %+v %v", r, err)
	}
	t.Logf("open: %s\ncheck: %s", lost, r.Lost)
}

// TestDeletedManifest: Open refuses with a clear line; Check reports it.
func TestDeletedManifest(t *testing.T) {
	dir := t.TempDir()
	files := damagedStore(t, dir, 5, true)
	for _, m := range files["MANIFEST"] {
		os.Remove(filepath.Join(dir, m))
	}
	_, openErr := Open(dir, nil)
	if !errors.Is(openErr, ErrCorrupt) {
		t.Fatalf("open: %v", openErr)
	}
	clearMessage(t, openErr, "MANIFEST")
	r, err := Check(dir, nil)
	if err != nil || r.Err == nil {
		t.Fatalf("check: %+v %v", r, err)
	}
	t.Logf("open: %v\ncheck: %v", openErr, r.Err)
}

// TestPrivateModes: --store naming an existing 0755 directory holding a
// 0644 file: Open makes the directory 0700 and every file 0600,
// pebble's own (WAL, MANIFEST, OPTIONS, sst, markers) included.
func TestPrivateModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "old"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(dir, "old"), 0o644)
	s := openT(t, dir, nil)
	if _, err := s.Apply(reservation("rcpt_1")); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Flush(); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("dir %v", fi.Mode())
	}
	entries, _ := os.ReadDir(dir)
	var kinds []string
	for _, e := range entries {
		info, _ := e.Info()
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v", e.Name(), info.Mode().Perm())
		}
		kinds = append(kinds, e.Name())
	}
	t.Logf("files: %v", kinds)
}

// TestStoreDirRefused: a store directory that is a symbolic link (one a
// squatter could swap under pebble, which opens files by path) or is
// another uid's is refused, naming why; the link's target is left as it
// was.
func TestStoreDirRefused(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "mine")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(target, 0o755)
	link := filepath.Join(root, "akk-state")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(link, nil); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("open through a link: %v", err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o755 {
		t.Errorf("the link's target was changed to %v", fi.Mode().Perm())
	}
	if os.Geteuid() != 0 {
		t.Skip("a directory of another uid needs root to make")
	}
	other := filepath.Join(root, "theirs")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(other, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(other, nil); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
		t.Fatalf("open of another uid's directory: %v", err)
	}
}

// TestSecretNotLogged: the store's debug log (pebble's included) never
// holds the id secret, in any encoding.
func TestSecretNotLogged(t *testing.T) {
	var log lines
	dir := t.TempDir()
	opts := &Options{Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	secret, _ := s.Secret()
	s.Apply(reservation("rcpt_1"))
	s.db.Flush()
	s.Close()
	s, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	out := log.String()
	for _, enc := range []string{hex.EncodeToString(secret), base64.StdEncoding.EncodeToString(secret), string(secret)} {
		if strings.Contains(out, enc) || bytes.Contains([]byte(out), secret) {
			t.Fatalf("the secret is in the log:\n%s", out)
		}
	}
	if log.count() == 0 {
		t.Fatal("no log at all: the check proves nothing")
	}
}
