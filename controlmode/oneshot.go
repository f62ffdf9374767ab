package controlmode

import (
	"context"
	"os/exec"
)

// Command is a one-shot tmux command on the server at socket ("": the
// server the environment names, $TMUX's or the default one), outside any
// control client: what a command line or a person's face asks once. It
// runs tmux with -u, so that tmux writes UTF-8 whatever the locale (a C
// locale would turn a session's name into underscores). The caller runs
// it (Output, Run, CombinedOutput) and may set its environment. Every
// tmux akk runs goes through here or a Client.
func Command(ctx context.Context, socket string, args ...string) *exec.Cmd {
	full := []string{"-u"}
	if socket != "" {
		full = append(full, "-S", socket)
	}
	return exec.CommandContext(ctx, "tmux", append(full, args...)...)
}
