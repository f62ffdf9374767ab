package vt

import (
	"context"
	"fmt"
	"testing"

	"github.com/agent-knock-knock/akk/internal/benchinput"
)

// TestTmuxOracleBench is issue 2 item 1(b): the benchmark's agent-TUI and
// log streams, at several lengths (each a snapshot after that many bytes),
// through tmux and through the model in 4 KiB writes cut both at any byte
// and at UTF-8 boundaries, as the benchmarks feed them.
func TestTmuxOracleBench(t *testing.T) {
	rig := newTmuxRig(t)
	title := rig.initialTitle(t)
	for _, in := range []struct {
		name string
		gen  func(int) []byte
		n    int
	}{
		{"agent", benchinput.Agent, 16 << 10},
		{"agent", benchinput.Agent, 200 << 10},
		{"agent", benchinput.Agent, 1 << 20},
		{"log", benchinput.Log, 16 << 10},
		{"log", benchinput.Log, 1 << 20},
	} {
		data := in.gen(in.n)
		t.Run(fmt.Sprintf("%s/%dKiB", in.name, in.n>>10), func(t *testing.T) {
			v, err := rig.Run(context.Background(), data, benchinput.Width, benchinput.Height)
			if err != nil {
				t.Fatal(err)
			}
			for _, cut := range benchinput.Cuts {
				chunks := benchinput.Chunks(data, 4096, cut)
				if diffs, rep := checkStream(t, data, chunks, benchinput.Width, benchinput.Height, v, title); diffs != nil {
					t.Errorf("cut at %s:\n%s", cut, rep)
				}
			}
		})
	}
}
