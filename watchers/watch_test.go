package watchers

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func flatCodex() Options { return Options{Agent: rollout.Agent} }

func TestWatchTornAppends(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout-a.jsonl")
	var text strings.Builder
	for i := range 20 {
		text.WriteString(turnLine(i))
	}
	all := text.String()
	_, c := watchDir(t, flatCodex(), dir)
	// Pieces cut through lines: after each, exactly the complete lines so
	// far have arrived, never the torn one.
	written := 0
	for _, cut := range []int{5, 60, 61, 150, 400, 401, 402, 900, 1500, len(all)} {
		cut = min(cut, len(all))
		agenttest.AppendFile(t, path, all[written:cut])
		written = cut
		complete := strings.Count(all[:cut], "\n")
		c.wait(t, "complete lines", func(evs []evidence.Event) bool { return countTurns(evs) >= complete })
	}
	got := turns(c.snapshot())
	if want := expectTurns("rollout-a.jsonl", 0, 0, 0, 19); !equalStrings(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	checkEnds(t, c.snapshot())
}

// checkEnds: every line event's End is its Offset plus the line and newline.
func checkEnds(t *testing.T, evs []evidence.Event) {
	t.Helper()
	for _, ev := range evs {
		if ts, ok := ev.(evidence.TurnStarted); ok {
			var i int
			if _, err := fmtSscan(ts.TurnID, &i); err != nil {
				t.Fatal(err)
			}
			if ts.End-ts.Offset != int64(len(turnLine(i))) {
				t.Fatalf("%s: offset %d end %d", ts.TurnID, ts.Offset, ts.End)
			}
		}
	}
}

func TestWatchTruncate(t *testing.T) {
	_, path, c := followRollout(t, turnLine(0)+turnLine(1)+`{"torn`, 2)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	c.wait(t, "truncation", func(evs []evidence.Event) bool { return len(fileEvents(evs)) == 2 })
	agenttest.AppendFile(t, path, turnLine(2)+turnLine(3))
	evs := c.wait(t, "lines after truncation", func(evs []evidence.Event) bool { return countTurns(evs) == 4 })
	want := append(expectTurns("rollout-a.jsonl", 0, 0, 0, 1), expectTurns("rollout-a.jsonl", 1, 0, 2, 3)...)
	wantTurns(t, evs, want)
	wantFileEvents(t, evs, "rollout-a.jsonl:appeared@0", "rollout-a.jsonl:truncated@1")
	for _, ev := range evs {
		if fe, ok := ev.(evidence.FileEvent); ok && fe.Change == evidence.FileTruncated {
			if fe.OldOffset != int64(len(turnLine(0)+turnLine(1))+6) || fe.Dropped != 6 {
				t.Fatalf("truncation %+v", fe)
			}
		}
	}
}

func TestWatchReplaceByRename(t *testing.T) {
	dir, path, c := followRollout(t, turnLine(0)+turnLine(1), 2)
	tmp := filepath.Join(dir, "rollout-a.jsonl.tmp")
	agenttest.AppendFile(t, tmp, turnLine(5)+turnLine(6)+turnLine(7))
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	evs := c.wait(t, "replacement", func(evs []evidence.Event) bool { return countTurns(evs) == 5 })
	want := append(expectTurns("rollout-a.jsonl", 0, 0, 0, 1), expectTurns("rollout-a.jsonl", 1, 0, 5, 7)...)
	wantTurns(t, evs, want)
	wantFileEvents(t, evs, "rollout-a.jsonl:appeared@0", "rollout-a.jsonl:replaced@1")
}

// A followed file renamed within its directory keeps its offset: the
// writer goes on appending through its open descriptor.
func TestWatchRenameFollows(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout-a.jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(turnLine(0))
	_, c := watchDir(t, flatCodex(), dir)
	c.wait(t, "first line", func(evs []evidence.Event) bool { return countTurns(evs) == 1 })
	to := filepath.Join(dir, "rollout-b.jsonl")
	if err := os.Rename(path, to); err != nil {
		t.Fatal(err)
	}
	c.wait(t, "rename", func(evs []evidence.Event) bool { return len(fileEvents(evs)) == 2 })
	f.WriteString(turnLine(1))
	evs := c.wait(t, "line after rename", func(evs []evidence.Event) bool { return countTurns(evs) == 2 })
	off := int64(len(turnLine(0)))
	want := []string{"rollout-a.jsonl@0+0:t0", "rollout-b.jsonl@0+" + itoa(off) + ":t1"}
	wantTurns(t, evs, want)
	wantFileEvents(t, evs, "rollout-a.jsonl:appeared@0", "rollout-b.jsonl:renamed@0")
}

func TestWatchDeleteRecreate(t *testing.T) {
	_, path, c := followRollout(t, turnLine(0), 1)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	c.wait(t, "deletion", func(evs []evidence.Event) bool { return len(fileEvents(evs)) == 2 })
	agenttest.AppendFile(t, path, turnLine(1)+turnLine(2))
	evs := c.wait(t, "recreated lines", func(evs []evidence.Event) bool { return countTurns(evs) == 3 })
	want := append(expectTurns("rollout-a.jsonl", 0, 0, 0, 0), expectTurns("rollout-a.jsonl", 1, 0, 1, 2)...)
	wantTurns(t, evs, want)
	wantFileEvents(t, evs, "rollout-a.jsonl:appeared@0", "rollout-a.jsonl:deleted@0", "rollout-a.jsonl:appeared@1")
}

// Codex writes into $CODEX_HOME/sessions/YYYY/MM/DD: day, month and year
// directories appear while akk runs, and the file may be written before
// the new directory's watch is in place.
func TestWatchNewDayDirectory(t *testing.T) {
	root := t.TempDir()
	old := filepath.Join(root, "2026", "11", "29")
	if err := os.MkdirAll(old, 0o700); err != nil {
		t.Fatal(err)
	}
	agenttest.AppendFile(t, filepath.Join(old, "rollout-old.jsonl"), turnLine(0))
	_, c := watchDir(t, Options{Agent: rollout.Agent, Depth: rollout.Format.Depth}, root)
	c.wait(t, "existing rollout", func(evs []evidence.Event) bool { return countTurns(evs) == 1 })
	for i, day := range []string{"2026/11/30", "2026/12/01", "2027/01/01"} {
		d := filepath.Join(root, filepath.FromSlash(day))
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, "rollout-new.jsonl")
		agenttest.AppendFile(t, p, turnLine(10*i+1))
		c.wait(t, "rollout in "+day, func(evs []evidence.Event) bool { return countTurns(evs) == 2*i+2 })
		agenttest.AppendFile(t, p, turnLine(10*i+2))
		c.wait(t, "append in "+day, func(evs []evidence.Event) bool { return countTurns(evs) == 2*i+3 })
	}
	// Files too deep or not named like rollouts are not followed.
	deep := filepath.Join(root, "2027", "01", "01", "x")
	os.MkdirAll(deep, 0o700)
	agenttest.AppendFile(t, filepath.Join(deep, "rollout-deep.jsonl"), turnLine(99))
	agenttest.AppendFile(t, filepath.Join(root, "2027", "01", "01", "notes.jsonl"), turnLine(98))
	agenttest.AppendFile(t, filepath.Join(root, "2027", "01", "01", "rollout-new.jsonl"), turnLine(97))
	evs := c.wait(t, "last line", func(evs []evidence.Event) bool { return countTurns(evs) == 8 })
	for _, s := range turns(evs) {
		if strings.HasSuffix(s, ":t99") || strings.HasSuffix(s, ":t98") {
			t.Fatalf("followed a file it should not: %s", s)
		}
	}
}

