package watchers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Keymap reads the agents' own keybinding configuration, which decides
// what the keys akk presses in a user-explicit send do (Claude Code:
// ctrl+s stashes, Enter submits; Codex: ctrl+u kills to the line start,
// Enter submits). Both agents let a user rebind them: Claude Code in
// keybindings.json (re-read while it runs), Codex in config.toml's
// [tui.keymap] (or its vim mode). A rebinding akk cannot rule out refuses
// the send before any input.
type Keymap struct {
	ClaudeDir string // Claude Code's config directory (~/.claude): keybindings.json
	CodexHome string // $CODEX_HOME (~/.codex): config.toml
}

// maxKeymapFile bounds what is read of a configuration file.
const maxKeymapFile = 1 << 20

// Remapped says why agent's keybindings may change the keys a
// user-explicit send presses ("" when they cannot). A file that cannot
// be read or parsed is an error: the caller refuses.
func (k Keymap) Remapped(agent string) (string, error) {
	switch evidence.Agent(agent) {
	case evidence.Claude:
		return claudeRemapped(filepath.Join(k.ClaudeDir, "keybindings.json"))
	case evidence.Codex:
		return codexRemapped(filepath.Join(k.CodexHome, "config.toml"))
	}
	return "", nil
}

// readConfig reads a small configuration file; absent is no remapping.
func readConfig(path string) ([]byte, bool, error) {
	if path == "" || filepath.Dir(path) == "." {
		return nil, false, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeymapFile+1))
	if err != nil {
		return nil, false, err
	}
	if len(b) > maxKeymapFile {
		return nil, false, fmt.Errorf("%s: over %d bytes", path, maxKeymapFile)
	}
	return b, true, nil
}

// claudeKeys are the strokes and actions of Claude Code's composer that
// a user-explicit send relies on.
var (
	claudeKeys    = []string{"ctrl+s", "enter", "return"}
	claudeActions = []string{"chat:stash", "chat:submit"}
)

func claudeRemapped(path string) (string, error) {
	data, ok, err := readConfig(path)
	if err != nil || !ok || len(strings.TrimSpace(string(data))) == 0 {
		return "", err
	}
	var file struct {
		Bindings []struct {
			Context  string             `json:"context"`
			Bindings map[string]*string `json:"bindings"`
		} `json:"bindings"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	for _, blk := range file.Bindings {
		for key, action := range blk.Bindings {
			first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(key)), " ")
			if slices.Contains(claudeKeys, first) {
				return fmt.Sprintf("%s rebinds %q (context %s): akk's user-explicit send presses it", path, key, blk.Context), nil
			}
			if action != nil && slices.Contains(claudeActions, *action) {
				return fmt.Sprintf("%s binds %s to %q: akk's user-explicit send relies on its default key", path, *action, key), nil
			}
		}
	}
	return "", nil
}

func codexRemapped(path string) (string, error) {
	data, ok, err := readConfig(path)
	if err != nil || !ok {
		return "", err
	}
	var cfg struct {
		TUI map[string]any `toml:"tui"`
	}
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	for key, v := range cfg.TUI {
		switch {
		case key == "keymap":
			if s, ok := v.(string); ok && s == "standard" {
				continue // the default editing mode, spelled out
			}
			return fmt.Sprintf("%s sets [tui.keymap]: akk's user-explicit send relies on Codex's default keys", path), nil
		case strings.Contains(key, "vim"):
			if b, ok := v.(bool); ok && !b {
				continue
			}
			return fmt.Sprintf("%s sets tui.%s: a modal composer takes keys differently", path, key), nil
		}
	}
	return "", nil
}
