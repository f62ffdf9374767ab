package supervisor

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/codexrig"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Native thread transitions on the real agents (issue 21): a first
// conversation, new_thread, a second conversation, then resume_thread of
// the first from status's candidates. Each transition moves the binding
// one generation, the AKK session follows the native one, and the next
// request to the fake model carries the resumed conversation's earlier
// turns (and none of the other's).

const (
	liveFirst  = "first-thread please"
	liveSecond = "second-thread please"
	liveAfter  = "after-resume please"
)

func threadLiveScript(agent, version string) fakemodel.Script {
	s := rig.Script(agent, version)
	s.Keywords = append([]fakemodel.Keyword{
		{Word: "first-thread", Reply: fakemodel.Reply{Text: "This is the first conversation."}},
		{Word: "second-thread", Reply: fakemodel.Reply{Text: "This is the second conversation."}},
		{Word: "after-resume", Reply: fakemodel.Reply{Text: "Back in a conversation."}},
	}, s.Keywords...)
	return s
}

func runLiveThreads(t *testing.T, agent, version string) {
	var log *fakemodel.Log
	model := ""
	if agent == "codex" {
		model = codexrig.Model(version) // 0.171.0 nudges an older model's user at startup
	}
	la := prepareLiveWith(t, agent, version, model, func(_ *liveAgent, l *fakemodel.Log) fakemodel.Script {
		log = l
		return threadLiveScript(agent, version)
	})
	la.openPane(t)
	la.dumpOnFailure(t, log)
	ld := liveDispatchOn(t, la, agent, la.withRoots(daemonOpts{}), 5*time.Minute)
	d, ctx := ld.d, ld.ctx

	first := ld.send(liveFirst)
	ld.awaitSettled(first)
	ld.idle()
	before := ld.binding()
	if before.State != contract.IdentityResolved {
		t.Fatalf("binding after the first turn: %+v", before)
	}
	firstSession := ld.row().SessionID

	// new_thread: the agent's own command; no Turn; one generation step.
	term := ld.row().TerminalID
	res, err := d.cl.NewThread(ctx, api.NewThreadRequest{TerminalID: term})
	if err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	f := res.ThreadFacts
	if f == nil || f.PreviousNativeThreadID != before.SessionID || f.BindingGeneration != before.Generation+1 || res.TurnID != "" {
		t.Fatalf("new_thread: %+v facts %+v (binding before %+v)", res, f, before)
	}
	if agent == "claude" && (f.NativeThreadID == "" || f.NativeThreadID == before.SessionID || res.SessionID == firstSession) {
		t.Fatalf("claude's new conversation: %+v", f)
	}
	ld.newFacts = *f
	ld.idle()
	// An old Turn's approve after the transition types nothing.
	if res, err := d.cl.Approve(ctx, api.ApproveRequest{TurnID: first}); err != nil || res.Outcome != api.OutcomeRejected {
		t.Fatalf("approve of the old turn: %+v %v", res, err)
	}

	second := ld.send(liveSecond)
	ld.awaitSettled(second)
	ld.idle()
	mid := ld.binding()
	if mid.State != contract.IdentityResolved || mid.SessionID == before.SessionID {
		t.Fatalf("binding in the second conversation: %+v (first %s)", mid, before.SessionID)
	}
	if ld.row().SessionID == firstSession {
		t.Fatalf("the second conversation kept the first's AKK session %s", firstSession)
	}

	// Candidates: the first conversation, marked previous.
	st := ld.status()
	act, ok := st.Terminal.AvailableActions["resume_thread"]
	if !ok {
		t.Fatalf("resume_thread not advertised: %+v", st.Terminal.AvailableActions)
	}
	cands := act.Candidates
	var found *api.ThreadCandidate
	for i, c := range cands {
		if c.NativeThreadID == mid.SessionID {
			t.Fatalf("the current conversation is a candidate: %+v", cands)
		}
		if c.NativeThreadID == before.SessionID {
			found = &cands[i]
		}
	}
	if found == nil || !found.Previous {
		t.Fatalf("the first conversation is not the previous candidate: %+v", cands)
	}

	sent := len(log.Requests())
	res, err = d.cl.ResumeThread(ctx, api.ResumeThreadRequest{TerminalID: term, NativeThreadID: before.SessionID})
	if err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	f = res.ThreadFacts
	if f == nil || f.NativeThreadID != before.SessionID || f.PreviousNativeThreadID != mid.SessionID ||
		f.BindingGeneration != mid.Generation+1 || res.SessionID != firstSession {
		t.Fatalf("resume_thread: %+v facts %+v (before %+v, mid %+v)", res, f, before, mid)
	}
	t.Logf("%s %s: first %s (generation %d), new_thread -> %q, second %s (generation %d), resume_thread -> %s (generation %d)",
		agent, version, before.SessionID, before.Generation, ld.newFacts.NativeThreadID, mid.SessionID, mid.Generation, f.NativeThreadID, f.BindingGeneration)
	ld.idle()
	after := ld.send(liveAfter)
	ld.awaitSettled(after)
	if got := ld.row().SessionID; got != firstSession {
		t.Fatalf("after the resume the session is %s, want the first's %s", got, firstSession)
	}
	var next *fakemodel.Request
	for _, r := range log.Requests()[sent:] {
		if r.Kind == "main" && strings.Contains(r.Prompt, "after-resume") {
			next = &r
			break
		}
	}
	switch {
	case next == nil:
		t.Fatalf("no main request for %q after the resume", liveAfter)
	case !bytes.Contains(next.Body, []byte(liveFirst)):
		t.Fatalf("the request after the resume does not carry the first conversation's turn")
	case bytes.Contains(next.Body, []byte(liveSecond)):
		t.Fatalf("the request after the resume carries the second conversation's turn")
	}
}

// binding is the terminal's binding as status shows it.
func (ld *liveDispatch) binding() api.Binding {
	ld.t.Helper()
	st := ld.status()
	if st.Evidence.Binding == nil {
		ld.t.Fatalf("no binding in status")
	}
	return *st.Evidence.Binding
}

func TestLiveClaudeThreads(t *testing.T) { runLiveThreads(t, "claude", "2.1.267") }
func TestLiveCodexThreads(t *testing.T)  { runLiveThreads(t, "codex", "0.155.1") }

// The newest pinned versions too (their recordings are the replay tier's).
func TestLiveClaude332Threads(t *testing.T) { runLiveThreads(t, "claude", "2.1.332") }
func TestLiveCodex171Threads(t *testing.T)  { runLiveThreads(t, "codex", "0.171.0") }