// Files created (and lines appended) while no Watcher ran are picked up by
// the next one; with Start it resumes where the last one stopped.
func TestWatchFilesCreatedWhileStopped(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, a, turnLine(0)+turnLine(1))
	w1, c1 := watchDir(t, flatCodex(), dir)
	evs := c1.wait(t, "first run", func(evs []evidence.Event) bool { return countTurns(evs) == 2 })
	last := evs[len(evs)-1].(evidence.TurnStarted)
	w1.Close()
	<-c1.done

	agenttest.AppendFile(t, a, turnLine(2))
	agenttest.AppendFile(t, filepath.Join(dir, "rollout-b.jsonl"), turnLine(3)+turnLine(4))
	opts := flatCodex()
	opts.Start = func(path string, st Stat) int64 {
		if path == last.Path && st.ID == last.File {
			return last.End
		}
		return 0
	}
	_, c2 := watchDir(t, opts, dir)
	evs = c2.wait(t, "second run", func(evs []evidence.Event) bool { return countTurns(evs) == 3 })
	want := append(expectTurns("rollout-a.jsonl", 0, last.End, 2, 2), expectTurns("rollout-b.jsonl", 0, 0, 3, 4)...)
	wantTurns(t, evs, want)
}

// TestWatchBurst appends 10,000 lines as fast as the writer can and checks
// each arrives exactly once, in order, at its offset.
func TestWatchBurst(t *testing.T) {
	const n = 10000
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout-burst.jsonl")
	_, c := watchDir(t, flatCodex(), dir)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := range n {
		if _, err := f.WriteString(turnLine(i)); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	evs := c.wait(t, "10,000 lines", func(evs []evidence.Event) bool { return countTurns(evs) >= n })
	t.Logf("10,000 lines written and delivered in %v", time.Since(start))
	if got, want := turns(evs), expectTurns("rollout-burst.jsonl", 0, 0, 0, n-1); !equalStrings(got, want) {
		t.Fatalf("burst: %d events, first difference at %d", len(got), evidencetest.FirstDiff(got, want))
	}
	checkEnds(t, evs)
}

// TestWatchOverflowRescan holds the fsnotify reader while far more file
// events than the kernel queue holds happen, so inotify overflows and the
// events for the lines that matter are lost; the rescan still finds them.
func TestWatchOverflowRescan(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, a, turnLine(0))
	pause := make(chan struct{})
	opts := flatCodex()
	opts.testPause = pause
	_, c := watchDir(t, opts, dir)
	// The worker reads files found by Add without the reader's help.
	c.wait(t, "first line", func(evs []evidence.Event) bool { return countTurns(evs) == 1 })
	limit := 16384
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		if _, err := fmtSscan(strings.TrimSpace(string(b)), &limit); err != nil {
			t.Fatal(err)
		}
	}
	if limit > 100000 {
		t.Skipf("inotify queue holds %d events: too many to overflow here", limit)
	}
	junk := filepath.Join(dir, "junk")
	for i := 0; i < limit+1000; i++ {
		if err := os.WriteFile(junk+itoa(int64(i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	agenttest.AppendFile(t, a, turnLine(1))
	agenttest.AppendFile(t, filepath.Join(dir, "rollout-b.jsonl"), turnLine(2))
	close(pause)
	evs := c.wait(t, "lines found by the rescan", func(evs []evidence.Event) bool { return countTurns(evs) == 3 })
	rescans := 0
	for _, ev := range evs {
		if r, ok := ev.(evidence.Rescanned); ok {
			rescans++
			if !errors.Is(r.Err, ErrOverflow) {
				t.Fatalf("rescan error %v", r.Err)
			}
		}
	}
	if rescans == 0 {
		t.Fatalf("no rescan:\n%s", dump(evs))
	}
	want := append(expectTurns("rollout-a.jsonl", 0, 0, 0, 1), expectTurns("rollout-b.jsonl", 0, 0, 2, 2)...)
	wantTurns(t, evs, want)
}

func TestWatchClose(t *testing.T) {
	w, err := New(flatCodex())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	w.Close()
	w.Close()
	if _, ok := <-w.Evidence(); ok {
		t.Fatal("evidence channel still open")
	}
	if err := w.Add(t.TempDir()); !errors.Is(err, ErrClosed) {
		t.Fatalf("add after close: %v", err)
	}
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o600)
	w2, _ := New(flatCodex())
	defer w2.Close()
	if err := w2.Add(f); !errors.Is(err, ErrNotDir) {
		t.Fatalf("add file: %v", err)
	}
	if _, err := New(Options{Agent: "opencode"}); !errors.Is(err, ErrOptions) {
		t.Fatalf("unknown agent: %v", err)
	}
}

// A Watcher whose reader is slow still closes: Close does not wait for
// the consumer.
func TestWatchCloseWithUnreadEvidence(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	for i := range 100 {
		text.WriteString(turnLine(i))
	}
	agenttest.AppendFile(t, filepath.Join(dir, "rollout-a.jsonl"), text.String())
	w, err := New(Options{Agent: rollout.Agent, Buffer: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	<-w.Evidence()
	w.Close()
}

// Deleted and recreated with the same first bytes: the file system may
// reuse the inode number, but the removal was seen, so the new file is
// read from its start in a new generation.
func TestWatchDeleteRecreateSameBytes(t *testing.T) {
	_, path, c := followRollout(t, turnLine(0), 1)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	agenttest.AppendFile(t, path, turnLine(0)+turnLine(1))
	evs := c.wait(t, "recreated lines", func(evs []evidence.Event) bool { return countTurns(evs) == 3 })
	want := append(expectTurns("rollout-a.jsonl", 0, 0, 0, 0), expectTurns("rollout-a.jsonl", 1, 0, 0, 1)...)
	wantTurns(t, evs, want)
	got := strings.Join(fileEvents(evs), " ")
	if got != "rollout-a.jsonl:appeared@0 rollout-a.jsonl:deleted@0 rollout-a.jsonl:appeared@1" &&
		got != "rollout-a.jsonl:appeared@0 rollout-a.jsonl:replaced@1" {
		t.Fatalf("file events %q", got)
	}
}

// Rotation: the followed file is renamed to another matching name and a
// new file takes its name; the old one goes on at its offset, the new
// one is read from 0. Lines are told apart by file identity: a line read
// just as the rename happens may still carry the old name (the FileRenamed
// event follows).
func TestWatchRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout-a.jsonl")
	agenttest.AppendFile(t, path, turnLine(0))
	_, c := watchDir(t, flatCodex(), dir)
	evs := c.wait(t, "first line", func(evs []evidence.Event) bool { return countTurns(evs) == 1 })
	first := evs[len(evs)-1].(evidence.TurnStarted)
	old := filepath.Join(dir, "rollout-a.1.jsonl")
	if err := os.Rename(path, old); err != nil {
		t.Fatal(err)
	}
	agenttest.AppendFile(t, path, turnLine(1))
	agenttest.AppendFile(t, old, turnLine(2))
	evs = c.wait(t, "both files and the rename", func(evs []evidence.Event) bool {
		return countTurns(evs) == 3 && strings.Contains(strings.Join(fileEvents(evs), " "), "rollout-a.1.jsonl:renamed@0")
	})
	for _, ev := range evs {
		ts, ok := ev.(evidence.TurnStarted)
		if !ok {
			continue
		}
		switch ts.TurnID {
		case "t1":
			if ts.File == first.File || ts.Offset != 0 || ts.Path != path {
				t.Fatalf("new file's line %+v", ts)
			}
		case "t2":
			if ts.File != first.File || ts.Gen != 0 || ts.Offset != first.End {
				t.Fatalf("rotated file's line %+v", ts)
			}
		}
	}
}

// Claude's layout: ~/.claude/projects/<slug>/<session>.jsonl, a project
// directory appearing while akk runs, fed a recorded transcript; the
// subagent transcripts one level further down are not followed.
func TestWatchClaudeProjects(t *testing.T) {
	var real []byte
	for _, f := range evidencetest.Journals(t) {
		if f.Agent == "claude" && f.Surface == "send" {
			b, err := os.ReadFile(f.Journal)
			if err != nil {
				t.Fatal(err)
			}
			real = b
		}
	}
	if len(real) == 0 {
		t.Fatal("no recorded Claude send transcript")
	}
	root := t.TempDir()
	w, c := watchDir(t, Options{Agent: transcript.Agent, Depth: transcript.Format.Depth}, root)
	proj := filepath.Join(root, "-tmp-project")
	if err := os.MkdirAll(filepath.Join(proj, "e35d3123", "subagents"), 0o700); err != nil {
		t.Fatal(err)
	}
	agenttest.AppendFile(t, filepath.Join(proj, "e35d3123", "subagents", "agent-1.jsonl"), string(real))
	path := filepath.Join(proj, "e35d3123.jsonl")
	for i := 0; i < len(real); i += 1000 {
		agenttest.AppendFile(t, path, string(real[i:min(i+1000, len(real))]))
	}
	want, _ := parseFile(t, transcript.Agent, path, real)
	evs := c.wait(t, "the transcript's events", func(evs []evidence.Event) bool {
		n := 0
		for _, ev := range evs {
			if _, ok := ev.(evidence.TurnCompleted); ok {
				n++
			}
		}
		return n == 1
	})
	var got []string
	for _, ev := range evs {
		if _, ok := ev.(evidence.FileEvent); ok {
			continue
		}
		if ev.At().Path != path {
			t.Fatalf("event from another file: %+v", ev)
		}
		got = append(got, fmt.Sprintf("%d %s", ev.At().Offset, evidencetest.Describe(ev)))
	}
	var exp []string
	for _, ev := range want {
		exp = append(exp, fmt.Sprintf("%d %s", ev.At().Offset, evidencetest.Describe(ev)))
	}
	if !equalStrings(got, exp) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(exp, "\n"))
	}
	// The counters are merged after each file's read: wait for them.
	lines := int64(bytes.Count(real, []byte("\n")))
	deadline := time.Now().Add(waitLimit)
	for st := w.Stats(); st.Lines != lines; st = w.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v, want %d lines", st, lines)
		}
		time.Sleep(time.Millisecond)
	}
	if st := w.Stats(); st.Malformed != 0 || len(st.Unknown) != 0 {
		t.Fatalf("stats %+v", st)
	}
}
