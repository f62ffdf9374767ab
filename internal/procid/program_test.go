package procid

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProgram: a binary is named by the package it lies in, through the
// .bin link npm makes; anything else is no agent.
func TestProgram(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	native := write("n/node_modules/@x/native/bin/nat.exe", "ELF")
	write("n/node_modules/@x/native/package.json", `{"name":"@x/native","version":"2.1.9"}`)
	launcher := write("l/node_modules/@x/launch/bin/lau.js", "#!/usr/bin/env node")
	write("l/node_modules/@x/launch/package.json", `{"name":"@x/launch","version":"0.9.0-linux-x64"}`)
	script := write("s/node_modules/@x/script/dist/index.js", "")
	write("s/node_modules/@x/script/package.json", `{"name":"@x/script","version":"1.0.0"}`)
	other := write("o/node_modules/left-pad/index.js", "")
	write("o/node_modules/left-pad/package.json", `{"name":"left-pad","version":"1.0.0"}`)
	link := filepath.Join(dir, "n", "node_modules", ".bin", "nat")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(native, link); err != nil {
		t.Fatal(err)
	}
	id := NewClassifier(Options{Rules: []Rule{
		{Agent: "nat", Exes: []string{"nat.exe"}, Packages: []string{"@x/native"}},
		{Agent: "lau", Exes: []string{"lau"}, Packages: []string{"@x/launch"}},
		{Agent: "scr", NodePackage: "@x/script"},
	}})
	for _, tc := range []struct{ path, agent, version string }{
		{link, "nat", "2.1.9"}, {native, "nat", "2.1.9"}, {launcher, "lau", "0.9.0"}, {script, "scr", "1.0.0"},
		{other, "", ""}, {filepath.Join(dir, "gone"), "", ""},
	} {
		agent, version, err := id.Program(tc.path)
		if agent != tc.agent || version != tc.version || (err == nil) != (tc.agent != "") {
			t.Errorf("Program(%s) = %q %q %v, want %q %q", tc.path, agent, version, err, tc.agent, tc.version)
		}
	}
}
