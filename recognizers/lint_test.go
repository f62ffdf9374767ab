package recognizers

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbidden are imports that would make the package impure: I/O, clocks,
// cancellation, the control connection, the store, the supervisor.
// Recordings stay out too: a recording must be able to prove a profile
// wrong, so the profiles never read one (replaycheck does).
var forbidden = []string{
	"os", "time", "context", "net", "syscall", "io/fs", "io/ioutil", "path/filepath", "os/exec",
	"math/rand", "math/rand/v2", "crypto/rand", "unsafe", "runtime",
	"github.com/agent-knock-knock/akk/controlmode",
	"github.com/agent-knock-knock/akk/store",
	"github.com/agent-knock-knock/akk/supervisor",
	"github.com/agent-knock-knock/akk/recordings",
	"github.com/agent-knock-knock/akk/watchers",
	"github.com/agent-knock-knock/akk/api",
}

// TestLintImports keeps recognizers pure (STYLE.md: no os, time,
// context, controlmode or store imports), pebble-lint style.
func TestLintImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			for _, bad := range forbidden {
				if path == bad || strings.HasPrefix(path, bad+"/") {
					t.Errorf("%s imports %s: recognizers is pure", name, path)
				}
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d files checked", checked)
	}
}
