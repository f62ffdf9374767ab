package registry

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

	"github.com/agent-knock-knock/akk/agents/agenttest"
	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// The thread listing is tested over journals the rig recorded
// (recordings/testdata/*/*/thread-{new,resume}.*.jsonl), copied into
// temporary roots with their ids, cwds and dates rewritten, and over
// records the real agents wrote in a run (testdata/threads, see its
// README). Processes are a fake proc tree, except for one real process
// holding a rollout open.

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
	if agent == rollout.Agent {
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
func (w *threadWorld) path(j agenttest.Journal, archived bool) string {
	if w.agent == transcript.Agent {
		return filepath.Join(w.root, slugChars.ReplaceAllString(j.Cwd, "-"), j.ID+".jsonl")
	}
	name := "rollout-2026-12-03T14-35-01-" + j.ID + ".jsonl"
	if archived {
		return filepath.Join(w.archived, name)
	}
	return filepath.Join(w.root, "2026", "12", "03", name)
}

func (w *threadWorld) put(j agenttest.Journal, archived bool) string {
	w.t.Helper()
	p := w.path(j, archived)
	w.write(p, j.Data)
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

func (w *threadWorld) query(cwd string) watchers.ThreadQuery {
	return watchers.ThreadQuery{Agent: w.agent, Root: w.root, ArchivedRoot: w.archived, Cwd: cwd, Procfs: w.procfs}
}

func (w *threadWorld) list(q watchers.ThreadQuery) []watchers.Thread {
	w.t.Helper()
	ts, err := listThreads(context.Background(), q)
	if err != nil {
		w.t.Fatal(err)
	}
	return ts
}

// brief is a watchers.Thread as the tables want it.
type brief struct {
	ID, Title        string
	Archived, Active bool
}

func briefs(ts []watchers.Thread) []brief {
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
	if agent == transcript.Agent && version == "2.1.267" {
		return "Fake session"
	}
	return "first-thread please"
}

var threadVersions = []struct {
	agent   evidence.Agent
	version string
}{{transcript.Agent, "2.1.267"}, {transcript.Agent, "2.1.332"}, {rollout.Agent, "0.155.1"}, {rollout.Agent, "0.171.0"}}

// TestThreads: the rules over each version's real journals.
func TestThreads(t *testing.T) {
	for _, v := range threadVersions {
		resumed := agenttest.LoadJournal(t, v.agent, v.version, "thread-resume")
		newer := agenttest.LoadJournal(t, v.agent, v.version, "thread-new")
		one, two := resumed.As(idOne, cwdA, 3), newer.As(idTwo, cwdA, 4)
		// Claude's thread-new agenttest.Journal is the conversation /clear began:
		// only the command, shown as "/clear"; Codex's is a first
		// conversation.
		twoTitle := firstTitle(v.agent, v.version)
		if v.agent == transcript.Agent {
			twoTitle = "/clear"
		}
		title := firstTitle(v.agent, v.version)
		cases := []struct {
			name  string
			setup func(w *threadWorld, q *watchers.ThreadQuery)
			want  []brief
		}{{
			name:  "newest first",
			setup: func(w *threadWorld, q *watchers.ThreadQuery) { w.put(one, false); w.put(two, false) },
			want:  []brief{{idTwo, twoTitle, false, false}, {idOne, title, false, false}},
		}, {
			name: "another cwd, and one whose slug is the same",
			setup: func(w *threadWorld, q *watchers.ThreadQuery) {
				w.put(one, false)
				w.put(two.As(idTwo, "/elsewhere", 4), false)
				other := two.As(idThree, "/work-project", 5) // slug -work-project, as cwdA's
				w.write(filepath.Join(filepath.Dir(w.path(one, false)), filepath.Base(w.path(other, false))), other.Data)
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "the cwd compared clean",
			setup: func(w *threadWorld, q *watchers.ThreadQuery) {
				w.put(one, false)
				q.Cwd = "/work/./project/"
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "the current one excluded",
			setup: func(w *threadWorld, q *watchers.ThreadQuery) {
				w.put(one, false)
				w.put(two, false)
				q.Exclude = idTwo
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "a torn last line",
			setup: func(w *threadWorld, q *watchers.ThreadQuery) {
				w.put(one, false)
				torn := two
				torn.Data = torn.Data[:len(torn.Data)-10]
				w.put(torn, false)
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "no id: the identity lines dropped",
			setup: func(w *threadWorld, q *watchers.ThreadQuery) {
				w.put(one, false)
				var kept []byte
				for line := range bytes.Lines(two.Data) {
					if !bytes.Contains(line, []byte(`"cwd"`)) {
						kept = append(kept, line...)
					}
				}
				w.write(w.path(two, false), kept)
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "an empty file, a file named for another id, a directory, a symlink, a fifo",
			setup: func(w *threadWorld, q *watchers.ThreadQuery) {
				p := w.put(one, false)
				w.write(w.path(two, false), nil)
				w.write(strings.Replace(p, idOne, idThree, 1), one.Data) // records of idOne
				dir := w.path(two.As("44444444-4444-4444-8444-444444444444", cwdA, 4), false)
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				link := w.path(two.As("55555555-5555-4555-8555-555555555555", cwdA, 4), false)
				if err := os.Symlink(p, link); err != nil {
					t.Fatal(err)
				}
				fifo := w.path(two.As("66666666-6666-4666-8666-666666666666", cwdA, 4), false)
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			want: []brief{{idOne, title, false, false}},
		}, {
			name: "limit",
			setup: func(w *threadWorld, q *watchers.ThreadQuery) {
				for day := 1; day <= 5; day++ {
					w.put(one.As(fmt.Sprintf("%08d-1111-4111-8111-111111111111", day), cwdA, day), false)
				}
				q.Limit = 2
			},
			want: []brief{{"00000005-1111-4111-8111-111111111111", title, false, false}, {"00000004-1111-4111-8111-111111111111", title, false, false}},
		}}
		if v.agent == rollout.Agent {
			cases = append(cases, []struct {
				name  string
				setup func(w *threadWorld, q *watchers.ThreadQuery)
				want  []brief
			}{{
				name:  "archived: left out",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) { w.put(one, false); w.put(two, true) },
				want:  []brief{{idOne, title, false, false}},
			}, {
				name: "archived: flagged on request",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
					w.put(one, false)
					w.put(two, true)
					q.Unresumable = true
				},
				want: []brief{{idTwo, twoTitle, true, false}, {idOne, title, false, false}},
			}, {
				name: "held open by another process",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
					w.put(one, false)
					w.proc(4242, 1, 100, map[string]string{"fd/7": w.put(two, false)})
					q.Unresumable = true
				},
				want: []brief{{idTwo, twoTitle, false, true}, {idOne, title, false, false}},
			}, {
				name: "held open by the pane's own process or its child",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
					w.proc(4242, 1, 100, nil)
					w.proc(4243, 4242, 101, map[string]string{"fd/7": w.put(two, false), "fd/8": w.put(one, false)})
					q.Self = []int{4242}
				},
				want: []brief{{idTwo, twoTitle, false, false}, {idOne, title, false, false}},
			}, {
				name: "renamed in the session index",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
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
				setup func(w *threadWorld, q *watchers.ThreadQuery)
				want  []brief
			}{{
				name: "live in another process (its session record)",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
					w.put(one, false)
					w.put(two, false)
					w.session(v.version, 4242, idTwo, 777)
					w.proc(4242, 1, 777, nil)
					q.Unresumable = true
				},
				want: []brief{{idTwo, twoTitle, false, true}, {idOne, title, false, false}},
			}, {
				name: "a record left by a process that is gone, or whose pid was reused",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
					w.put(one, false)
					w.put(two, false)
					w.session(v.version, 4242, idTwo, 777)
					w.session(v.version, 4343, idOne, 777)
					w.proc(4343, 1, 778, nil)
				},
				want: []brief{{idTwo, twoTitle, false, false}, {idOne, title, false, false}},
			}, {
				name: "the pane's own record",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
					w.put(one, false)
					w.session(v.version, 4242, idOne, 777)
					w.proc(4242, 1, 777, nil)
					q.Self = []int{4242}
				},
				want: []brief{{idOne, title, false, false}},
			}, {
				name: "a record of another pid namespace cannot be checked",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
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
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
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
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
					w.put(one, false)
					w.proc(4242, 1, 777, map[string]string{"exe": "/opt/claude-code/bin/claude.exe", "cwd": "/elsewhere"})
				},
				want: []brief{{idOne, title, false, false}},
			}}...)
		}
		if v.agent == transcript.Agent && v.version == "2.1.332" {
			cases = append(cases, struct {
				name  string
				setup func(w *threadWorld, q *watchers.ThreadQuery)
				want  []brief
			}{
				name: "renamed (custom-title)",
				setup: func(w *threadWorld, q *watchers.ThreadQuery) {
					line := readTestdata(t, "claude-2.1.332-custom-title.jsonl")
					var rec struct {
						SessionID string `json:"sessionId"`
					}
					if err := json.Unmarshal(line, &rec); err != nil {
						t.Fatal(err)
					}
					renamed := one
					renamed.Data = append(slices.Clone(one.Data), bytes.ReplaceAll(line, []byte(rec.SessionID), []byte(idOne))...)
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

func whys(ts []watchers.Thread) string {
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
	w := newThreadWorld(t, rollout.Agent)
	w.procfs = ""
	j := agenttest.LoadJournal(t, rollout.Agent, "0.171.0", "thread-resume")
	one, two := j.As(idOne, cwdA, 3), j.As(idTwo, cwdA, 4)
	w.put(one, false)
	cmd := agenttest.HoldOpen(t, "sleep 60", w.put(two, false))
	agenttest.AwaitChild(t, cmd.Process.Pid)
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
	j := agenttest.LoadJournal(t, rollout.Agent, "0.155.1", "thread-resume").As(idOne, cwdA, 3)
	j.Data = bytes.ReplaceAll(j.Data, []byte("first-thread please"), []byte(`line one\n\t\u001b[31mred\u001b[0m `+long))
	w := newThreadWorld(t, rollout.Agent)
	w.put(j, false)
	got := w.list(w.query(cwdA))
	if len(got) != 1 {
		t.Fatalf("got %+v", briefs(got))
	}
	title := got[0].Title
	if n := utf8.RuneCountInString(title); n != watchers.MaxTitleRunes || !strings.HasPrefix(title, "line one [31mred [0m ünïcödé") || !strings.HasSuffix(title, "…") {
		t.Fatalf("title %q (%d runes)", title, n)
	}
	for _, r := range title {
		if unicode.IsControl(r) {
			t.Fatalf("title %q has control %U", title, r)
		}
	}
	// No line of a recorded conversation gives the assistant's reply as
	// a prompt or title.
	for _, v := range threadVersions {
		for _, sc := range []string{"thread-new", "thread-resume", "thread-resume-id"} {
			j := agenttest.LoadJournal(t, v.agent, v.version, sc)
			for line := range bytes.Lines(j.Data) {
				tl := threadLine(v.agent, bytes.TrimSuffix(line, []byte("\n")))
				for _, s := range []string{tl.Prompt, tl.Command, tl.Title} {
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
	w := newThreadWorld(t, rollout.Agent)
	p := w.put(agenttest.LoadJournal(t, rollout.Agent, "0.171.0", "thread-resume").As(idOne, cwdA, 3), false)
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
	for _, q := range []watchers.ThreadQuery{{Agent: "vim", Root: "/r", Cwd: "/c"}, {Agent: rollout.Agent, Cwd: "/c"}, {Agent: transcript.Agent, Root: "/r"}} {
		if _, err := listThreads(context.Background(), q); !errors.Is(err, watchers.ErrOptions) {
			t.Errorf("%+v: err %v, want watchers.ErrOptions", q, err)
		}
	}
	got, err := listThreads(context.Background(), watchers.ThreadQuery{Agent: transcript.Agent, Root: filepath.Join(t.TempDir(), "none"), Cwd: cwdA})
	if err != nil || len(got) != 0 {
		t.Fatalf("missing root: %v %v", got, err)
	}
	w := newThreadWorld(t, transcript.Agent)
	w.put(agenttest.LoadJournal(t, transcript.Agent, "2.1.332", "thread-resume").As(idOne, cwdA, 3), false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := listThreads(ctx, w.query(cwdA)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestLiveThreads: the rig's thread-resume scenario on the newest pinned
// version of each agent (a first conversation, a second after /clear or
// /new, /resume back to the first and a prompt there); while the agent
// still runs, the pane's listing is the second conversation alone, and
// seen from another pane the agent is live in what it holds: Claude in
// the session its record names (the first), Codex in both rollouts it
// keeps open.
func TestLiveThreads(t *testing.T) {
	for _, agent := range []evidence.Agent{transcript.Agent, rollout.Agent} {
		t.Run(string(agent), func(t *testing.T) {
			version := agenttest.NewestPinned(t, string(agent))
			_, err := rig.Lookup(string(agent), version)
			tmuxtest.Require(t, "live", err == nil, fmt.Sprintf("%s@%s not installed: %v", agent, version, err))
			_, err = exec.LookPath("tmux")
			tmuxtest.Require(t, "live", err == nil, "tmux not found in PATH")
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			_, err = rig.RunProbe(ctx, rig.Config{Agent: string(agent), Version: version, Scenario: "thread-resume"}, func(p rig.Probe) error {
				q := watchers.ThreadQuery{Agent: agent, Cwd: p.Home.Work, Self: []int{p.PanePID}}
				current := strings.TrimSuffix(filepath.Base(p.Journal), ".jsonl")
				if agent == rollout.Agent {
					q.Root, q.ArchivedRoot = filepath.Join(p.Home.Home, ".codex", "sessions"), filepath.Join(p.Home.Home, ".codex", "archived_sessions")
					current = current[max(0, len(current)-36):]
				} else {
					q.Root = filepath.Join(p.Home.Home, ".claude", "projects")
				}
				q.Exclude = current
				got, err := listThreads(ctx, q)
				if err != nil {
					return err
				}
				t.Logf("%s %s, the pane's listing:\n%s", agent, version, whys(got))
				if len(got) != 1 || got[0].ID == current || got[0].Title != "second-thread please" || got[0].ActiveElsewhere {
					return fmt.Errorf("the pane's listing %+v, want the second conversation alone (current %s)", briefs(got), current)
				}
				second := got[0].ID
				q.Self, q.Exclude, q.Unresumable = nil, "", true
				if got, err = listThreads(ctx, q); err != nil {
					return err
				}
				t.Logf("%s %s, from another pane:\n%s", agent, version, whys(got))
				want := map[string]bool{current: true, second: agent == rollout.Agent}
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

// listThreads lists q.Agent's conversations as the daemon does: through
// the agent's own thread candidates (an agent akk knows none of, or none
// of whose threads it runs, gets the engine's answer to a query without a
// format).
func listThreads(ctx context.Context, q watchers.ThreadQuery) ([]watchers.Thread, error) {
	a, ok := Lookup(string(q.Agent))
	if !ok || a.Threads() == nil {
		return watchers.Threads(ctx, q, nil)
	}
	return a.Threads().Candidates(ctx, q.Root, q)
}

// threadLine is what a line of agent's journal says of its conversation.
func threadLine(agent evidence.Agent, line []byte) evidence.ThreadLine {
	if agent == rollout.Agent {
		return rollout.ThreadLine(line)
	}
	return transcript.ThreadLine(line)
}
