package supervisor

import (
	"context"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxListSessionsCLocale: a daemon started without a UTF-8 locale
// (env -i, cron, a bare ssh) still reads the server's sessions: tmux 3.3a
// prints a format's tab as "_" to a client it does not take for UTF-8,
// which broke `akk attach` (found by the security probe run); akk's tmux
// commands say -u.
func TestTmuxListSessionsCLocale(t *testing.T) {
	tmuxtest.RequireTmux(t)
	srv := tmuxtest.Start(t, 80, 24, "sh")
	var env []string
	for _, kv := range srv.Env {
		if !strings.HasPrefix(kv, "LANG=") && !strings.HasPrefix(kv, "LC_") {
			env = append(env, kv)
		}
	}
	s := &Supervisor{cfg: Config{TmuxSocket: srv.Socket, TmuxEnv: append(env, "LANG=C", "LC_ALL=C")}}
	server, sessions, err := s.listSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if server.PID == 0 || len(sessions) != 1 || sessions[0].Name != "main" {
		t.Fatalf("server %+v sessions %+v", server, sessions)
	}
}
