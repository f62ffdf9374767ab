package vt

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/streamgen"
)

// The differential test of issue 2, item 1: generated streams go through a
// real tmux 3.3a pane and through the model, and the screens must agree
// cell for cell (see oracle_compare_test.go for what is compared).
//
//	go test -run 'TestTmuxOracle$' ./vt                  seeds 1..300
//	AKK_VT_SEEDS=1000-5000 go test -run 'TestTmuxOracle$' ./vt
//	go test -run 'TestTmuxOracle$/seed=17$' -v ./vt      one seed
//
// A failing stream is minimised (AKK_VT_MINIMISE=n streams per run, default
// 3, each trying up to AKK_VT_MINIMISE_BUDGET=400 candidates) and, with
// AKK_VT_WRITE_REGRESS=1, written to testdata/regress, which
// TestTmuxOracleRegress always replays.
//
// The other oracle tests: TestTmuxOracleBench (the benchmark streams),
// TestTmuxOracleSelfCheck (the comparison sees what it must), and
// TestTmuxRuneWidths (character widths measured in tmux).

// ciSeeds is the seed range every CI run checks.
const ciSeeds = "1-300"

func TestTmuxOracle(t *testing.T) {
	spec := os.Getenv("AKK_VT_SEEDS")
	if spec == "" {
		spec = ciSeeds
	}
	seeds, err := parseSeeds(spec)
	if err != nil {
		t.Fatalf("AKK_VT_SEEDS: %v", err)
	}
	streams := make([]streamgen.Stream, len(seeds))
	for i, seed := range seeds {
		streams[i] = streamgen.Generate(seed)
	}
	checkCoverage(t, streams)

	rig := newTmuxRig(t)
	title := rig.initialTitle(t)
	pre := newPrefetcher(rig, streams, 4)
	minimiseLeft := envInt(t, "AKK_VT_MINIMISE", 3)
	start := time.Now()
	for i, s := range streams {
		t.Run(fmt.Sprintf("seed=%d", s.Seed), func(t *testing.T) {
			res := pre.get(i)
			if res.err != nil {
				t.Fatal(res.err)
			}
			diffs, rep := checkStreamRetrying(t, rig, s.Data, s.ChunkData(), s.Width, s.Height, res.view, title)
			if diffs == nil {
				return
			}
			t.Errorf("seed %d, %dx%d, %d ops, families %v:\n%s", s.Seed, s.Width, s.Height, len(s.Ops), s.Families.List(), rep)
			if minimiseLeft > 0 {
				minimiseLeft--
				minimiseFailure(t, rig, title, s, res.view, mainCategory(diffs))
			}
		})
	}
	t.Logf("%d streams through tmux and the model in %v", len(streams), time.Since(start).Round(time.Millisecond))
}

// checkCoverage logs how many streams exercised each family and fails when
// a family was never generated (only for sets large enough to expect all).
func checkCoverage(t *testing.T, streams []streamgen.Stream) {
	t.Helper()
	counts := make(map[streamgen.Family]int)
	for _, s := range streams {
		for _, f := range s.Families.List() {
			counts[f]++
		}
	}
	var b strings.Builder
	for _, f := range streamgen.Families() {
		fmt.Fprintf(&b, "  %-28s %d\n", f, counts[f])
	}
	t.Logf("streams exercising each family (of %d):\n%s", len(streams), b.String())
	if len(streams) < 100 {
		return
	}
	for _, f := range streamgen.Families() {
		if counts[f] == 0 {
			t.Errorf("family %q was never generated", f)
		}
	}
}

