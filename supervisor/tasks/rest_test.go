package tasks

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/gemini/chats"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// TestReplyRest: for an agent whose file writes no end of turn (Gemini
// CLI), a managed Turn and an exact Watch settle completed at the turn's
// last reply once the screen has read idle, with no output, for the rest
// window after it; output restarts the window, any other screen stops it,
// and any later record of the turn (a call, a result) drops the reply.
func TestReplyRest(t *testing.T) {
	const rest = time.Second
	file := evidence.FileID{Dev: 3, Ino: 4}
	at := func(off int64) evidence.Where {
		return evidence.Where{Agent: chats.Agent, Path: "/chats/session.jsonl", File: file, Offset: off, End: off + 10}
	}
	type step struct {
		obs     string // idle, working, output (idle with new output), "": none
		ev      evidence.Event
		advance time.Duration
	}
	reply := evidence.ReplyEnded{Where: at(200), TurnID: "native-1", Text: true}
	for _, tc := range []struct {
		name  string
		steps []step
		want  bool // settled completed at the end
	}{
		{"idle and quiet for the window after the reply", []step{{obs: "working"}, {ev: reply}, {obs: "idle", advance: rest}}, true},
		{"idle before the reply was read: the window starts at the reply", []step{{obs: "idle"}, {ev: reply, advance: rest}}, true},
		{"one instant short of the window", []step{{ev: reply}, {obs: "idle", advance: rest - time.Millisecond}}, false},
		{"output restarts the window", []step{{ev: reply}, {obs: "idle", advance: rest / 2}, {obs: "output", advance: rest - time.Millisecond}}, false},
		{"output, then a whole quiet window", []step{{ev: reply}, {obs: "idle", advance: rest / 2}, {obs: "output", advance: rest}}, true},
		{"a dialog stops it", []step{{ev: reply}, {obs: "idle", advance: rest / 2}, {obs: "approval", advance: 10 * rest}}, false},
		{"a call of the turn after the reply drops it", []step{{ev: reply}, {obs: "idle"},
			{ev: evidence.ToolPending{Where: at(300), TurnID: "native-1", CallID: "c1", Name: "run_shell_command"}, advance: 10 * rest}}, false},
		{"a reply of another turn", []step{{ev: evidence.ReplyEnded{Where: at(200), TurnID: "native-0", Text: true}}, {obs: "idle", advance: 10 * rest}}, false},
		{"no reply: idle alone settles nothing", []step{{obs: "idle", advance: 10 * rest}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, watch := range []bool{false, true} {
				r := newTimerRig(t, Config{StallAfter: 10 * time.Minute, HardTimeout: time.Hour})
				const term, inc = "term_g", "1/1/gemini"
				id := "turn_rest"
				if watch {
					id = "watch_rest"
					rec := store.Watch{ID: id, TerminalID: term, Mode: api.WatchExactTask, Confidence: api.ConfidenceExact,
						State: WatchActive, Incarnation: inc, Created: r.clock.Now(), Deadline: r.clock.Now().Add(time.Hour),
						Anchor: &store.TaskAnchor{Agent: "gemini", Path: "/chats/session.jsonl", FileDev: file.Dev, FileIno: file.Ino,
							Generation: 1, Start: 100, TurnID: "native-1"}}
					r.m.opMu.Lock()
					r.m.kit.fs.watches[id] = &watchState{rec: rec}
					r.m.opMu.Unlock()
				} else {
					sp := TurnSpec{TurnID: id, TerminalID: term, Controller: "mcp:host", Incarnation: inc, Created: r.clock.Now(),
						Agent: "gemini", Path: "/chats/session.jsonl", File: file, Start: 100, BindingGen: 1, NativeTurnID: "native-1"}
					r.ledger.specs[id], r.ledger.state[id] = sp, TurnRunning
					r.m.MonitorTurn(sp)
				}
				var out int64
				for _, s := range tc.steps {
					if s.obs != "" {
						screen := map[string]string{"idle": string(contract.ScreenIdle), "output": string(contract.ScreenIdle), "working": string(contract.ScreenWorking),
							"approval": string(contract.ScreenAwaitingApproval)}[s.obs]
						if s.obs != "idle" {
							out += 100
						}
						r.m.Observe(terminal.Observation{TerminalID: term, At: r.clock.Now(), Screen: contract.ScreenState(screen), Incarnation: inc,
							Bind: terminal.Binding{Generation: 1}, OutBytes: out})
					}
					if s.ev != nil {
						r.m.Evidence(term, 1, s.ev)
					}
					r.m.process()
					r.clock.advance(s.advance)
					r.m.process()
				}
				var got bool
				if watch {
					w, err := r.st.Watch(id)
					got = err == nil && w.State == WatchSettled && w.Reason == ReasonCompleted
				} else {
					got = r.ledger.state[id] == TurnCompleted
				}
				if got != tc.want {
					t.Errorf("watch=%v: settled completed %v, want %v", watch, got, tc.want)
				}
			}
		})
	}
}

// TestTaskAnchorAfterReply: an exact Watch taken on Gemini CLI, whose file
// shows its last turn still open (no end of turn is ever written), follows
// the next task when that turn's last record is a reply and the screen is
// idle; while the screen works the open turn is the task.
func TestTaskAnchorAfterReply(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session-x.jsonl")
	lines := `{"sessionId":"s1","projectHash":"h","startTime":"2026-12-06T10:00:00.000Z","lastUpdated":"2026-12-06T10:00:00.000Z","kind":"main"}
{"id":"u1","timestamp":"2026-12-06T10:00:01.000Z","type":"user","content":[{"text":"hi"}]}
{"id":"r1","timestamp":"2026-12-06T10:00:02.000Z","type":"gemini","content":"Hello"}
{"$set":{"lastUpdated":"2026-12-06T10:00:02.000Z"}}
`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		screen, want string
	}{
		{string(contract.ScreenIdle), ""},
		{string(contract.ScreenWorking), "u1"},
	} {
		o := terminal.Observation{Agent: "gemini", Screen: contract.ScreenState(tc.screen),
			Bind: terminal.Binding{State: contract.IdentityResolved, Path: path, Generation: 1}}
		a, why := taskAnchor(o)
		if a == nil {
			t.Fatalf("%s: no anchor: %s", tc.screen, why)
		}
		if a.TurnID != tc.want {
			t.Errorf("%s: anchored turn %q, want %q", tc.screen, a.TurnID, tc.want)
		}
		if tc.want == "" && a.Start != int64(len(lines)) {
			t.Errorf("%s: the next task starts at %d, want the file's end %d", tc.screen, a.Start, len(lines))
		}
	}
}
