package clauderig

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUserTheme: the user's theme is read from ~/.claude.json's "theme"
// key alone; the rig's own dark theme, a missing file or key, and a
// value that is no theme name change nothing.
func TestUserTheme(t *testing.T) {
	for _, tc := range []struct {
		body, want string
	}{
		{`{"theme":"light","numStartups":40,"oauthAccount":{"emailAddress":"x@y"}}`, "theme-light"},
		{`{"theme":"light-daltonized"}`, "theme-light-daltonized"},
		{`{"theme":"dark"}`, ""},
		{`{"numStartups":3}`, ""},
		{`{"theme":"../../etc"}`, ""},
		{`not json`, ""},
		{"", ""}, // no file
	} {
		home := t.TempDir()
		if tc.body != "" {
			if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		e, ok := userTheme(home)
		if got := map[bool]string{true: e.Suffix}[ok]; got != tc.want || ok && e.Apply == nil {
			t.Errorf("%s: %q, want %q", tc.body, got, tc.want)
		}
	}
}
