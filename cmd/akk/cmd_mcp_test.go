package main

import "testing"

func TestMCPCmdValidate(t *testing.T) {
	tests := []struct {
		http string
		ok   bool
	}{
		{"", true},
		{"127.0.0.1:8765", true},
		{"[::1]:8765", true},
		{"localhost:0", true},
		{"0.0.0.0:8765", false},
		{":8765", false},
		{"192.0.2.1:8765", false},
		{"example.com:80", false},
		{"127.0.0.1", false},
	}
	for _, tc := range tests {
		err := (&MCPCmd{HTTP: tc.http}).Validate()
		if (err == nil) != tc.ok {
			t.Errorf("--http %q: err %v, want ok=%v", tc.http, err, tc.ok)
		}
	}
}
