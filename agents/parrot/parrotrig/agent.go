package parrotrig

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// program is the name of Parrot's program, and of the package.json the
// build writes beside it (its process rule reads the version there).
const program = "akk-parrot"

func init() {
	rig.Register(rig.Agent{Name: "parrot", Bin: program, Build: build,
		World: func(h *rig.Home, _ *rig.Scenario, _, _ string) ([]string, error) {
			return []string{"HOME=" + h.Home, "TERM=xterm-256color", "LANG=C.UTF-8", "PATH=/usr/bin:/bin"}, nil
		},
		JournalGlob: ".parrot/sessions/*.jsonl",
		JournalKind: "session",
		Scenarios:   scenarios(),
	})
}

// source is the program's package directory (../parrotagent from this
// file).
func source() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(filepath.Dir(file)), "parrotagent")
}

// build builds the program into dir and writes its package.json: the
// version asked must be the one its source says (akk-parrot --version).
func build(ctx context.Context, version, dir string) error {
	bin := filepath.Join(dir, program)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	cmd.Dir = source()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w: %s", err, bytes.TrimSpace(out))
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return fmt.Errorf("%s --version: %w", program, err)
	}
	if v := strings.TrimSpace(string(out)); v != version {
		return fmt.Errorf("the source is version %s, not %s", v, version)
	}
	pkg := fmt.Sprintf(`{"name":%q,"version":%q}`+"\n", program, version)
	return os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644)
}

// steps is the rig's driver with Parrot's own steps.
type steps struct {
	*rig.Steps
	d *rig.Driver
}

// drive is the Drive of a scenario made of Parrot's steps.
func drive(f func(s steps)) func(*rig.Steps) {
	return func(s *rig.Steps) { f(steps{s, s.Driver()}) }
}
