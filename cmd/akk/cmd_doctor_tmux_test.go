package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxDoctorServer: the doctor checks the tmux server the daemon
// attached to unless -S names another, and a running daemon's server that
// does not answer is tmux_unavailable (exit 7), whether the doctor finds
// it gone or the daemon says so.
func TestTmuxDoctorServer(t *testing.T) {
	srv := tmuxtest.Start(t, 80, 24, "sh")
	gone := filepath.Join(t.TempDir(), "gone")
	for _, tc := range []struct {
		name     string
		doctor   DoctorCmd
		h        *api.Health
		daemon   check
		ok, tmux bool
		detail   string
	}{
		{"the daemon's", DoctorCmd{}, &api.Health{TmuxSocket: srv.Socket}, check{OK: true}, true, false, "the daemon's " + srv.Socket + ": 1 sessions"},
		{"the daemon's, gone", DoctorCmd{}, &api.Health{TmuxSocket: gone}, check{OK: true}, false, true, "no tmux server on " + gone + " (the daemon's)"},
		{"-S over the daemon's", DoctorCmd{TmuxFlags: TmuxFlags{S: srv.Socket}}, &api.Health{TmuxSocket: gone}, check{OK: true}, true, false, srv.Socket + ": 1 sessions"},
		{"no daemon, -S gone", DoctorCmd{TmuxFlags: TmuxFlags{S: gone}}, nil, check{}, false, false, "no tmux server on " + gone},
		{"the daemon says", DoctorCmd{}, nil, check{tmuxGone: true}, false, true, "the daemon's tmux server does not answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, tmuxGone := tc.doctor.checkServer(tc.h, tc.daemon)
			if ch.OK != tc.ok || tmuxGone != tc.tmux || !strings.Contains(ch.Detail, tc.detail) {
				t.Errorf("got %+v tmuxGone %v, want ok %v tmuxGone %v detail %q", ch, tmuxGone, tc.ok, tc.tmux, tc.detail)
			}
		})
	}
}
