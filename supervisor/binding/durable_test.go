package binding

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-knock-knock/akk/agents/claude/transcript"
	"github.com/agent-knock-knock/akk/agents/codex/rollout"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// foldFile folds a recorded journal line by line, calling each after
// every event with the fold so far.
func foldFile(t *testing.T, agent evidence.Agent, file string, each func(evidence.Event, Durable)) Durable {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	format, ok := evidence.FormatOf(agent)
	if !ok {
		t.Fatalf("no format of %s", agent)
	}
	p := format.NewParser()
	var d Durable
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for off := int64(0); sc.Scan(); off += int64(len(sc.Bytes())) + 1 {
		for _, ev := range p.Parse(evidence.Where{Agent: agent, Offset: off, End: off + int64(len(sc.Bytes())) + 1}, sc.Bytes(), nil) {
			d = d.Next(ev)
			each(ev, d)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDurableSecretRecorded: Codex's question-secret rollout (the fake
// model set isSecret) marks its call secret from the call until its
// answer; an ordinary question never does.
func TestDurableSecretRecorded(t *testing.T) {
	for _, v := range []string{"0.155.1", "0.171.0"} {
		marked := 0
		d := foldFile(t, rollout.Agent, "codex/"+v+"/question-secret.rollout.jsonl", func(ev evidence.Event, d Durable) {
			switch e := ev.(type) {
			case evidence.ToolPending:
				if e.Name == "request_user_input" && d.SecretCall != e.CallID {
					t.Errorf("%s: the secret question %s is not marked: %+v", v, e.CallID, d)
				}
				marked++
			case evidence.ToolResult:
				if d.SecretCall != "" {
					t.Errorf("%s: still marked after its answer: %+v", v, d)
				}
			}
		})
		if marked != 1 || d.SecretCall != "" || d.State != contract.DurableIdle {
			t.Errorf("%s: %d question calls, end %+v", v, marked, d)
		}
		foldFile(t, rollout.Agent, "codex/"+v+"/question-digit.rollout.jsonl", func(_ evidence.Event, d Durable) {
			if d.SecretCall != "" {
				t.Fatalf("%s: an ordinary question marked secret", v)
			}
		})
	}
}

// TestDurableSecretAsync: request_user_input_async returns at once while
// its question waits: the mark stays past its result and the turn's end,
// until the answer arrives as a prompt. A newer question replaces it.
func TestDurableSecretAsync(t *testing.T) {
	steps := []struct {
		ev     evidence.Event
		secret string
	}{
		{evidence.TurnStarted{TurnID: "t1"}, ""},
		{evidence.ToolPending{CallID: "c1", Name: "request_user_input_async", SecretQuestion: true}, "c1"},
		{evidence.ToolResult{CallID: "c1", Name: "request_user_input_async"}, "c1"},
		{evidence.TurnCompleted{TurnID: "t1"}, "c1"},
		{evidence.PromptAccepted{TurnID: "t2"}, ""},
		{evidence.ToolPending{CallID: "c2", Name: "request_user_input", SecretQuestion: true}, "c2"},
		{evidence.ToolPending{CallID: "c3", Name: "exec_command"}, "c2"}, // not a question
		{evidence.ToolPending{CallID: "c4", Name: "request_user_input"}, ""},
		{evidence.ToolPending{CallID: "c5", Name: "request_user_input", SecretQuestion: true}, "c5"},
		{evidence.TurnAborted{TurnID: "t2"}, ""},
	}
	var d Durable
	for i, s := range steps {
		d = d.Next(s.ev)
		if d.SecretCall != s.secret {
			t.Errorf("step %d (%T): secret call %q, want %q", i, s.ev, d.SecretCall, s.secret)
		}
		var st terminal.Binding
		d.apply(&st)
		if st.SecretQuestion != (s.secret != "") {
			t.Errorf("step %d: binding SecretQuestion %v", i, st.SecretQuestion)
		}
	}
}

// TestParseDurableLastCall: the first parse of a bound file knows its
// newest tool call, as the stream would: a fence written before a daemon
// restart still matches the prompt on screen after it.
func TestParseDurableLastCall(t *testing.T) {
	for _, tc := range []struct {
		agent evidence.Agent
		file  string
	}{
		{transcript.Agent, "claude/2.1.267/permission-approve.transcript.jsonl"},
		{rollout.Agent, "codex/0.155.1/permission-approve.rollout.jsonl"},
	} {
		var last string
		foldFile(t, tc.agent, tc.file, func(ev evidence.Event, _ Durable) {
			if e, ok := ev.(evidence.ToolPending); ok {
				last = e.CallID
			}
		})
		d, _, _ := ParseDurable(tc.agent, filepath.Join(corpusDir, tc.file))
		if last == "" || d.LastCall != last {
			t.Errorf("%s: first parse's last call %q, want %q", tc.file, d.LastCall, last)
		}
	}
}

// TestDurableRunningTurn: the Codex turn in progress, from its
// task_started to its end, on a recorded rollout (working: its turn never
// ends) and a finished one.
func TestDurableRunningTurn(t *testing.T) {
	var started string
	d := foldFile(t, rollout.Agent, "codex/0.155.1/working.rollout.jsonl", func(ev evidence.Event, d Durable) {
		if e, ok := ev.(evidence.TurnStarted); ok {
			started = e.TurnID
			if d.Turn != e.TurnID {
				t.Errorf("after task_started %s: running %q", e.TurnID, d.Turn)
			}
		}
	})
	if started == "" || d.Turn != started || d.State != contract.DurableWorking {
		t.Errorf("working: %+v, want turn %q running", d, started)
	}
	if d := foldFile(t, rollout.Agent, "codex/0.155.1/permission-approve.rollout.jsonl", func(evidence.Event, Durable) {}); d.Turn != "" {
		t.Errorf("a finished rollout: running %q", d.Turn)
	}
}
