package main

import "testing"

// TestInGoBuildCache: tmux-conf refuses a binary `go run` left in Go's
// build cache or a go-build temporary directory, and takes any other.
func TestInGoBuildCache(t *testing.T) {
	caches := []string{"", "off", "/home/me/.cache/go-build"}
	for _, tc := range []struct {
		bin  string
		want bool
	}{
		{"/home/me/.cache/go-build/3f/3f0a-d/akk", true},
		{"/tmp/go-build3382308563/b001/exe/akk", true},
		{"/home/me/go/bin/akk", false},
		{"/home/me/.cache/go-buildx/akk", true}, // a go-build* directory
		{"/home/me/.cache/akk", false},
		{"/usr/local/bin/akk", false},
	} {
		if got := inGoBuildCache(tc.bin, caches); got != tc.want {
			t.Errorf("inGoBuildCache(%q) = %v, want %v", tc.bin, got, tc.want)
		}
	}
}
