package procid

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTableLive: on the real /proc, a child started with a marker in its
// environment is found by it (and this process, which lacks it, is not),
// its command name is read, it descends from this process, and a file
// this process holds open is among its descriptors with its identity.
func TestTableLive(t *testing.T) {
	kv := "AKK_TABLE_TEST=" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), kv)
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if got := WithEnv(kv); !slices.Equal(got, []int{cmd.Process.Pid}) {
		t.Errorf("WithEnv = %v, want [%d]", got, cmd.Process.Pid)
	}
	if got := Comm(cmd.Process.Pid); got != "sleep" {
		t.Errorf("Comm = %q", got)
	}
	var tab Table
	if !tab.SelfSet([]int{os.Getpid()})[cmd.Process.Pid] {
		t.Error("the child is not in this process's self set")
	}
	path := filepath.Join(t.TempDir(), "held.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files, err := tab.Files(os.Getpid(), func(base string) bool { return strings.HasPrefix(base, "held.") })
	if err != nil || len(files) != 1 || files[0].Target != path || files[0].Info == nil {
		t.Fatalf("Files = %+v, %v", files, err)
	}
	if _, err := tab.Files(1<<30, func(string) bool { return true }); !os.IsNotExist(err) {
		t.Errorf("a process that is gone: %v, want not-exist", err)
	}
}
