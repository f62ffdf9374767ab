package watchers

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/agents/gemini/chats"
	"github.com/agent-knock-knock/akk/agents/opencode/sessiondb"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// The fixtures are the real transcripts and rollouts the live rig recorded
// from the pinned agent versions (recordings/testdata, listed by its
// corpus.json). They are read in place, never copied here.

var update = flag.Bool("update", false, "rewrite testdata/fixtures/*.events from the parsers")

func agentOfFile(f recordings.CorpusFile) evidence.Agent {
	switch f.Agent {
	case "codex":
		return rollout.Agent
	case "gemini":
		return chats.Agent
	case "opencode":
		return sessiondb.Agent
	}
	return transcript.Agent
}

// parseFile parses a whole journal as the Watcher would (an OpenCode log
// as OpenCodeDB.Events reads the store).
func parseFile(tb testing.TB, agent evidence.Agent, path string, data []byte) ([]evidence.Event, *evidence.ParseStats) {
	tb.Helper()
	if agent == sessiondb.Agent {
		return parseLog(tb, path, data)
	}
	f, _ := evidence.FormatOf(agent)
	return evidencetest.ParseFile(tb, f, path, data)
}

// parseLog parses the rig's dump of an OpenCode store (one event row a
// line: {"session", "seq", "type", "data"}), each session with a parser
// of its own and its events in its own record (RecordPath).
func parseLog(tb testing.TB, path string, data []byte) ([]evidence.Event, *evidence.ParseStats) {
	tb.Helper()
	parsers := map[string]*sessiondb.Parser{}
	var evs []evidence.Event
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if len(line) == 0 {
			continue // no session was written (idle, draft)
		}
		var row struct {
			Session string          `json:"session"`
			Seq     int64           `json:"seq"`
			Type    string          `json:"type"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(line, &row); err != nil {
			tb.Fatalf("%s: a row that is not JSON: %v", path, err)
		}
		p := parsers[row.Session]
		if p == nil {
			p = sessiondb.NewParser()
			parsers[row.Session] = p
		}
		w := evidence.Where{Agent: sessiondb.Agent, Path: evidence.RecordPath(path, row.Session), Offset: row.Seq, End: row.Seq + 1}
		evs = p.Parse(w, row.Type, row.Data, evs)
	}
	st := &evidence.ParseStats{}
	for _, p := range parsers {
		st.Add(p.Stats())
	}
	return evs, st
}

// goldenPath is the reviewed event listing of one recorded surface.
func goldenPath(f recordings.CorpusFile) string {
	return filepath.Join("testdata", "fixtures", f.Agent, f.Version, f.Surface+".events")
}

// TestFixturesParse parses every recorded journal of every pinned version:
// no malformed line, no record type the parser does not know, and exactly
// the events of its reviewed listing in testdata/fixtures. A surface the
// rig recorded without a reviewed listing fails: run
// go test ./watchers -run TestFixturesParse -update and review the diff
// against the journal.
func TestFixturesParse(t *testing.T) {
	for _, f := range evidencetest.Journals(t) {
		name := filepath.Join(f.Agent, f.Version, f.Surface)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f.Journal)
			if err != nil {
				t.Fatalf("journal missing: %v", err)
			}
			evs, st := parseFile(t, agentOfFile(f), f.Journal, data)
			if st.Malformed != 0 {
				t.Fatalf("%s: %d malformed lines", f.Journal, st.Malformed)
			}
			var b strings.Builder
			for _, ev := range evs {
				fmt.Fprintf(&b, "%d %s\n", ev.At().Offset, evidencetest.Describe(ev))
			}
			golden := goldenPath(f)
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%s: no reviewed listing (unknown record types %v); run with -update and review %s against %s", name, st.Unknown, golden, f.Journal)
			}
			if len(st.Unknown) != 0 {
				t.Fatalf("%s: unknown record types %v", f.Journal, st.Unknown)
			}
			if b.String() != string(want) {
				t.Fatalf("%s: events differ from %s:\n%s", f.Journal, golden, b.String())
			}
		})
	}
}

// typedPrompt is the text the rig typed before the first Enter of a
// recording: the prompt sent to the agent. A draft cleared before it
// (Claude's C-s stash, Codex's C-u with the cursor at the end) is not
// part of it.
func typedPrompt(t *testing.T, castPath string) string {
	t.Helper()
	rec, err := recordings.ReadFile(castPath)
	if err != nil {
		t.Fatal(err)
	}
	var typed []byte
	for _, e := range rec.Events {
		if e.Code != recordings.Input {
			continue
		}
		switch {
		case bytes.Equal(e.Data, []byte("\r")):
			return string(typed)
		case bytes.Equal(e.Data, []byte{0x13}), bytes.Equal(e.Data, []byte{0x15}):
			typed = typed[:0]
		default:
			typed = append(typed, e.Data...)
		}
	}
	return ""
}

// TestFixturesAcceptTypedPrompt: the prompt the rig typed (the recording's
// input events, independent of the journal) is accepted by the recorded
// session after a pre-send anchor; an unsent prompt stays pending; the
// same prompt accepted in two candidate sessions is uncertain. Every
// pinned version with a non-empty journal has a prompt checked.
func TestFixturesAcceptTypedPrompt(t *testing.T) {
	byPrompt := map[string][]Anchor{}
	checked := 0
	recorded, accepted := map[string]bool{}, map[string]bool{}
	for _, f := range evidencetest.Journals(t) {
		data, err := os.ReadFile(f.Journal)
		if err != nil || len(data) == 0 {
			continue
		}
		version := f.Agent + " " + f.Version
		recorded[version] = true
		evs, _ := parseFile(t, agentOfFile(f), f.Journal, data)
		var first *evidence.PromptAccepted
		for _, ev := range evs {
			if p, ok := ev.(evidence.PromptAccepted); ok {
				first = &p
				break
			}
		}
		if first == nil {
			continue // no prompt reached the journal (working: still streaming)
		}
		prompt := typedPrompt(t, f.Cast)
		if prompt == "" {
			t.Fatalf("%s: a prompt in the journal, none typed", f.Cast)
		}
		// The journal did not exist before the first prompt (Claude creates
		// it then) or held only what precedes the prompt's turn.
		an := Anchor{Agent: agentOfFile(f), Path: f.Journal, Absent: true, SessionID: first.SessionID}
		if an.Agent == transcript.Agent {
			an.Cwd = first.Cwd
		}
		accept := func(prompt string) (Acceptance, error) { return Accept(context.Background(), prompt, 0, an) }
		if an.Agent == sessiondb.Agent {
			// A dump of the store, not the store: its events, through
			// the acceptor Accept runs over a record.
			an.Path = first.Path
			accept = func(prompt string) (Acceptance, error) {
				acc := NewAcceptor(prompt, an)
				for _, ev := range evs {
					acc.Observe(ev)
				}
				return acc.Result(), nil
			}
		}
		r, err := accept(prompt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Accepted || r.Match.Offset != first.Offset || r.Match.TurnID != first.TurnID {
			t.Fatalf("%s: typed prompt %q: %+v", f.Journal, prompt, r)
		}
		if r, _ := accept(prompt + " (never sent)"); r.Verdict != Pending {
			t.Fatalf("%s: unsent prompt: %+v", f.Journal, r)
		}
		checked++
		accepted[version] = true
		if an.Agent == sessiondb.Agent {
			continue // its records are not files: two of them are not read together here
		}
		an.SessionID, an.Cwd = "", ""
		byPrompt[prompt] = append(byPrompt[prompt], an)
	}
	if checked == 0 {
		t.Fatal("no recorded journal holds a prompt")
	}
	for v := range recorded {
		if !accepted[v] {
			t.Errorf("%s: no typed prompt accepted from its journals", v)
		}
	}
	multi := 0
	for prompt, anchors := range byPrompt {
		if len(anchors) < 2 {
			continue
		}
		multi++
		r, err := Accept(context.Background(), prompt, 0, anchors[:2]...)
		if err != nil || r.Verdict != Uncertain || len(r.Matches) != 2 {
			t.Fatalf("%q in two sessions: %+v %v", prompt, r, err)
		}
	}
	if multi == 0 {
		t.Fatal("no prompt recorded in two sessions")
	}
}

// TestFixturesLive appends every recorded journal to a watched file in
// random pieces (torn lines included) and checks the live events are
// exactly the events of parsing the whole file: each once, in order, at
// its offset.
func TestFixturesLive(t *testing.T) {
	for _, agent := range []evidence.Agent{transcript.Agent, rollout.Agent} {
		var files []recordings.CorpusFile
		for _, f := range evidencetest.Journals(t) {
			if b, err := os.ReadFile(f.Journal); err == nil && len(b) > 0 && agentOfFile(f) == agent {
				files = append(files, f)
			}
		}
		if len(files) == 0 {
			t.Logf("no %s journal recorded yet", agent)
			continue
		}
		t.Run(string(agent), func(t *testing.T) { liveReplay(t, agent, files) })
	}
}

func liveReplay(t *testing.T, agent evidence.Agent, files []recordings.CorpusFile) {
	dir := t.TempDir()
	opts := Options{Agent: agent}
	_, c := watchDir(t, opts, dir)
	r := rand.New(rand.NewPCG(1, 2))
	want := 0
	var paths []string
	for i, f := range files {
		data, _ := os.ReadFile(f.Journal)
		name := fmt.Sprintf("rollout-%02d-%s.jsonl", i, f.Surface)
		path := filepath.Join(dir, name)
		paths = append(paths, path)
		exp, _ := parseFile(t, agent, path, data)
		want += len(exp) + 1 // and the file's appearance
		for len(data) > 0 {
			n := min(len(data), 1+r.IntN(700))
			agenttest.AppendFile(t, path, string(data[:n]))
			data = data[n:]
		}
	}
	evs := c.wait(t, "every journal's events", func(evs []evidence.Event) bool { return len(evs) >= want })
	if len(evs) != want {
		t.Fatalf("%d events, want %d", len(evs), want)
	}
	for i, f := range files {
		data, _ := os.ReadFile(f.Journal)
		exp, _ := parseFile(t, agent, paths[i], data)
		var got []evidence.Event
		for _, ev := range evs {
			if ev.At().Path == paths[i] {
				if _, ok := ev.(evidence.FileEvent); !ok {
					got = append(got, ev)
				}
			}
		}
		if len(got) != len(exp) {
			t.Fatalf("%s: %d events live, %d parsed", f.Journal, len(got), len(exp))
		}
		for j := range exp {
			g, e := got[j].At(), exp[j].At()
			if evidencetest.Describe(got[j]) != evidencetest.Describe(exp[j]) || g.Offset != e.Offset || g.End != e.End || g.Gen != 0 {
				t.Fatalf("%s event %d: live %s at %+v, parsed %s at %+v", f.Journal, j, evidencetest.Describe(got[j]), g, evidencetest.Describe(exp[j]), e)
			}
		}
	}
}
