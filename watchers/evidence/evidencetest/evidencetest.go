// Package evidencetest checks a record parser's invariants, for the fuzz
// targets of every agent's format: each agent's folder fuzzes its own
// parser with the same checks.
package evidencetest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Lines runs every line of data through one parser from newParser (so
// state built by earlier lines is exercised) and checks what any line may
// produce: each line counted, every event at a line read so far, a
// malformed line one Malformed event with its error, a prompt with its
// hash, the events counted; then that two fresh parsers say the same.
func Lines(t *testing.T, newParser func() evidence.Parser, data []byte) {
	t.Helper()
	p := newParser()
	lines := bytes.Split(data, []byte("\n"))
	off := int64(0)
	seen := map[int64]evidence.Where{} // lines so far: a held record's events come later
	for _, line := range lines {
		where := evidence.Where{Path: "/f.jsonl", File: evidence.FileID{Dev: 1, Ino: 2}, Gen: 3, Offset: off, End: off + int64(len(line)) + 1}
		seen[off] = where
		before := *p.Stats()
		evs := p.Parse(where, line, nil)
		for _, ev := range evs {
			at := ev.At()
			at.Time = time.Time{}
			if at != seen[at.Offset] {
				t.Fatalf("%T at %+v: not a line read so far (now at %+v)", ev, at, where)
			}
		}
		CheckLine(t, before, *p.Stats(), evs)
		off += int64(len(line)) + 1
	}
	a, b := newParser(), newParser()
	for _, line := range lines {
		x, y := a.Parse(evidence.Where{}, line, nil), b.Parse(evidence.Where{}, line, nil)
		if fmt.Sprint(x) != fmt.Sprint(y) {
			t.Fatalf("not deterministic: %v vs %v", x, y)
		}
	}
}

// CheckLine checks what one line (or a store's row) may produce, from the
// parser's stats before and after it: the line counted, a malformed line
// one Malformed event with its error, a prompt with its hash, the events
// counted. Where each event lies is the caller's to check (a line format's
// events lie on a line read so far, a store's on the row itself).
func CheckLine(t *testing.T, before, after evidence.ParseStats, evs []evidence.Event) {
	t.Helper()
	if after.Lines != before.Lines+1 {
		t.Fatalf("line not counted: %+v -> %+v", before, after)
	}
	malformed := 0
	for _, ev := range evs {
		switch e := ev.(type) {
		case evidence.Malformed:
			malformed++
			if e.Err == nil {
				t.Fatal("malformed without error")
			}
		case evidence.PromptAccepted:
			if e.SHA256 == ([32]byte{}) {
				t.Fatal("prompt without hash")
			}
		}
	}
	if malformed > 1 || (malformed == 1 && len(evs) != 1) {
		t.Fatalf("malformed line produced %d events", len(evs))
	}
	if int64(len(evs)-malformed) != after.Events-before.Events {
		t.Fatalf("%d events, counted %d", len(evs), after.Events-before.Events)
	}
}

// CorpusDir is the recorded corpus (recordings/testdata), found from this
// file: tests of any folder read it in place.
func CorpusDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "recordings", "testdata")
}

// Journals lists every surface's journal of the corpus.
func Journals(tb testing.TB) []recordings.CorpusFile {
	tb.Helper()
	dir := CorpusDir()
	c, err := recordings.LoadCorpus(dir)
	if err != nil {
		tb.Fatalf("the recorded corpus is missing: %v", err)
	}
	files := c.Files(dir)
	if len(files) == 0 {
		tb.Fatal("the corpus lists no surface")
	}
	return files
}

// Recorded is one recorded journal of the corpus, read whole and parsed.
type Recorded struct {
	recordings.CorpusFile
	Data   []byte
	Events []evidence.Event
}

// RecordedJournals reads every recorded journal of f's agent on surface
// and parses it with a fresh parser of f (ParseFile).
func RecordedJournals(tb testing.TB, f evidence.Format, surface string) []Recorded {
	tb.Helper()
	var out []Recorded
	for _, c := range Journals(tb) {
		if c.Agent != string(f.Agent) || c.Surface != surface {
			continue
		}
		data, err := os.ReadFile(c.Journal)
		if err != nil {
			tb.Fatal(err)
		}
		evs, _ := ParseFile(tb, f, c.Journal, data)
		out = append(out, Recorded{c, data, evs})
	}
	return out
}

// CorpusLines returns the recorded journals of one kind ("rollout",
// "transcript", "chats") in runs of a few lines, as fuzz seeds (whole
// files make each execution and each minimisation slow).
func CorpusLines(tb testing.TB, kind string) [][]byte {
	const run = 4
	var out [][]byte
	for _, f := range Journals(tb) {
		if !strings.HasSuffix(f.Journal, "."+kind+".jsonl") {
			continue
		}
		b, err := os.ReadFile(f.Journal)
		if err != nil {
			continue
		}
		lines := bytes.SplitAfter(b, []byte("\n"))
		for i := 0; i < len(lines); i += run {
			if seed := bytes.Join(lines[i:min(i+run, len(lines))], nil); len(seed) > 0 {
				out = append(out, seed)
			}
		}
	}
	return out
}

// JSON is s as a JSON string, for records written in tests.
func JSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// HashPrefix is the first 4 bytes of a prompt's hash in hex, as tests
// brief a PromptAccepted.
func HashPrefix(text string) string {
	h := evidence.PromptHash(text)
	return hex.EncodeToString(h[:4])
}

// FirstDiff is the index of the first line where a and b differ.
func FirstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// BriefID cuts a message id (a UUID) to its first 8 characters.
func BriefID(id string) string { return id[:min(8, len(id))] }