// checkStream feeds the model the stream in the given chunks, then the sync
// marker tmux also got, and compares. It returns nil when they agree, else
// the differences and a readable report.
func checkStream(t *testing.T, data []byte, chunks [][]byte, w, h int, v *tmuxView, title string) ([]string, string) {
	t.Helper()
	c, err := v.parse()
	if err != nil {
		t.Fatalf("tmux capture: %v\n%q", err, v.Capture)
	}
	m := newModel(w, h)
	for _, chunk := range chunks {
		m.Write(chunk)
	}
	m.Write(v.Marker)
	diffs := compareScreen(m, v, c, title)
	if diffs == nil {
		return nil, ""
	}
	rep := report(diffs, m, v, c, data)
	whole := newModel(w, h)
	whole.Write(data)
	whole.Write(v.Marker)
	if compareScreen(whole, v, c, title) == nil {
		rep += "NOTE: the model agrees with tmux when fed the stream in one write: a chunking bug\n"
	}
	return diffs, rep
}

// joinerRetries is how many more times a stream holding a zero width
// joiner goes through tmux when the model differs. tmux forgets a pending
// joiner between two reads from the pty (screen_write_start zeroes the
// write context for each read, flags included), so where its reads happen
// to fall changes its screen, and nothing fed the same bytes can know where
// they fell. Such a stream passes if any tmux run agrees with the model.
const joinerRetries = 4

// checkStreamRetrying is checkStream with joinerRetries.
func checkStreamRetrying(t *testing.T, rig *tmuxRig, data []byte, chunks [][]byte, w, h int, v *tmuxView, title string) ([]string, string) {
	t.Helper()
	diffs, rep := checkStream(t, data, chunks, w, h, v, title)
	if diffs == nil || !bytes.Contains(data, []byte("\u200d")) {
		return diffs, rep
	}
	screens := map[string]bool{string(v.Capture): true}
	for run := 2; run <= 1+joinerRetries; run++ {
		again, err := rig.Run(context.Background(), data, w, h)
		if err != nil {
			t.Logf("tmux rerun: %v", err)
			break
		}
		screens[string(again.Capture)] = true
		if d, _ := checkStream(t, data, chunks, w, h, again, title); d == nil {
			t.Logf("tmux run %d agrees with the model; %d runs gave %d different screens (a joiner at a pty read boundary)",
				run, run, len(screens))
			return nil, ""
		}
	}
	rep += fmt.Sprintf("NOTE: the stream holds a zero width joiner; %d tmux runs gave %d different screens, none agreeing\n",
		1+joinerRetries, len(screens))
	return diffs, rep
}

// parseSeeds reads "1-300", "7", "1-10,20-30".
func parseSeeds(spec string) ([]int64, error) {
	var seeds []int64
	for _, part := range strings.Split(spec, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.ParseInt(lo, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("seed %q: %w", part, err)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseInt(hi, 10, 64); err != nil || b < a {
				return nil, fmt.Errorf("seed range %q", part)
			}
		}
		for s := a; s <= b; s++ {
			seeds = append(seeds, s)
		}
	}
	return seeds, nil
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// prefetcher runs streams through tmux a few ahead of the comparison, so
// that tmux's work overlaps ours without flooding a shared machine.
type prefetcher struct {
	rig     *tmuxRig
	streams []streamgen.Stream
	ahead   int
	mu      sync.Mutex
	jobs    map[int]*tmuxJob
}

type tmuxJob struct {
	done chan struct{}
	view *tmuxView
	err  error
}

func newPrefetcher(rig *tmuxRig, streams []streamgen.Stream, ahead int) *prefetcher {
	return &prefetcher{rig: rig, streams: streams, ahead: ahead, jobs: make(map[int]*tmuxJob)}
}

// get returns stream i's result, starting it and the next few if needed.
func (p *prefetcher) get(i int) *tmuxJob {
	p.mu.Lock()
	for j := i; j < len(p.streams) && j < i+p.ahead; j++ {
		if p.jobs[j] == nil {
			job := &tmuxJob{done: make(chan struct{})}
			p.jobs[j] = job
			s := p.streams[j]
			go func() {
				defer close(job.done)
				job.view, job.err = p.rig.Run(context.Background(), s.Data, s.Width, s.Height)
			}()
		}
	}
	job := p.jobs[i]
	delete(p.jobs, i)
	p.mu.Unlock()
	<-job.done
	return job
}
