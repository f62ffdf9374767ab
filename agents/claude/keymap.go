package claude

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/agents"
)

// keys are the strokes and actions of Claude Code's composer that
// a user-explicit send relies on.
var (
	keys    = []string{"ctrl+s", "enter", "return"}
	actions = []string{"chat:stash", "chat:submit"}
)

func remapped(path string) (string, error) {
	data, ok, err := agents.ReadConfig(path)
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
			if slices.Contains(keys, first) {
				return fmt.Sprintf("%s rebinds %q (context %s): akk's user-explicit send presses it", path, key, blk.Context), nil
			}
			if action != nil && slices.Contains(actions, *action) {
				return fmt.Sprintf("%s binds %s to %q: akk's user-explicit send relies on its default key", path, *action, key), nil
			}
		}
	}
	return "", nil
}
