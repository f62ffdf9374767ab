package supervisor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/codex/codexrig"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Foreground identification on the real Codex (issue 22): a managed
// first conversation, then a person's /new and a prompt in the pane (the
// rig's status-ambiguous: the process holds both rollouts open, the
// binding is ambiguous). identify_foreground names the second
// conversation from /status and changes nothing; identify_and_send sends
// into it, and the Turn and the binding name the rollout that accepted
// the request, which the fake model received in that conversation.

const liveIdentified = "after-identify please"

func identifyLiveScript(version string) fakemodel.Script {
	s := threadLiveScript("codex", version)
	s.Keywords = append([]fakemodel.Keyword{
		{Word: "after-identify", Reply: fakemodel.Reply{Text: "Sent where /status said."}},
	}, s.Keywords...)
	return s
}

func runLiveIdentify(t *testing.T, version string) {
	la := prepareLiveModel(t, "codex", version, codexrig.Model(version), identifyLiveScript(version))
	la.openPane(t)
	ld := liveDispatchOn(t, la, "codex", la.withRoots(daemonOpts{}), 4*time.Minute)
	d, ctx := ld.d, ld.ctx
	ld.awaitSettled(ld.send(liveFirst))
	ld.idle()
	first := ld.binding()
	term := ld.row().TerminalID
	if res, err := d.cl.IdentifyForeground(ctx, api.IdentifyForegroundRequest{TerminalID: term}); err != nil ||
		res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonNotAmbiguous) {
		t.Fatalf("identify_foreground on a resolved binding: %+v %v", res, err)
	}

	amb := personNewThread(t, la, d.cl, term)
	second, secondPath := rolloutWith(t, la, liveSecond)
	if second == first.SessionID {
		t.Fatalf("the person's prompt went to the first conversation %s", second)
	}
	requests := len(la.log.Requests())
	start := time.Now()
	res, err := d.cl.IdentifyForeground(ctx, api.IdentifyForegroundRequest{TerminalID: term})
	if err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	took := time.Since(start)
	p := res.Foreground
	if p == nil || p.NativeThreadID != second || !p.Candidate || p.CandidatePath != secondPath || p.Candidates != 2 ||
		res.TurnID != "" || res.ReceiptID != "" || p.ExpiresAt.Sub(p.ObservedAt) != api.ForegroundProofTTL {
		t.Fatalf("identify_foreground: %+v proof %+v (second %s at %s)", res, p, second, secondPath)
	}
	if b := ld.binding(); b.State != contract.IdentityAmbiguous || b.Generation != amb.Generation {
		t.Fatalf("the probe moved the binding: %+v (was %+v)", b, amb)
	}
	for _, r := range la.log.Requests()[requests:] {
		if r.Kind == "main" {
			t.Errorf("a model turn during the probe: %s %s prompt=%q", r.Method, r.Path, r.Prompt)
		}
	}
	ld.idle()

	start = time.Now()
	res, err = d.cl.IdentifyAndSend(ctx, api.IdentifyAndSendRequest{TerminalID: term, Request: liveIdentified})
	if err != nil {
		t.Fatal(err)
	}
	ld.accept(res)
	sendTook := time.Since(start)
	if res.Evidence != "transcript:request_hash" || res.TurnID == "" || res.Foreground == nil || res.Foreground.NativeThreadID != second {
		t.Fatalf("identify_and_send: %+v proof %+v", res, res.Foreground)
	}
	turn, err := d.st.Turn(res.TurnID)
	if err != nil || turn.NativeSession != second || turn.NativePath != secondPath || turn.NativeTurn == "" {
		t.Fatalf("the Turn %+v (%v), want the second conversation %s", turn, err, second)
	}
	b := ld.binding()
	if b.State != contract.IdentityResolved || b.SessionID != second || b.Path != secondPath || b.Generation != amb.Generation+1 ||
		turn.BindingGen != b.Generation || res.SessionID != ld.row().SessionID {
		t.Fatalf("binding after identify_and_send: %+v, turn %+v, result session %s (ambiguous was %+v)", b, turn, res.SessionID, amb)
	}
	ld.awaitSettled(res.TurnID)
	var got *fakemodel.Request
	for _, r := range la.log.Requests() {
		if r.Kind == "main" && strings.Contains(r.Prompt, "after-identify") {
			if got != nil {
				t.Fatalf("the model received the request twice")
			}
			got = &r
		}
	}
	switch {
	case got == nil:
		t.Fatalf("the fake model never received %q", liveIdentified)
	case !bytes.Contains(got.Body, []byte(liveSecond)) || bytes.Contains(got.Body, []byte(liveFirst)):
		t.Fatalf("the request did not go to the second conversation alone")
	}
	// Resolved now: nothing left to identify.
	if _, ok := ld.row().AvailableActions["identify_and_send"]; ok {
		t.Errorf("identify_and_send still advertised on the resolved binding")
	}
	t.Logf("codex %s: identify_foreground %s in %s; identify_and_send accepted in %s (turn %s, binding generation %d -> %d)",
		version, second, took.Round(time.Millisecond), sendTook.Round(time.Millisecond), res.TurnID, amb.Generation, b.Generation)
}

