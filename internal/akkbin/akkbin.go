// Package akkbin builds the akk command once per test binary, for tests
// that run it as a process: replicas in panes, `akk attach`, `akk mcp`,
// `akk popup`. A test package calls Main from its TestMain so that the
// build is removed when the tests end.
package akkbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var (
	once sync.Once
	bin  string
	dir  string
	err  error
)

// Build returns the path of an akk binary built from this checkout,
// building it on first use.
func Build(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		if dir, err = os.MkdirTemp("", "akk-bin-"); err != nil {
			return
		}
		bin = filepath.Join(dir, "akk")
		out, berr := exec.Command("go", "build", "-o", bin, "github.com/agent-knock-knock/akk/cmd/akk").CombinedOutput()
		if berr != nil {
			err = fmt.Errorf("go build akk: %v\n%s", berr, out)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// Main runs the tests and removes the build.
func Main(m *testing.M) {
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

var (
	faultOnce sync.Once
	faultBin  string
	faultErr  error
)

// BuildFault returns an akk binary built with the fault hook (-tags
// akkfault: AKK_FAULT kills it at a named point), for a crash test whose
// daemon runs as a process of its own (another user's, over ssh).
func BuildFault(t testing.TB) string {
	t.Helper()
	Build(t) // the directory, removed by Main
	faultOnce.Do(func() {
		faultBin = filepath.Join(dir, "akk-fault")
		out, berr := exec.Command("go", "build", "-tags", "akkfault", "-o", faultBin, "github.com/agent-knock-knock/akk/cmd/akk").CombinedOutput()
		if berr != nil {
			faultErr = fmt.Errorf("go build -tags akkfault akk: %v\n%s", berr, out)
		}
	})
	if faultErr != nil {
		t.Fatal(faultErr)
	}
	return faultBin
}

// Stop ends an akk process the test started, by its pid, with sig
// (os.Interrupt as a person at its terminal, SIGTERM as a service manager)
// and waits up to d for it to exit; one still running then is killed and
// reaped. The error says how it did not end cleanly: killed after d, or
// its exit status.
func Stop(cmd *exec.Cmd, sig os.Signal, d time.Duration) error {
	cmd.Process.Signal(sig)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return fmt.Errorf("did not end within %v of %v: killed", d, sig)
	}
}
