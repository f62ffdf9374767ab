package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

func openT(t *testing.T, dir string, opts *Options) *Store {
	t.Helper()
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenReopenKeepsSecretAndRecords(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, nil)
	sec1, err := s.Secret()
	if err != nil || len(sec1) != 32 {
		t.Fatalf("secret %x %v", sec1, err)
	}
	term := Terminal{ID: "term_a", Pane: "%1", Agent: "claude", Screen: "idle"}
	bd := Binding{TerminalID: "term_a", Generation: 1, Agent: "claude", State: "resolved", SessionID: "s1"}
	if _, err := s.Apply(Change{Terminals: []Terminal{term}, Bindings: []Binding{bd}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.Terminals(); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v, want ErrClosed", err)
	}
	s2 := openT(t, dir, nil)
	sec2, _ := s2.Secret()
	if string(sec1) != string(sec2) {
		t.Fatal("secret changed across reopen")
	}
	got, err := s2.Terminal("term_a")
	if err != nil || got.Screen != contract.ScreenIdle || got.V != terminalSchema {
		t.Fatalf("terminal %+v %v", got, err)
	}
	b, err := s2.Binding("term_a")
	if err != nil || b.SessionID != "s1" || b.Generation != 1 {
		t.Fatalf("binding %+v %v", b, err)
	}
	if _, err := s2.Terminal("term_none"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing terminal: %v", err)
	}
	if _, err := s2.Apply(Change{DeleteTerminals: []string{"term_a"}}); err != nil {
		t.Fatal(err)
	}
	if ts, _ := s2.Terminals(); len(ts) != 0 {
		t.Fatalf("terminals after delete: %+v", ts)
	}
	if _, err := s2.Binding("term_a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("binding after delete: %v", err)
	}
}

func TestSecondOpenFailsAtOnce(t *testing.T) {
	dir := t.TempDir()
	openT(t, dir, nil)
	start := time.Now()
	_, err := Open(dir, nil)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), strconv.Itoa(os.Getpid())) {
		t.Errorf("message %q does not name the holder pid %d", err, os.Getpid())
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("second Open took %v", d)
	}
}

func TestNewerFormatRefused(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, nil)
	if err := s.setFormatForTest(FormatVersion + 1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(dir, nil)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "upgrade akk") {
		t.Fatalf("Open newer format: %v", err)
	}
	// The refusal released the lock: a later open (after a fix) can work.
	if _, err := lockDir(dir); err != nil {
		t.Fatalf("lock after refusal: %v", err)
	}
}

func TestOptionsValidate(t *testing.T) {
	o := (&Options{EventLimit: -1, CacheSize: -2, MemTableSize: 10}).EnsureDefaults()
	err := o.Validate()
	for _, want := range []string{"EventLimit", "CacheSize", "MemTableSize"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to name %s", err, want)
		}
	}
	if err := (*Options)(nil).EnsureDefaults().Validate(); err != nil {
		t.Errorf("defaults invalid: %v", err)
	}
}

func TestEventsSequenceTrimAndReopen(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, &Options{EventLimit: 5})
	for i := range 8 {
		evs, err := s.Apply(Change{Events: []Event{{Type: "t", Attrs: map[string]string{"i": strconv.Itoa(i)}}}})
		if err != nil || len(evs) != 1 || evs[0].Seq != uint64(i+1) {
			t.Fatalf("append %d: %+v %v", i, evs, err)
		}
	}
	all, err := s.Events(0, 0)
	if err != nil || len(all) != 5 || all[0].Seq != 4 || all[4].Seq != 8 {
		t.Fatalf("kept events: %+v %v", seqs(all), err)
	}
	if page, _ := s.Events(5, 2); len(page) != 2 || page[0].Seq != 6 {
		t.Fatalf("page after 5: %v", seqs(page))
	}
	s.Close()
	s2 := openT(t, dir, &Options{EventLimit: 5})
	if s2.LastSeq() != 8 {
		t.Fatalf("LastSeq after reopen = %d", s2.LastSeq())
	}
	evs, _ := s2.Apply(Change{Events: []Event{{Type: "t"}}})
	if evs[0].Seq != 9 {
		t.Fatalf("seq after reopen = %d, want 9", evs[0].Seq)
	}
	if all, _ := s2.Events(0, 0); len(all) != 5 || all[0].Seq != 5 {
		t.Fatalf("kept after reopen: %v", seqs(all))
	}
}