// BriefCall cuts a tool call id (name__name_<ms>_<n>) to <ms>_<n>.
func BriefCall(id string) string {
	if i := strings.LastIndex(id, "_"); i > 0 {
		if j := strings.LastIndex(id[:i], "_"); j >= 0 {
			return id[j+1:]
		}
	}
	return id
}

// Brief is an event in brief, one line: its kind, ids cut (BriefID,
// BriefCall), hash prefixes and counts.
func Brief(ev evidence.Event) string {
	switch e := ev.(type) {
	case evidence.SessionIdentity:
		return "session " + BriefID(e.SessionID)
	case evidence.TurnStarted:
		return "started " + BriefID(e.TurnID)
	case evidence.PromptAccepted:
		return fmt.Sprintf("prompt %s %x %d", BriefID(e.TurnID), e.SHA256[:4], e.Len)
	case evidence.ToolPending:
		return fmt.Sprintf("pending %s %s", e.Name, BriefCall(e.CallID))
	case evidence.ToolResult:
		return fmt.Sprintf("result %s %s %s", e.Name, BriefCall(e.CallID), ResultHow(e))
	case evidence.QuestionAnswered:
		return fmt.Sprintf("answered %s %d/%d", BriefCall(e.CallID), e.Answered, e.Questions)
	case evidence.TurnCompleted:
		how := "notext"
		if e.EndedWithText {
			how = "text"
		}
		return fmt.Sprintf("completed %s %s %v", BriefID(e.TurnID), how, e.Duration)
	case evidence.ReplyEnded:
		how := "notext"
		if e.Text {
			how = "text"
		}
		return fmt.Sprintf("reply %s %s", BriefID(e.TurnID), how)
	case evidence.TurnAborted:
		return fmt.Sprintf("aborted %s %s", BriefID(e.TurnID), e.Reason)
	case evidence.TurnFailed:
		return "failed " + BriefID(e.TurnID)
	case evidence.Malformed:
		return "malformed"
	}
	return fmt.Sprintf("%T", ev)
}

// ResultHow is how a tool call ended, in brief: ok, rejected or error.
func ResultHow(e evidence.ToolResult) string {
	switch {
	case e.Rejected:
		return "rejected"
	case e.IsError:
		return "error"
	}
	return "ok"
}

// CheckBriefs fails t at the first brief that differs.
func CheckBriefs(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		i := FirstDiff(got, want)
		t.Fatalf("first difference at event %d\ngot\n%s\nwant\n%s", i, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Describe prints an event without its location: the parser tables below
// compare these.
func Describe(ev evidence.Event) string {
	switch e := ev.(type) {
	case evidence.SessionIdentity:
		return fmt.Sprintf("session %s cwd=%s version=%s", e.SessionID, e.Cwd, e.Version)
	case evidence.PromptAccepted:
		return fmt.Sprintf("prompt turn=%s session=%s len=%d sha=%s", e.TurnID, e.SessionID, e.Len, hex.EncodeToString(e.SHA256[:4]))
	case evidence.TurnStarted:
		return "turn_started " + e.TurnID
	case evidence.TurnCompleted:
		d := fmt.Sprintf("turn_completed %s %v stop=%s", e.TurnID, e.Duration, e.StopReason)
		if e.EndedWithText {
			d += " text"
		}
		return d
	case evidence.ReplyEnded:
		return fmt.Sprintf("reply_ended %s text=%v", e.TurnID, e.Text)
	case evidence.TurnAborted:
		return fmt.Sprintf("turn_aborted %s %s", e.TurnID, e.Reason)
	case evidence.TurnFailed:
		return fmt.Sprintf("turn_failed %s %s", e.TurnID, e.Reason)
	case evidence.ToolPending:
		d := fmt.Sprintf("tool_pending %s %s turn=%s", e.CallID, e.Name, e.TurnID)
		if e.SecretQuestion {
			d += " secret"
		}
		return d
	case evidence.ToolResult:
		return fmt.Sprintf("tool_result %s %s error=%v rejected=%v", e.CallID, e.Name, e.IsError, e.Rejected)
	case evidence.QuestionAnswered:
		return fmt.Sprintf("question_answered %s answered=%d/%d", e.CallID, e.Answered, e.Questions)
	case evidence.ApprovalRequested:
		return fmt.Sprintf("approval_requested %s %s %s", e.CallID, e.Name, e.Reason)
	case evidence.Malformed:
		return "malformed"
	}
	return fmt.Sprintf("%T", ev)
}

// ParseAll parses text's lines with p and describes their events (every
// event must lie on a line read so far).
func ParseAll(p evidence.Parser, text string) []string {
	var out []string
	off := int64(0)
	ends := map[int64]int64{}
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		line := strings.TrimSuffix(l, "\n")
		ends[off] = off + int64(len(l))
		for _, ev := range p.Parse(evidence.Where{Offset: off, End: off + int64(len(l))}, []byte(line), nil) {
			if at := ev.At(); ends[at.Offset] != at.End {
				panic("event not at a line read so far")
			}
			out = append(out, Describe(ev))
		}
		off += int64(len(l))
	}
	return out
}

// ParseFile parses a whole line file's records with a fresh parser of
// format f, as the watchers would, each event at its line.
func ParseFile(tb testing.TB, f evidence.Format, path string, data []byte) ([]evidence.Event, *evidence.ParseStats) {
	tb.Helper()
	p := f.NewParser()
	var evs []evidence.Event
	off := int64(0)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			tb.Fatalf("%s ends inside a line", path)
		}
		evs = p.Parse(evidence.Where{Agent: f.Agent, Path: path, Offset: off, End: off + int64(i) + 1}, data[:i], evs)
		data, off = data[i+1:], off+int64(i)+1
	}
	return evs, p.Stats()
}
