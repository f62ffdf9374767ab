package vt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/internal/streamgen"
)

// Minimising a failing stream, ddmin style: first whole operations, then
// single bytes, while the stream keeps showing a difference of the same kind.
// A difference that needs the stream's chunking (a model bug in carrying
// state across writes) is first reduced to the few cuts that matter, and
// those cuts travel with the bytes while the stream shrinks.

// diffCategories orders the kinds of difference by how much they matter;
// minimising keeps the most important kind a stream showed, so that it
// does not drift to a lesser one.
var diffCategories = []string{"row", "cursor", "alternate", "scroll", "modes", "history", "title"}

func category(diff string) string {
	for _, c := range diffCategories {
		if strings.HasPrefix(diff, c) {
			return c
		}
	}
	return ""
}

func mainCategory(diffs []string) string {
	for _, c := range diffCategories {
		for _, d := range diffs {
			if category(d) == c {
				return c
			}
		}
	}
	return ""
}

// unit is one byte of a stream and whether a write boundary comes before it.
type unit struct {
	b   byte
	cut bool
}

func toUnits(data []byte, cuts map[int]bool, from int) []unit {
	out := make([]unit, len(data))
	for i, b := range data {
		out[i] = unit{b: b, cut: cuts[from+i]}
	}
	return out
}

// fromUnits returns the bytes and the write boundaries (nil if none).
func fromUnits(us []unit) (data []byte, cuts []int) {
	data = make([]byte, len(us))
	for i, u := range us {
		data[i] = u.b
		if u.cut && i > 0 {
			cuts = append(cuts, i)
		}
	}
	return data, cuts
}

// chunksAt cuts data at the given offsets.
func chunksAt(data []byte, cuts []int) [][]byte {
	var out [][]byte
	prev := 0
	for _, c := range cuts {
		out = append(out, data[prev:c])
		prev = c
	}
	return append(out, data[prev:])
}

// minimiseFailure shrinks a failing stream while it keeps showing a
// difference of kind cat, logs it, and writes it to testdata/regress when
// AKK_VT_WRITE_REGRESS=1. v is tmux's view of the whole stream.
func minimiseFailure(t *testing.T, rig *tmuxRig, title string, s streamgen.Stream, v *tmuxView, cat string) {
	t.Helper()
	o := &oracleProbe{t: t, rig: rig, title: title, w: s.Width, h: s.Height, cat: cat,
		budget: envInt(t, "AKK_VT_MINIMISE_BUDGET", 400)}
	cuts := map[int]bool{}
	if _, ok := o.fails(s.Data, nil); !ok {
		o.chunked = true
		cuts = o.essentialCuts(s, v)
		if cuts == nil {
			t.Logf("seed %d: the difference did not come back when replayed; not minimised", s.Seed)
			return
		}
	}
	pieces := make([][]unit, len(s.Ops))
	for i, op := range s.Ops {
		pieces[i] = toUnits(s.Data[op.Start:op.End], cuts, op.Start)
	}
	small, smallCuts, first, trials := o.minimise(pieces)
	how := "fails written whole and byte by byte"
	if o.chunked {
		how = fmt.Sprintf("fails only when written in pieces cut at %v", smallCuts)
	}
	t.Logf("minimised seed %d to %d bytes in %d tmux runs (%dx%d, %s): %q\nfirst difference: %s",
		s.Seed, len(small), trials, s.Width, s.Height, how, small, first)
	if os.Getenv("AKK_VT_WRITE_REGRESS") != "1" {
		return
	}
	path := filepath.Join("testdata", "regress", fmt.Sprintf("seed-%d.txt", s.Seed))
	note := fmt.Sprintf("seed %d of streamgen, minimised; first difference: %s", s.Seed, first)
	c := regressCase{Note: note, Width: s.Width, Height: s.Height, Data: small}
	if o.chunked {
		c.Cuts = smallCuts
	}
	if err := writeRegress(path, c); err != nil {
		t.Errorf("write %s: %v", path, err)
		return
	}
	t.Logf("wrote %s", path)
}

