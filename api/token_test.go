package api

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/internal/archtest"
)

var tokenText = regexp.MustCompile(`^[0-9a-f]{64}\n$`)

// TestTokenFile: the daemon's token file is made once, 0600, and kept; a
// file others may read is refused and replaced; a missing one says so.
func TestTokenFile(t *testing.T) {
	dir := t.TempDir()
	path := TokenPath(filepath.Join(dir, SocketName))
	if path != filepath.Join(dir, TokenName) {
		t.Fatalf("TokenPath = %s", path)
	}
	if _, err := ReadToken(path); !errors.Is(err, ErrNoToken) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no file: %v, want ErrNoToken and fs.ErrNotExist", err)
	}
	created, err := EnsureToken(path)
	if err != nil || !created {
		t.Fatalf("EnsureToken: created %v, %v", created, err)
	}
	first := readFileMode(t, path, 0o600)
	tok, err := ReadToken(path)
	if err != nil || tok.Reveal()+"\n" != first {
		t.Fatalf("ReadToken: %v %v", tok, err)
	}
	if created, err := EnsureToken(path); err != nil || created || readFileMode(t, path, 0o600) != first {
		t.Fatalf("a second EnsureToken changed a good token: created %v, %v", created, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d files, want the token only (no temporary file left)", len(entries))
	}

	// Others may read it: it authorises nobody, and the daemon makes a new one.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadToken(path); !errors.Is(err, ErrTokenFile) {
		t.Fatalf("a 0644 token: %v, want ErrTokenFile", err)
	}
	if created, err := EnsureToken(path); err != nil || !created {
		t.Fatalf("EnsureToken over a 0644 token: created %v, %v", created, err)
	}
	if again := readFileMode(t, path, 0o600); again == first {
		t.Errorf("the token that others could read was kept")
	}

	for name, content := range map[string]string{"short": "abcd\n", "not hex": fmt.Sprintf("%064d", 0)[:63] + "g\n", "empty": ""} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadToken(p); !errors.Is(err, ErrTokenFile) {
			t.Errorf("%s: %v, want ErrTokenFile", name, err)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadToken(link); !errors.Is(err, ErrTokenFile) {
		t.Errorf("a symlink: %v, want ErrTokenFile", err)
	}
}

func readFileMode(t *testing.T, path string, mode fs.FileMode) string {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != mode {
		t.Errorf("%s has mode %v, want %v", path, fi.Mode().Perm(), mode)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !tokenText.Match(b) {
		t.Errorf("%s does not hold 64 hex digits and a newline", path)
	}
	return string(b)
}

// TestTokenMatches: only the token itself; a zero Token matches nothing.
func TestTokenMatches(t *testing.T) {
	tok := Token{secret: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	tests := []struct {
		presented string
		want      bool
	}{
		{tok.secret, true},
		{"", false},
		{tok.secret[:63], false},
		{tok.secret + "0", false},
		{"1" + tok.secret[1:], false},
		{"0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF", false},
	}
	for _, tc := range tests {
		if got := tok.Matches(tc.presented); got != tc.want {
			t.Errorf("Matches(%q) = %v, want %v", tc.presented, got, tc.want)
		}
	}
	if (Token{}).Matches("") {
		t.Error("a zero Token matches the empty string")
	}
}

// TestTokenRedacted: a Token, alone or in a struct, never prints or logs
// its text.
func TestTokenRedacted(t *testing.T) {
	secret := "5ec2e7000000000000000000000000000000000000000000000000000000abcd"
	tok := Token{secret: secret}
	for name, v := range map[string]any{"Token": tok, "*Token": &tok, "in a struct": struct{ Auth Token }{tok}} {
		if where := archtest.Leak(v, secret); where != "" {
			t.Errorf("%s leaks: %s", name, where)
		}
		if s := fmt.Sprintf("%#v", v); strings.Contains(s, secret[:8]) {
			t.Errorf("%s leaks through %%#v: %s", name, s)
		}
	}
}