// personNewThread is a person's /new and a prompt in the pane: the
// process holds both rollouts open, and the terminal's binding is
// ambiguous with identification advertised. It returns that binding.
func personNewThread(t *testing.T, la *liveAgent, cl *api.Client, term string) api.Binding {
	t.Helper()
	for _, keys := range [][]string{{"-l", "/new"}, {"Enter"}, {"-l", liveSecond}, {"Enter"}} {
		la.srv.MustRun(append([]string{"send-keys", "-t", la.pane}, keys...)...)
		time.Sleep(200 * time.Millisecond) // a person's pace: Codex's paste-burst window takes a fast Enter for a newline
	}
	// The prompt's turn ends in its own rollout before the pane is idle
	// for good (Codex reads idle while it streams).
	sessions := filepath.Join(la.home, ".codex", "sessions")
	tmuxtest.Await(t, 60*time.Second, func() string {
		if !turnEnded(sessions, liveSecond) {
			return "the person's prompt's turn has not ended in its rollout"
		}
		return ""
	})
	var b api.Binding
	tmuxtest.Await(t, 60*time.Second, func() string {
		st, err := cl.Status(context.Background(), api.StatusRequest{TerminalID: term})
		if err != nil {
			return err.Error()
		}
		_, ok := st.Terminal.AvailableActions["identify_and_send"]
		if st.Evidence.Binding == nil || st.Evidence.Binding.State != contract.IdentityAmbiguous || !ok {
			return fmt.Sprintf("binding %+v, %s/%s, actions %v", st.Evidence.Binding, st.Terminal.ScreenState, st.Terminal.Composer,
				st.Terminal.AvailableActions)
		}
		b = *st.Evidence.Binding
		return ""
	})
	return b
}

// turnEnded reports whether the rollout whose lines hold sub has a
// task_complete after the first of them.
func turnEnded(root, sub string) bool {
	files, _ := filepath.Glob(filepath.Join(root, "*", "*", "*", "rollout-*.jsonl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if i := bytes.Index(b, []byte(sub)); i >= 0 && bytes.Contains(b[i:], []byte(`"task_complete"`)) {
			return true
		}
	}
	return false
}

// rolloutWith is the thread id and path of the one rollout under the
// agent's home whose lines hold sub.
func rolloutWith(t *testing.T, la *liveAgent, sub string) (string, string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(la.home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl"))
	var id, path string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(b, []byte(sub)) {
			continue
		}
		if path != "" {
			t.Fatalf("two rollouts hold %q: %s and %s", sub, path, f)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		var meta struct {
			Payload struct {
				ID string `json:"id"`
			} `json:"payload"`
		}
		if !sc.Scan() || json.Unmarshal(sc.Bytes(), &meta) != nil || meta.Payload.ID == "" {
			t.Fatalf("%s: no session_meta", f)
		}
		id, path = meta.Payload.ID, f
	}
	if path == "" {
		t.Fatalf("no rollout holds %q among %v", sub, files)
	}
	return id, path
}

func TestLiveCodexIdentify(t *testing.T)    { runLiveIdentify(t, "0.155.1") }
func TestLiveCodex171Identify(t *testing.T) { runLiveIdentify(t, "0.171.0") }