// oracleProbe runs candidate streams through tmux and the model.
type oracleProbe struct {
	t     *testing.T
	rig   *tmuxRig
	title string
	w, h  int
	cat   string
	// budget is how many candidates minimise may try.
	budget int
	// chunked: the difference needs particular write boundaries, which
	// candidates carry along (see unit).
	chunked bool
}

// fails runs data through tmux and the model: written at the given cuts
// when the probe is chunked, else in one write and one byte per write. It
// returns the first difference of the probe's kind.
func (o *oracleProbe) fails(data []byte, cuts []int) (string, bool) {
	v, err := o.rig.Run(context.Background(), data, o.w, o.h)
	if err != nil {
		o.t.Logf("tmux: %v", err)
		return "", false
	}
	feeds := [][][]byte{chunksAt(data, cuts)}
	if !o.chunked {
		feeds = [][][]byte{{data}, splitBytes(data)}
	}
	for _, chunks := range feeds {
		if d, ok := o.check(v, chunks); ok {
			return d, true
		}
	}
	return "", false
}

// check feeds the model chunks and compares it with tmux's view v.
func (o *oracleProbe) check(v *tmuxView, chunks [][]byte) (string, bool) {
	c, err := v.parse()
	if err != nil {
		o.t.Logf("tmux capture: %v", err)
		return "", false
	}
	m := newModel(o.w, o.h)
	for _, chunk := range chunks {
		m.Write(chunk)
	}
	m.Write(v.Marker)
	for _, d := range compareScreen(m, v, c, o.title) {
		if category(d) == o.cat {
			return d, true
		}
	}
	return "", false
}

// essentialCuts reduces the stream's write boundaries to a few that still
// make the model differ from tmux's view v of the whole stream (no tmux
// runs needed: the bytes do not change). It returns nil if even all of
// them do not.
func (o *oracleProbe) essentialCuts(s streamgen.Stream, v *tmuxView) map[int]bool {
	var all []int
	off := 0
	for _, n := range s.Chunks[:len(s.Chunks)-1] {
		off += n
		all = append(all, off)
	}
	failsWith := func(cuts []int) bool {
		_, ok := o.check(v, chunksAt(s.Data, cuts))
		return ok
	}
	if !failsWith(all) {
		return nil
	}
	budget := 5000
	cuts := map[int]bool{}
	for _, c := range ddmin(all, failsWith, &budget) {
		cuts[c] = true
	}
	return cuts
}

// minimise shrinks pieces (operations) and then bytes, keeping each byte's
// cut flag. It returns the stream, its cuts, the first difference and the
// number of candidates tried.
func (o *oracleProbe) minimise(pieces [][]unit) (data []byte, cuts []int, first string, trials int) {
	budget := o.budget
	try := func(items [][]unit) bool {
		trials++
		data, cuts := fromUnits(joinUnits(items))
		d, ok := o.fails(data, cuts)
		if ok {
			first = d
		}
		return ok
	}
	if !try(pieces) {
		data, cuts := fromUnits(joinUnits(pieces))
		return data, cuts, "(does not fail when replayed)", trials
	}
	pieces = ddmin(pieces, try, &budget)
	if us := joinUnits(pieces); len(us) <= 4000 {
		single := make([][]unit, len(us))
		for i := range us {
			single[i] = us[i : i+1]
		}
		pieces = ddmin(single, try, &budget)
	}
	data, cuts = fromUnits(joinUnits(pieces))
	return data, cuts, first, trials
}

func joinUnits(items [][]unit) []unit {
	var out []unit
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

// ddmin removes ever smaller runs of items while the rest still fails.
func ddmin[T any](items []T, fails func([]T) bool, budget *int) []T {
	n := 2
	for len(items) >= 2 && *budget > 0 {
		size := (len(items) + n - 1) / n
		reduced := false
		for start := 0; start < len(items) && *budget > 0; start += size {
			cand := append(append([]T{}, items[:start]...), items[min(start+size, len(items)):]...)
			*budget--
			if fails(cand) {
				items, n, reduced = cand, max(n-1, 2), true
				break
			}
		}
		if !reduced {
			if n >= len(items) {
				break
			}
			n = min(2*n, len(items))
		}
	}
	return items
}

func splitBytes(data []byte) [][]byte {
	out := make([][]byte, len(data))
	for i := range data {
		out[i] = data[i : i+1]
	}
	return out
}
