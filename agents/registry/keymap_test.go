package registry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeymapRemapped: the agents' keybinding files as users write them
// (Claude Code's keybindings.json documentation examples, Codex's
// [tui.keymap] and its older `keymap = "vim"`); a rebinding of a key the
// user-explicit send presses refuses it, an unrelated one does not, and a
// file that cannot be parsed is an error (refused too).
func TestKeymapRemapped(t *testing.T) {
	for _, c := range []struct {
		name, agent, file, body string
		want                    string // substring of why; "" for none; "error" for an error
	}{
		{name: "no files", agent: "claude"},
		{name: "no codex config", agent: "codex"},
		{name: "unrelated binding", agent: "claude", file: "keybindings.json",
			body: `{"bindings":[{"context":"Chat","bindings":{"ctrl+e":"chat:externalEditor","ctrl+u":null}}]}`},
		{name: "ctrl+s unbound", agent: "claude", file: "keybindings.json",
			body: `{"bindings":[{"context":"Chat","bindings":{"ctrl+s":null}}]}`, want: `rebinds "ctrl+s"`},
		{name: "enter rebound", agent: "claude", file: "keybindings.json",
			body: `{"bindings":[{"context":"Chat","bindings":{"Enter":"chat:newline"}}]}`, want: `rebinds "Enter"`},
		{name: "a chord after ctrl+s", agent: "claude", file: "keybindings.json",
			body: `{"bindings":[{"context":"Global","bindings":{"ctrl+s ctrl+d":"app:toggleTodos"}}]}`, want: "rebinds"},
		{name: "stash on another key", agent: "claude", file: "keybindings.json",
			body: `{"bindings":[{"context":"Chat","bindings":{"ctrl+t":"chat:stash"}}]}`, want: "binds chat:stash"},
		{name: "torn json", agent: "claude", file: "keybindings.json", body: `{"bindings":[{"context":`, want: "error"},
		{name: "empty json file", agent: "claude", file: "keybindings.json", body: "  \n"},
		{name: "codex without tui", agent: "codex", file: "config.toml", body: "model = \"gpt-5.5\"\n"},
		{name: "codex standard keymap", agent: "codex", file: "config.toml", body: "[tui]\nkeymap = \"standard\"\n"},
		{name: "codex vim keymap", agent: "codex", file: "config.toml", body: "[tui]\nkeymap = \"vim\"\n", want: "[tui.keymap]"},
		{name: "codex keymap table", agent: "codex", file: "config.toml",
			body: "[tui.keymap.editor]\nkill_line_start = \"ctrl-k\"\n", want: "[tui.keymap]"},
		{name: "codex vim mode", agent: "codex", file: "config.toml", body: "[tui]\nvim_mode = true\n", want: "tui.vim_mode"},
		{name: "codex bad toml", agent: "codex", file: "config.toml", body: "[tui\n", want: "error"},
		{name: "another agent", agent: "none"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.file != "" {
				if err := os.WriteFile(filepath.Join(dir, c.file), []byte(c.body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			why, err := remapped(dir, c.agent)
			switch {
			case c.want == "error":
				if err == nil {
					t.Fatalf("no error (why %q)", why)
				}
			case err != nil:
				t.Fatal(err)
			case c.want == "" && why != "":
				t.Fatalf("remapped: %s", why)
			case !strings.Contains(why, c.want):
				t.Fatalf("why %q, want it to say %q", why, c.want)
			}
		})
	}
}

// FuzzKeymap: any bytes in either agent's keybinding file give a reason,
// nothing, or an error; never a panic.
func FuzzKeymap(f *testing.F) {
	for _, s := range []string{
		`{"bindings":[{"context":"Chat","bindings":{"ctrl+s":null}}]}`,
		`{"bindings":[{"context":"Chat","bindings":{"ctrl+t":"chat:stash"}}]}`,
		`{"bindings":null}`, `[]`, "[tui]\nkeymap = \"vim\"\n", "[tui.keymap.editor]\nsubmit = [\"ctrl-j\"]\n", "[tui\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		for _, name := range []string{"keybindings.json", "config.toml"} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for _, agent := range []string{"claude", "codex"} {
			if why, err := remapped(dir, agent); err != nil && why != "" {
				t.Fatalf("%s: both a reason %q and an error %v", agent, why, err)
			}
		}
	})
}

// remapped asks agent (none: "") about the keybinding files in dir, the
// directory that holds its records root.
func remapped(dir, agent string) (string, error) {
	a, ok := Lookup(agent)
	if !ok {
		return "", nil
	}
	return a.Remapped(filepath.Join(dir, "records"))
}
