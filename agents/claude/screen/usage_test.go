package screen

import "testing"

// TestClaudeResetShown: the reset time of Claude Code's usage-limit
// screen is reported only in the forms its recordings print ("9:36pm
// (UTC)", "10pm (UTC)"); any other form, malformed or not recorded (a
// date, a 24-hour clock, a space before pm), leaves it empty.
func TestClaudeResetShown(t *testing.T) {
	for _, c := range []struct{ slot, want string }{
		{"9:36pm (UTC)", "9:36pm (UTC)"},
		{"10pm (UTC)", "10pm (UTC)"},
		{"12:05am (UTC)", "12:05am (UTC)"},
		{"1am (Europe/Berlin)", "1am (Europe/Berlin)"},
		{"11:59pm (America/Argentina/Buenos_Aires)", "11:59pm (America/Argentina/Buenos_Aires)"},
		{"7pm (Etc/GMT+5)", "7pm (Etc/GMT+5)"},
		// Not the recorded forms.
		{"Dec 3, 9:36pm (UTC)", ""},
		{"21:36 (UTC)", ""},
		{"9:36 pm (UTC)", ""},
		{"9:36PM (UTC)", ""},
		{"9.36pm (UTC)", ""},
		{"9:36pm", ""},
		// Malformed.
		{"", ""},
		{" (UTC)", ""},
		{"pm (UTC)", ""},
		{"0pm (UTC)", ""},
		{"13pm (UTC)", ""},
		{"09pm (UTC)", ""},
		{"9:6pm (UTC)", ""},
		{"9:60pm (UTC)", ""},
		{"9:360pm (UTC)", ""},
		{"9:pm (UTC)", ""},
		{"9:36pmx (UTC)", ""},
		{"9:36pm ()", ""},
		{"9:36pm (UTC", ""},
		{"9:36pm (U TC)", ""},
		{"9:36pm (../etc)", ""},
		{"9:36pm (Europe//Berlin)", ""},
		{"9:36pm (/UTC)", ""},
		{"9:36pm (1UTC)", ""},
		{"9:36pm (UTC) (UTC)", ""},
	} {
		got := ""
		if tm, zone, ok := splitZone(c.slot); ok {
			got = claudeResetShown(tm, zone)
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.slot, got, c.want)
		}
	}
}

// TestClaudeUsageLimitsRegistered: the usage-limit table names only
// registered grammars.
func TestClaudeUsageLimitsRegistered(t *testing.T) {
	known := claudeRegistered()
	for c := range claudeUsageLimitsOf {
		if !known[c] {
			t.Errorf("claudeUsageLimitsOf names an unregistered grammar %p", c)
		}
	}
}
