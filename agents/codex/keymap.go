package codex

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/agent-knock-knock/akk/agents"
)

// remapped says why the user's config.toml may change the keys a
// user-explicit send presses (ctrl+u kills to the line start, Enter
// submits): its [tui.keymap] or its vim mode ("" when it cannot).
func remapped(path string) (string, error) {
	data, ok, err := agents.ReadConfig(path)
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
