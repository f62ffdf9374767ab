package sessions

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func FuzzParrotLine(f *testing.F) {
	f.Add([]byte(strings.Join([]string{header("s"), prompt("turn-1", "hi"), reply("turn-1", "hi"), end("turn-1", "completed")}, "\n")))
	f.Add([]byte(strings.Join([]string{prompt("turn-1", "run ls"), call("turn-1", "c", "ls"), result("turn-1", "c", "cancel"), end("turn-1", "declined"),
		end("turn-9", "completed"), header("s2")}, "\n")))
	f.Add([]byte("{}\n[]\nnull\n\"x\"\n{\"type\":1}\n{\"type\":\"prompt\",\"turn\":\"t\",\"text\":[1]}"))
	// The recorded sessions (../testdata), a few lines a seed.
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*.session.jsonl"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(b, []byte("\n"))
		for i := 0; i < len(lines); i += 4 {
			f.Add(bytes.Join(lines[i:min(i+4, len(lines))], nil))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evidencetest.Lines(t, func() evidence.Parser { return NewParser() }, data)
	})
}
