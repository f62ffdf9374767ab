package rig

import (
	"testing"
)

func TestKeyBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		app  bool
		want string
	}{
		{"Enter", false, "\r"}, {"Escape", false, "\x1b"}, {"Tab", false, "\t"},
		{"Up", false, "\x1b[A"}, {"Up", true, "\x1bOA"}, {"Down", true, "\x1bOB"},
		{"M-Up", false, "\x1b[1;3A"}, {"C-]", false, "\x1d"}, {"2", false, "2"}, {"y", false, "y"},
	} {
		got, err := keyBytes(tc.name, tc.app)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s (app %v) = %q, %v; want %q", tc.name, tc.app, got, err, tc.want)
		}
	}
	if _, err := keyBytes("Hyper", false); err == nil {
		t.Error("unknown key accepted")
	}
}

func TestVersionAtLeast(t *testing.T) {
	for _, tc := range []struct {
		v, min string
		want   bool
	}{
		{"2.1.332", "2.1.332", true}, {"2.1.333", "2.1.332", true}, {"2.1.267", "2.1.332", false},
		{"2.2.0", "2.1.332", true}, {"0.171.0", "0.171", true}, {"0.155.1", "0.171.0", false},
	} {
		if got := VersionAtLeast(tc.v, tc.min); got != tc.want {
			t.Errorf("VersionAtLeast(%s, %s) = %v", tc.v, tc.min, got)
		}
	}
}
