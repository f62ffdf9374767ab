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
