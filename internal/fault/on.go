//go:build akkfault

package fault

import (
	"os"
	"syscall"
)

// Enabled reports whether this binary was built with the fault hook.
const Enabled = true

var armed = os.Getenv("AKK_FAULT")

// Point kills the process (SIGKILL: no deferred function, no flush) when
// AKK_FAULT names this point. When AKK_FAULT_MARK is set, the point's name
// is first written to that file so the test knows the kill came from here.
func Point(name string) {
	if armed == "" || name != armed {
		return
	}
	if mark := os.Getenv("AKK_FAULT_MARK"); mark != "" {
		_ = os.WriteFile(mark, []byte(name+"\n"), 0o600)
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // the signal is on its way
}

// Hit reports whether AKK_FAULT names this point, for a fault the caller
// makes itself instead of dying (a control connection ended with tmux's
// own %exit). It reads the environment at each call, so a test of an
// in-process daemon arms it with t.Setenv.
func Hit(name string) bool { return os.Getenv("AKK_FAULT") == name }
