package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
)

func TestMCPCmdValidate(t *testing.T) {
	tests := []struct {
		http string
		ok   bool
	}{
		{"", true},
		{"127.0.0.1:8765", true},
		{"[::1]:8765", true},
		{"localhost:0", true},
		{"0.0.0.0:8765", false},
		{":8765", false},
		{"192.0.2.1:8765", false},
		{"example.com:80", false},
		{"127.0.0.1", false},
	}
	for _, tc := range tests {
		err := (&MCPCmd{HTTP: tc.http}).Validate()
		if (err == nil) != tc.ok {
			t.Errorf("--http %q: err %v, want ok=%v", tc.http, err, tc.ok)
		}
	}
}

// TestMCPToken: --print-token prints the daemon's token (beside --socket,
// or --token-file); without a token file --print-token and --http say to
// start akk attach; a token file others may read is refused.
func TestMCPToken(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, api.SocketName)
	mcp := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"mcp", "--socket", sock}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}
	for _, args := range [][]string{{"--print-token"}, {"--http", "127.0.0.1:0"}} {
		if code, _, errs := mcp(args...); code != exitFailure || !strings.Contains(errs, "start `akk attach` first") {
			t.Errorf("%v without a token: exit %d, %q", args, code, errs)
		}
	}
	if _, err := api.EnsureToken(api.TokenPath(sock)); err != nil {
		t.Fatal(err)
	}
	tok, err := api.ReadToken(api.TokenPath(sock))
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errs := mcp("--print-token"); code != exitOK || out != tok.Reveal()+"\n" {
		t.Errorf("--print-token: exit %d, stdout %d bytes, stderr %q", code, len(out), errs)
	}
	other := filepath.Join(t.TempDir(), "token")
	if _, err := api.EnsureToken(other); err != nil {
		t.Fatal(err)
	}
	otherTok, _ := api.ReadToken(other)
	if code, out, _ := mcp("--print-token", "--token-file", other); code != exitOK || out != otherTok.Reveal()+"\n" || otherTok == tok {
		t.Errorf("--token-file: exit %d", code)
	}
	if err := os.Chmod(other, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := mcp("--print-token", "--token-file", other); code != exitFailure || out != "" ||
		!strings.Contains(errs, "0600") || strings.Contains(errs, otherTok.Reveal()) {
		t.Errorf("a 0644 token file: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
