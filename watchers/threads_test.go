package watchers

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// TestBoundTitle: a title is put on one line of at most MaxTitleRunes
// runes, its control characters and invalid bytes spaces.
func TestBoundTitle(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  a\n\nb\t c  ", "a b c"},
		{"\x1b\x00\xff", ""},
		{strings.Repeat("x", MaxTitleRunes), strings.Repeat("x", MaxTitleRunes)},
		{strings.Repeat("x", MaxTitleRunes) + " y", strings.Repeat("x", MaxTitleRunes-1) + "…"},
	} {
		if got := boundTitle(c.in); got != c.want {
			t.Errorf("boundTitle(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// threadVersions are the versions whose thread scenarios are recorded.
var threadVersions = []struct {
	agent   evidence.Agent
	version string
}{{transcript.Agent, "2.1.267"}, {transcript.Agent, "2.1.332"}, {rollout.Agent, "0.155.1"}, {rollout.Agent, "0.171.0"}}

// lineThreads reads an agent's thread lines with its pure format alone
// (the listing's own parts, files and processes, are not exercised here).
type lineThreads struct{ agent evidence.Agent }

func (l lineThreads) Line(line []byte) evidence.ThreadLine {
	if l.agent == rollout.Agent {
		return rollout.ThreadLine(line)
	}
	return transcript.ThreadLine(line)
}

func (lineThreads) Owns(base, id string) bool                                { return base == id }
func (lineThreads) Files(ThreadQuery) ([]ThreadFile, error)                  { return nil, nil }
func (lineThreads) Names(ThreadQuery) map[string]string                      { return nil }
func (lineThreads) MarkLive([]Thread, *procid.Table, ThreadQuery, time.Time) {}

// readThreadsTestdata reads a record of the real agents' thread runs.
func readThreadsTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "agents", "registry", "testdata", "threads", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzThreadLine: any line, read as either agent's, gives a bounded
// one-line title and never panics; a file of such lines neither.
func FuzzThreadLine(f *testing.F) {
	for _, v := range threadVersions {
		for _, sc := range []string{"thread-new", "thread-resume", "thread-resume-id"} {
			for line := range bytes.Lines(agenttest.LoadJournal(f, v.agent, v.version, sc).Data) {
				if len(line) < 4096 {
					f.Add(bytes.TrimSuffix(line, []byte("\n")))
				}
			}
		}
	}
	for _, name := range []string{"claude-2.1.332-custom-title.jsonl", "codex-0.171.0-session_index.jsonl"} {
		for line := range bytes.Lines(readThreadsTestdata(f, name)) {
			f.Add(bytes.TrimSuffix(line, []byte("\n")))
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, agent := range []evidence.Agent{transcript.Agent, rollout.Agent} {
			format := lineThreads{agent}
			var acc threadAcc
			acc.add(format, line)
			acc.add(format, line)
			tl := format.Line(line)
			if (tl.ID == "") != (tl.Cwd == "") {
				t.Fatalf("id %q without cwd %q or the reverse", tl.ID, tl.Cwd)
			}
			title := acc.title(string(line))
			if utf8.RuneCountInString(title) > MaxTitleRunes || !utf8.ValidString(title) || boundTitle(title) != title {
				t.Fatalf("title %q", title)
			}
			for _, r := range title {
				if unicode.IsControl(r) {
					t.Fatalf("title %q has control %U", title, r)
				}
			}
			p := filepath.Join(dir, "f.jsonl")
			if err := os.WriteFile(p, append(append(slices.Clone(line), '\n'), line...), 0o600); err != nil {
				t.Fatal(err)
			}
			readThread(format, p, "/work/a", nil)
		}
	})
}