func TestEventsBigTrim(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, &Options{EventLimit: 500})
	evs := make([]Event, 300)
	for i := range evs {
		evs[i].Type = "t"
	}
	for range 3 { // the third append cuts 100 at once (a range)
		if _, err := s.Apply(Change{Events: evs}); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := s.Events(0, 0)
	if len(all) != 500 || all[0].Seq != 401 || all[499].Seq != 900 {
		t.Fatalf("kept %d events, %d..%d", len(all), all[0].Seq, all[len(all)-1].Seq)
	}
}

func TestSchemaRefused(t *testing.T) {
	var rec Terminal
	if err := decode([]byte(`{"v":2,"id":"x"}`), 1, &rec); !errors.Is(err, ErrSchema) {
		t.Fatalf("decode v2: %v", err)
	}
	if err := decode([]byte(`not json`), 1, &rec); !errors.Is(err, ErrFormat) {
		t.Fatalf("decode junk: %v", err)
	}
}

func TestKeys(t *testing.T) {
	if got := string(terminalKey("term_x")); got != "terminal/term_x" {
		t.Errorf("terminalKey = %q", got)
	}
	for _, seq := range []uint64{1, 255, 256, 1 << 40} {
		got, err := parseEventKey(eventKey(seq))
		if err != nil || got != seq {
			t.Errorf("event key %d round trip: %d %v", seq, got, err)
		}
	}
	if string(eventKey(255)) >= string(eventKey(256)) {
		t.Error("event keys do not sort by sequence")
	}
	if _, err := parseID(kindTerminal, []byte("binding/x")); !errors.Is(err, ErrFormat) {
		t.Errorf("parseID of another kind: %v", err)
	}
	if string(prefixEnd(kindEvent)) <= string(eventKey(^uint64(0))) {
		t.Error("prefixEnd does not bound the kind")
	}
}

func seqs(evs []Event) []uint64 {
	var out []uint64
	for _, e := range evs {
		out = append(out, e.Seq)
	}
	return out
}

// TestCrashKeepsSyncedEvents: a process that appends events with
// pebble.Sync and reports each seq after Apply returns is killed with
// SIGKILL; every reported event is in the store afterwards, once.
func TestCrashKeepsSyncedEvents(t *testing.T) {
	if os.Getenv("AKK_STORE_CRASH_CHILD") != "" {
		crashChild(os.Getenv("AKK_STORE_CRASH_CHILD"))
		return
	}
	dir := t.TempDir()
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("AKK_CRASH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	reported := map[uint64]bool{}
	for run := range runs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashKeepsSyncedEvents$")
		cmd.Env = append(os.Environ(), "AKK_STORE_CRASH_CHILD="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1<<16)
		var text string
		for strings.Count(text, "\n") < 20+run*7 {
			n, err := out.Read(buf)
			text += string(buf[:n])
			if err != nil {
				break
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		for _, l := range strings.Split(text, "\n") {
			if seq, err := strconv.ParseUint(l, 10, 64); err == nil {
				reported[seq] = true
			}
		}
	}
	s := openT(t, dir, nil)
	evs, err := s.Events(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	for i, e := range evs {
		if seen[e.Seq] || (i > 0 && e.Seq != evs[i-1].Seq+1) {
			t.Fatalf("event %d: seq %d duplicated or out of order", i, e.Seq)
		}
		seen[e.Seq] = true
	}
	for seq := range reported {
		if !seen[seq] {
			t.Errorf("event %d was reported committed but is lost", seq)
		}
	}
	t.Logf("%d runs, %d events reported, %d in store", runs, len(reported), len(evs))
}

func crashChild(dir string) {
	s, err := Open(dir, nil)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	for {
		evs, err := s.Apply(Change{Events: []Event{{Type: "crash"}}})
		if err != nil {
			fmt.Println("apply:", err)
			os.Exit(1)
		}
		fmt.Println(evs[0].Seq)
	}
}
