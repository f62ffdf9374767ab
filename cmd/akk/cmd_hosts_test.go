package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestPiSetup: akk's entry added to Pi's mcp.json with its tools exposed
// directly, every other server kept; a file that is not JSON is left
// alone with an error.
func TestPiSetup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"other": {"command": "/bin/other"}}, "keep": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := (&PiSetupCmd{Controller: "pi", Dir: dir}).Run(&Globals{}, &out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Servers map[string]struct {
			Command  string   `json:"command"`
			Args     []string `json:"args"`
			Exposure string   `json:"exposure"`
		} `json:"mcpServers"`
		Keep int `json:"keep"`
	}
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	akk := doc.Servers["akk"]
	if doc.Keep != 1 || doc.Servers["other"].Command != "/bin/other" || akk.Exposure != "direct" ||
		len(akk.Args) != 3 || akk.Args[0] != "mcp" || akk.Args[2] != "pi" || akk.Command == "" {
		t.Fatalf("mcp.json %s", b)
	}
	if err := os.WriteFile(path, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := (&PiSetupCmd{Controller: "pi", Dir: dir}).Run(&Globals{}, &out); err == nil {
		t.Fatal("a broken mcp.json was overwritten")
	}
	if b, _ := os.ReadFile(path); string(b) != "not json" {
		t.Fatalf("the broken file was changed: %q", b)
	}
}

// TestSessionPrefix: what hooks must allow of a session key.
func TestSessionPrefix(t *testing.T) {
	for key, want := range map[string]string{"agent:main:akk-main": "agent:main:akk-", "a-b-c": "a-b-", "nodash": "", "trailing-": "", "has space-x": ""} {
		if got, ok := sessionPrefix(key); got != want || ok != (want != "") {
			t.Errorf("%q: %q %v, want %q", key, got, ok, want)
		}
	}
}
