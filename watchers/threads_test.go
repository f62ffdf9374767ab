package watchers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// The thread listing is tested over journals the rig recorded
// (recordings/testdata/*/*/thread-{new,resume}.*.jsonl), copied into
// temporary roots with their ids, cwds and dates rewritten, and over
// records the real agents wrote in a run (testdata/threads, see its
// README). Processes are a fake proc tree, except for one real process
// holding a rollout open.

// journal is one recorded journal and the ids it carries.
type journal struct {
	agent   evidence.Agent
	version string
	data    []byte
	id, cwd string
}

func loadJournal(t testing.TB, agent evidence.Agent, version, scenario string) journal {
	t.Helper()
	kind := "transcript"
	if agent == evidence.Codex {
		kind = "rollout"
	}
	data, err := os.ReadFile(filepath.Join(evidencetest.CorpusDir(), string(agent), version, scenario+"."+kind+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	j := journal{agent: agent, version: version, data: data}
	for line := range bytes.Lines(data) {
		var m struct {
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
			Payload   struct {
				ID  string `json:"id"`
				Cwd string `json:"cwd"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		if agent == evidence.Codex && m.Payload.ID != "" {
			j.id, j.cwd = m.Payload.ID, m.Payload.Cwd
			break
		}
		if agent == evidence.Claude && m.SessionID != "" && m.Cwd != "" {
			j.id, j.cwd = m.SessionID, m.Cwd
			break
		}
	}
	if j.id == "" || j.cwd == "" {
		t.Fatalf("%s %s %s: no id and cwd", agent, version, scenario)
	}
	return j
}

// as is the journal with its id, cwd and day replaced (the day shifts
// every timestamp, so copies order by day).
func (j journal) as(id, cwd string, day int) journal {
	r := strings.NewReplacer(j.id, id, j.cwd, cwd, "2026-12-03T", fmt.Sprintf("2026-12-%02dT", day))
	j.data, j.id, j.cwd = []byte(r.Replace(string(j.data))), id, cwd
	return j
}

// threadWorld is one agent's roots in a temporary HOME and a fake proc
// file system.
type threadWorld struct {
	t                    *testing.T
	agent                evidence.Agent
	home, root, archived string
	procfs               string
}

func newThreadWorld(t *testing.T, agent evidence.Agent) *threadWorld {
	w := &threadWorld{t: t, agent: agent, home: t.TempDir(), procfs: t.TempDir()}
	if agent == evidence.Codex {
		w.root = filepath.Join(w.home, ".codex", "sessions")
		w.archived = filepath.Join(w.home, ".codex", "archived_sessions")
	} else {
		w.root = filepath.Join(w.home, ".claude", "projects")
	}
	return w
}

var slugChars = regexp.MustCompile(`[^a-zA-Z0-9]`)

// path is where the agent keeps j: Claude projects/<slug>/<id>.jsonl,
// Codex sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl (or flat under
// archived_sessions).
func (w *threadWorld) path(j journal, archived bool) string {
	if w.agent == evidence.Claude {
		return filepath.Join(w.root, slugChars.ReplaceAllString(j.cwd, "-"), j.id+".jsonl")
	}
	name := "rollout-2026-12-03T14-35-01-" + j.id + ".jsonl"
	if archived {
		return filepath.Join(w.archived, name)
	}
	return filepath.Join(w.root, "2026", "12", "03", name)
}

func (w *threadWorld) put(j journal, archived bool) string {
	w.t.Helper()
	p := w.path(j, archived)
	w.write(p, j.data)
	return p
}

func (w *threadWorld) write(p string, data []byte) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// proc adds a process to the fake proc tree: its stat (parent, start
// time) and the links given (fd/N, exe, cwd -> target).
func (w *threadWorld) proc(pid, ppid int, start uint64, links map[string]string) {
	w.t.Helper()
	dir := filepath.Join(w.procfs, strconv.Itoa(pid))
	if err := os.MkdirAll(filepath.Join(dir, "fd"), 0o700); err != nil {
		w.t.Fatal(err)
	}
	// The kernel's layout: pid (comm) state ppid pgrp session tty tpgid
	// flags minflt cminflt majflt cmajflt utime stime cutime cstime
	// priority nice threads itrealvalue starttime ...
	stat := fmt.Sprintf("%d (fake proc) S %d %d %d 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 %d 0 0\n", pid, ppid, pid, pid, start)
	if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o600); err != nil {
		w.t.Fatal(err)
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			w.t.Fatal(err)
		}
	}
}

func (w *threadWorld) query(cwd string) ThreadQuery {
	return ThreadQuery{Agent: w.agent, Root: w.root, ArchivedRoot: w.archived, Cwd: cwd, Procfs: w.procfs}
}

func (w *threadWorld) list(q ThreadQuery) []Thread {
	w.t.Helper()
	ts, err := Threads(context.Background(), q)
	if err != nil {
		w.t.Fatal(err)
	}
	return ts
}

// brief is a Thread as the tables want it.
type brief struct {
	ID, Title        string
	Archived, Active bool
}

func briefs(ts []Thread) []brief {
	var out []brief
	for _, t := range ts {
		out = append(out, brief{t.ID, t.Title, t.Archived, t.ActiveElsewhere})
	}
	return out
}

const (
	cwdA    = "/work/project"
	idOne   = "11111111-1111-4111-8111-111111111111"
	idTwo   = "22222222-2222-4222-8222-222222222222"
	idThree = "33333333-3333-4333-8333-333333333333"
)

// firstTitle is what each version's picker showed for the rig's first
// conversation (recordings/rig/threads.go): 2.1.267 the AI title, the
// others the first prompt.
func firstTitle(agent evidence.Agent, version string) string {
	if agent == evidence.Claude && version == "2.1.267" {
		return "Fake session"
	}
	return "first-thread please"
}

var threadVersions = []struct {
	agent   evidence.Agent
	version string
}{{evidence.Claude, "2.1.267"}, {evidence.Claude, "2.1.332"}, {evidence.Codex, "0.155.1"}, {evidence.Codex, "0.171.0"}}

// TestThreads: the rules over each version's real journals.
func TestThreads(t *testing.T) {
	for _, v := range threadVersions {
		resumed := loadJournal(t, v.agent, v.version, "thread-resume")
		newer := loadJournal(t, v.agent, v.version, "thread-new")
		one, two := resumed.as(idOne, cwdA, 3), newer.as(idTwo, cwdA, 4)
		// Claude's thread-new journal is the conversation /clear began:
		// only the command, shown as "/clear"; Codex's is a first
		// conversation.
		twoTitle := firstTitle(v.agent, v.version)
		if v.agent == evidence.Claude {
			twoTitle = "/clear"
		}
		title := firstTitle(v.agent, v.version)
		cases := []struct {
			name  string
			setup func(w *threadWorld, q *ThreadQuery)
			want  []brief
		}{{
			name:  "newest first",
			setup: func(w *threadWorld, q *ThreadQuery) { w.put(one, false); w.put(two, false) },
			want:  []brief{{idTwo, twoTitle, false, false}, {idOne, title, false, false}},
		}, {
			name: "another cwd, and one whose slug is the same",
			setup: func(w *threadWorld, q *ThreadQuery) {
				w.put(one, false)
				w.put(two.as(idTwo, "/elsewhere", 4), false)
				other := two.as(idThree, "/work-project", 5) // slug -work-project, as cwdA's
				w.write(filepath.Join(filepath.Dir(w.path(one, false)), filepath.Base(w.path(other, false))), other.data)
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "the cwd compared clean",
			setup: func(w *threadWorld, q *ThreadQuery) {
				w.put(one, false)
				q.Cwd = "/work/./project/"
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "the current one excluded",
			setup: func(w *threadWorld, q *ThreadQuery) {
				w.put(one, false)
				w.put(two, false)
				q.Exclude = idTwo
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "a torn last line",
			setup: func(w *threadWorld, q *ThreadQuery) {
				w.put(one, false)
				torn := two
				torn.data = torn.data[:len(torn.data)-10]
				w.put(torn, false)
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "no id: the identity lines dropped",
			setup: func(w *threadWorld, q *ThreadQuery) {
				w.put(one, false)
				var kept []byte
				for line := range bytes.Lines(two.data) {
					if !bytes.Contains(line, []byte(`"cwd"`)) {
						kept = append(kept, line...)
					}
				}
				w.write(w.path(two, false), kept)
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "an empty file, a file named for another id, a directory, a symlink, a fifo",
			setup: func(w *threadWorld, q *ThreadQuery) {
				p := w.put(one, false)
				w.write(w.path(two, false), nil)
				w.write(strings.Replace(p, idOne, idThree, 1), one.data) // records of idOne
				dir := w.path(two.as("44444444-4444-4444-8444-444444444444", cwdA, 4), false)
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				link := w.path(two.as("55555555-5555-4555-8555-555555555555", cwdA, 4), false)
				if err := os.Symlink(p, link); err != nil {
					t.Fatal(err)
				}
				fifo := w.path(two.as("66666666-6666-4666-8666-666666666666", cwdA, 4), false)
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "limit",
			setup: func(w *threadWorld, q *ThreadQuery) {
				for day := 1; day <= 5; day++ {
					w.put(one.as(fmt.Sprintf("%08d-1111-4111-8111-111111111111", day), cwdA, day), false)
				}
				q.Limit = 2
			},
			want: []brief{{"00000005-1111-4111-8111-111111111111", title, false, false}, {"00000004-1111-4111-8111-111111111111", title, false, false}},
		}}
		if v.agent == evidence.Codex {
			cases = append(cases, []struct {
				name  string
				setup func(w *threadWorld, q *ThreadQuery)
				want  []brief
			}{{
				name:  "archived: left out",
				setup: func(w *threadWorld, q *ThreadQuery) { w.put(one, false); w.put(two, true) },
				want:  []brief{{idOne, title, false, false}},
			}, {
				name: "archived: flagged on request",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					w.put(two, true)
					q.Unresumable = true
				},
				want: []brief{{idTwo, twoTitle, true, false}, {idOne, title, false, false}},
			}, {
				name: "held open by another process",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					w.proc(4242, 1, 100, map[string]string{"fd/7": w.put(two, false)})
					q.Unresumable = true
				},
				want: []brief{{idTwo, twoTitle, false, true}, {idOne, title, false, false}},
			}, {
				name: "held open by the pane's own process or its child",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.proc(4242, 1, 100, nil)
					w.proc(4243, 4242, 101, map[string]string{"fd/7": w.put(two, false), "fd/8": w.put(one, false)})
					q.Self = []int{4242}
				},
				want: []brief{{idTwo, twoTitle, false, false}, {idOne, title, false, false}},
			}, {
				name: "renamed in the session index",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					index := readTestdata(t, "codex-"+v.version+"-session_index.jsonl")
					id := indexID(t, index)
					w.write(filepath.Join(w.home, ".codex", "session_index.jsonl"), bytes.ReplaceAll(index, []byte(id), []byte(idOne)))
				},
				want: []brief{{idOne, "Codex renamed", false, false}},
			}}...)
		} else {
			cases = append(cases, []struct {
				name  string
				setup func(w *threadWorld, q *ThreadQuery)
				want  []brief
			}{{
				name: "live in another process (its session record)",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					w.put(two, false)
					w.session(v.version, 4242, idTwo, 777)
					w.proc(4242, 1, 777, nil)
					q.Unresumable = true
				},
				want: []brief{{idTwo, twoTitle, false, true}, {idOne, title, false, false}},
			}, {
				name: "a record left by a process that is gone, or whose pid was reused",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					w.put(two, false)
					w.session(v.version, 4242, idTwo, 777)
					w.session(v.version, 4343, idOne, 777)
					w.proc(4343, 1, 778, nil)
				},
				want: []brief{{idTwo, twoTitle, false, false}, {idOne, title, false, false}},
			}, {
				name: "the pane's own record",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					w.session(v.version, 4242, idOne, 777)
					w.proc(4242, 1, 777, nil)
					q.Self = []int{4242}
				},
				want: []brief{{idOne, title, false, false}},
			}, {
				name: "a record of another pid namespace cannot be checked",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					w.session(v.version, 4242, idOne, 777)
					if err := os.MkdirAll(filepath.Join(w.procfs, "self", "ns"), 0o700); err != nil {
						t.Fatal(err)
					}
					if err := os.Symlink("pid:[1]", filepath.Join(w.procfs, "self", "ns", "pid")); err != nil {
						t.Fatal(err)
					}
					q.Unresumable = true
				},
				want: []brief{{idOne, title, false, true}},
			}, {
				name: "an unregistered claude of this cwd: just appended",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					p := w.put(two, false)
					old := time.Now().Add(-time.Minute)
					if err := os.Chtimes(p, old, old); err != nil {
						t.Fatal(err)
					}
					w.proc(4242, 1, 777, map[string]string{"exe": "/opt/claude-code/bin/claude.exe", "cwd": cwdA})
					q.Unresumable = true
				},
				want: []brief{{idTwo, twoTitle, false, false}, {idOne, title, false, true}},
			}, {
				name: "an unregistered claude of another cwd",
				setup: func(w *threadWorld, q *ThreadQuery) {
					w.put(one, false)
					w.proc(4242, 1, 777, map[string]string{"exe": "/opt/claude-code/bin/claude.exe", "cwd": "/elsewhere"})
				},
				want: []brief{{idOne, title, false, false}},
			}}...)
		}
		if v.agent == evidence.Claude && v.version == "2.1.332" {
			cases = append(cases, struct {
				name  string
				setup func(w *threadWorld, q *ThreadQuery)
				want  []brief
			}{
				name: "renamed (custom-title)",
				setup: func(w *threadWorld, q *ThreadQuery) {
					line := readTestdata(t, "claude-2.1.332-custom-title.jsonl")
					var rec struct {
						SessionID string `json:"sessionId"`
					}
					if err := json.Unmarshal(line, &rec); err != nil {
						t.Fatal(err)
					}
					renamed := one
					renamed.data = append(slices.Clone(one.data), bytes.ReplaceAll(line, []byte(rec.SessionID), []byte(idOne))...)
					w.put(renamed, false)
				},
				want: []brief{{idOne, "Renamed by hand", false, false}},
			})
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s-%s/%s", v.agent, v.version, c.name), func(t *testing.T) {
				w := newThreadWorld(t, v.agent)
				q := w.query(cwdA)
				c.setup(w, &q)
				got := w.list(q)
				if !slices.Equal(briefs(got), c.want) {
					t.Fatalf("got %+v\nwant %+v\n%s", briefs(got), c.want, whys(got))
				}
				for _, th := range got {
					if th.Why == "" || th.Updated.IsZero() || th.Size == 0 || !th.Unchanged() {
						t.Fatalf("%+v: no why, time or size, or changed", th)
					}
				}
			})
		}
	}
}

func whys(ts []Thread) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "  %s %s: %s\n", t.ID, t.Updated.Format(time.RFC3339), t.Why)
	}
	return b.String()
}

// session writes a Claude session record of version's captured shape
// for pid.
func (w *threadWorld) session(version string, pid int, id string, start uint64) {
	w.t.Helper()
	var rec map[string]any
	if err := json.Unmarshal(readTestdata(w.t, "claude-"+version+"-session-record.json"), &rec); err != nil {
		w.t.Fatal(err)
	}
	rec["pid"], rec["sessionId"], rec["cwd"], rec["procStart"] = pid, id, cwdA, strconv.FormatUint(start, 10)
	b, err := json.Marshal(rec)
	if err != nil {
		w.t.Fatal(err)
	}
	w.write(filepath.Join(w.home, ".claude", "sessions", strconv.Itoa(pid)+".json"), b)
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "threads", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func indexID(t *testing.T, index []byte) string {
	var e struct {
		ID string `json:"id"`
	}
	line, _, _ := bytes.Cut(index, []byte("\n"))
	if err := json.Unmarshal(line, &e); err != nil || e.ID == "" {
		t.Fatalf("index %q: %v", line, err)
	}
	return e.ID
}

// TestThreadsHeldByRealProcess: a real process (sh and its sleep, not
// the pane's) holds a rollout open through an inherited descriptor, read
// from /proc; listed as the pane's own when the test process is Self.
func TestThreadsHeldByRealProcess(t *testing.T) {
	w := newThreadWorld(t, evidence.Codex)
	w.procfs = ""
	j := loadJournal(t, evidence.Codex, "0.171.0", "thread-resume")
	one, two := j.as(idOne, cwdA, 3), j.as(idTwo, cwdA, 4)
	w.put(one, false)
	cmd := holder(t, "sleep 60", w.put(two, false))
	waitChild(t, cmd.Process.Pid)
	q := w.query(cwdA)
	q.Unresumable = true
	q.Self = nil // the holder is no Self's
	got := w.list(q)
	if want := []brief{{idTwo, "first-thread please", false, true}, {idOne, "first-thread please", false, false}}; !slices.Equal(briefs(got), want) {
		t.Fatalf("got %+v, want %+v\n%s", briefs(got), want, whys(got))
	}
	if !strings.Contains(got[0].Why, "pid ") {
		t.Fatalf("why %q names no process", got[0].Why)
	}
	q.Self = []int{os.Getpid()}
	if got := w.list(q); len(got) != 2 || got[0].ActiveElsewhere || got[1].ActiveElsewhere {
		t.Fatalf("held by a descendant of Self: %+v\n%s", briefs(got), whys(got))
	}
}

// TestThreadTitles: the title is bounded, on one line, and the
// assistant's text is never one.
func TestThreadTitles(t *testing.T) {
	long := strings.Repeat("ünïcödé wörds ", 20)
	j := loadJournal(t, evidence.Codex, "0.155.1", "thread-resume").as(idOne, cwdA, 3)
	j.data = bytes.ReplaceAll(j.data, []byte("first-thread please"), []byte(`line one\n\t\u001b[31mred\u001b[0m `+long))
	w := newThreadWorld(t, evidence.Codex)
	w.put(j, false)
	got := w.list(w.query(cwdA))
	if len(got) != 1 {
		t.Fatalf("got %+v", briefs(got))
	}
	title := got[0].Title
	if n := utf8.RuneCountInString(title); n != titleRunes || !strings.HasPrefix(title, "line one [31mred [0m ünïcödé") || !strings.HasSuffix(title, "…") {
		t.Fatalf("title %q (%d runes)", title, n)
	}
	for _, r := range title {
		if unicode.IsControl(r) {
			t.Fatalf("title %q has control %U", title, r)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"  a\n\nb\t c  ", "a b c"},
		{"\x1b\x00\xff", ""},
		{strings.Repeat("x", titleRunes), strings.Repeat("x", titleRunes)},
		{strings.Repeat("x", titleRunes) + " y", strings.Repeat("x", titleRunes-1) + "…"},
	} {
		if got := boundTitle(c.in); got != c.want {
			t.Errorf("boundTitle(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// No line of a recorded conversation gives the assistant's reply as
	// a prompt or title.
	for _, v := range threadVersions {
		for _, sc := range []string{"thread-new", "thread-resume", "thread-resume-id"} {
			j := loadJournal(t, v.agent, v.version, sc)
			for line := range bytes.Lines(j.data) {
				tl := parseThreadLine(v.agent, bytes.TrimSuffix(line, []byte("\n")))
				for _, s := range []string{tl.Prompt, tl.Command, tl.AITitle, tl.CustomTitle, tl.LastPrompt} {
					if strings.Contains(s, "conversation.") || strings.Contains(s, "fake model") {
						t.Fatalf("%s %s %s: the assistant's text %q read as the user's", v.agent, v.version, sc, s)
					}
				}
			}
		}
	}
}

// TestThreadUnchanged: a thread's file, appended to, replaced or moved.
func TestThreadUnchanged(t *testing.T) {
	w := newThreadWorld(t, evidence.Codex)
	p := w.put(loadJournal(t, evidence.Codex, "0.171.0", "thread-resume").as(idOne, cwdA, 3), false)
	got := w.list(w.query(cwdA))
	if len(got) != 1 || !got[0].Unchanged() || !got[0].SameFile() {
		t.Fatalf("got %+v", got)
	}
	th := got[0]
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("{}\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if th.Unchanged() || !th.SameFile() {
		t.Fatal("appended: want changed, the same file")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	tmp := p + ".new"
	w.write(tmp, data[:th.Size])
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	if th.Unchanged() || th.SameFile() {
		t.Fatal("replaced by a copy of the same bytes: want another file")
	}
	// Archived: the rollout moved to archived_sessions.
	th = w.list(w.query(cwdA))[0]
	if err := os.MkdirAll(w.archived, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p, filepath.Join(w.archived, filepath.Base(p))); err != nil {
		t.Fatal(err)
	}
	if th.Unchanged() || th.SameFile() {
		t.Fatal("moved: want changed")
	}
	if got := w.list(w.query(cwdA)); len(got) != 0 {
		t.Fatalf("archived still listed: %+v", briefs(got))
	}
}

// TestThreadsQuery: a bad query is an error, a missing root lists
// nothing, a cancelled context stops.
func TestThreadsQuery(t *testing.T) {
	for _, q := range []ThreadQuery{{Agent: "vim", Root: "/r", Cwd: "/c"}, {Agent: evidence.Codex, Cwd: "/c"}, {Agent: evidence.Claude, Root: "/r"}} {
		if _, err := Threads(context.Background(), q); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v: err %v, want ErrOptions", q, err)
		}
	}
	got, err := Threads(context.Background(), ThreadQuery{Agent: evidence.Claude, Root: filepath.Join(t.TempDir(), "none"), Cwd: cwdA})
	if err != nil || len(got) != 0 {
		t.Fatalf("missing root: %v %v", got, err)
	}
	w := newThreadWorld(t, evidence.Claude)
	w.put(loadJournal(t, evidence.Claude, "2.1.332", "thread-resume").as(idOne, cwdA, 3), false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Threads(ctx, w.query(cwdA)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// FuzzThreadLine: any line, read as either agent's, gives a bounded
// one-line title and never panics; a file of such lines neither.
func FuzzThreadLine(f *testing.F) {
	for _, v := range threadVersions {
		for _, sc := range []string{"thread-new", "thread-resume", "thread-resume-id"} {
			for line := range bytes.Lines(loadJournal(f, v.agent, v.version, sc).data) {
				if len(line) < 4096 {
					f.Add(bytes.TrimSuffix(line, []byte("\n")))
				}
			}
		}
	}
	for _, name := range []string{"claude-2.1.332-custom-title.jsonl", "codex-0.171.0-session_index.jsonl"} {
		for line := range bytes.Lines(readTestdata(f, name)) {
			f.Add(bytes.TrimSuffix(line, []byte("\n")))
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, agent := range []evidence.Agent{evidence.Claude, evidence.Codex} {
			acc := threadAcc{agent: agent}
			tl := parseThreadLine(agent, line)
			acc.add(tl)
			acc.add(tl)
			if (tl.ID == "") != (tl.Cwd == "") {
				t.Fatalf("id %q without cwd %q or the reverse", tl.ID, tl.Cwd)
			}
			title := acc.title(string(line))
			if utf8.RuneCountInString(title) > titleRunes || !utf8.ValidString(title) || boundTitle(title) != title {
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
			readThread(agent, p, cwdA, nil)
		}
	})
}

// TestLiveThreads: the rig's thread-resume scenario on the newest pinned
// version of each agent (a first conversation, a second after /clear or
// /new, /resume back to the first and a prompt there); while the agent
// still runs, the pane's listing is the second conversation alone, and
// seen from another pane the agent is live in what it holds: Claude in
// the session its record names (the first), Codex in both rollouts it
// keeps open.
func TestLiveThreads(t *testing.T) {
	for _, agent := range []evidence.Agent{evidence.Claude, evidence.Codex} {
		t.Run(string(agent), func(t *testing.T) {
			version := newestPinned(t, string(agent))
			_, err := rig.Lookup(string(agent), version)
			tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("%s@%s not installed: %v", agent, version, err))
			_, err = exec.LookPath("tmux")
			tmuxtest.Require(t, "live", err == nil, "tmux not found in PATH")
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			_, err = rig.RunProbe(ctx, rig.Config{Agent: string(agent), Version: version, Scenario: "thread-resume"}, func(p rig.Probe) error {
				q := ThreadQuery{Agent: agent, Cwd: p.Home.Work, Self: []int{p.PanePID}}
				current := strings.TrimSuffix(filepath.Base(p.Journal), ".jsonl")
				if agent == evidence.Codex {
					q.Root, q.ArchivedRoot = filepath.Join(p.Home.Home, ".codex", "sessions"), filepath.Join(p.Home.Home, ".codex", "archived_sessions")
					current = current[max(0, len(current)-36):]
				} else {
					q.Root = filepath.Join(p.Home.Home, ".claude", "projects")
				}
				q.Exclude = current
				got, err := Threads(ctx, q)
				if err != nil {
					return err
				}
				t.Logf("%s %s, the pane's listing:\n%s", agent, version, whys(got))
				if len(got) != 1 || got[0].ID == current || got[0].Title != "second-thread please" || got[0].ActiveElsewhere {
					return fmt.Errorf("the pane's listing %+v, want the second conversation alone (current %s)", briefs(got), current)
				}
				second := got[0].ID
				q.Self, q.Exclude, q.Unresumable = nil, "", true
				if got, err = Threads(ctx, q); err != nil {
					return err
				}
				t.Logf("%s %s, from another pane:\n%s", agent, version, whys(got))
				want := map[string]bool{current: true, second: agent == evidence.Codex}
				if len(got) != 2 {
					return fmt.Errorf("from another pane %+v, want both", briefs(got))
				}
				for _, th := range got {
					if th.ActiveElsewhere != want[th.ID] {
						return fmt.Errorf("from another pane %+v, want live %v", briefs(got), want)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
