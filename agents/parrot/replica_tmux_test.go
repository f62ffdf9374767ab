package parrot_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/akkbin"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor"
)

func TestMain(m *testing.M) { akkbin.Main(m) }

// sentinel is the input that ends a replica once its recording is
// played: it keeps the replica's last screen up while the daemon proves
// the decision's postcondition on it.
const sentinel = "\x04"

// TestTmuxParrotReplicas: a supervisor daemon (replicas allowed) on a
// tmux server whose panes play Parrot's recordings with the strict
// replica, which fails on any input other than the recorded one. Each
// pane is listed as agent parrot, version 1.0.0, exact profile, idle
// with its composer empty; the daemon's send types the recorded prompt
// (a managed Turn); the permission is offered (approve_once and reject);
// approve_once by the Turn sends exactly the recorded "1", reject
// exactly the recorded "2", each accepted with its postcondition (idle)
// proven on the replica's next screen; the replica then plays to its
// end and exits 0.
func TestTmuxParrotReplicas(t *testing.T) {
	requireTmux(t)
	akk := akkbin.Build(t)
	srv := tmuxtest.Start(t, 120, 40, "sh")
	srv.MustRun("set-option", "-g", "default-size", "120x40") // the recordings' size
	cl := startDaemon(t, srv)
	for _, tc := range []struct {
		surface  string
		decision contract.Decision
	}{
		{"permission-approve", contract.DecisionApproveOnce},
		{"permission-reject", contract.DecisionReject},
	} {
		t.Run(tc.surface, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			p := startReplica(t, ctx, srv, akk, tc.surface)
			in := recordings.Inputs(p.rec) // the prompt, Enter, the decision, the sentinel
			if len(in) != 4 {
				t.Fatalf("%d inputs recorded", len(in))
			}
			p.take(t, ctx, in[0].After)
			row := awaitRow(t, ctx, cl, p.pane, contract.ScreenIdle)
			if row.Agent != "parrot" || !row.Replica || row.Version != version || row.Profile != "exact" || row.Composer != contract.ComposerEmpty {
				t.Fatalf("row %+v", row)
			}
			sent, err := cl.Send(ctx, api.SendRequest{TerminalID: row.TerminalID, Request: string(in[0].Data)})
			if err != nil || sent.Outcome != api.OutcomeAccepted || sent.TurnID == "" {
				t.Fatalf("send: %+v %v", sent, err)
			}
			p.take(t, ctx, in[2].After)
			row = awaitRow(t, ctx, cl, p.pane, contract.ScreenAwaitingApproval)
			if in := row.Interaction; !in.Pending() || in.Kind != contract.KindPermission || in.Tool != contract.ToolShell {
				t.Fatalf("interaction %+v", in)
			}
			st, err := cl.Status(ctx, api.StatusRequest{TerminalID: row.TerminalID})
			if err != nil {
				t.Fatal(err)
			}
			if ds := st.Terminal.Interaction.Decisions; !slices.Equal(ds, []contract.Decision{contract.DecisionApproveOnce, contract.DecisionReject}) {
				t.Fatalf("decisions %v", ds)
			}
			res, err := cl.Approve(ctx, api.ApproveRequest{TurnID: sent.TurnID, Decision: tc.decision})
			if err != nil || res.Outcome != api.OutcomeAccepted {
				t.Fatalf("%s: %+v %v", tc.decision, res, err)
			}
			p.take(t, ctx, p.outputs())
			awaitRow(t, ctx, cl, p.pane, contract.ScreenIdle)
			id, _ := controlmode.ParsePaneID(p.pane)
			if err := p.client.SendBytes(ctx, id, []byte(sentinel)); err != nil {
				t.Fatal(err)
			}
			if status := p.exitStatus(t, ctx); status != 0 {
				out, _ := srv.Run("capture-pane", "-p", "-t", p.pane)
				t.Fatalf("the replica exited %d (a divergence from the recorded input):\n%s", status, out)
			}
		})
	}
}

// startDaemon runs a supervisor on srv with replicas allowed, its store
// and socket in temporary directories, every agent's records root an
// empty one.
func startDaemon(t *testing.T, srv *tmuxtest.Server) *api.Client {
	t.Helper()
	lg := slog.New(slog.DiscardHandler)
	st, err := store.Open(t.TempDir(), &store.Options{Logger: lg})
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "api", api.SocketName)
	ln, err := api.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	roots := map[string]string{}
	for _, a := range registry.All {
		roots[a.Name()] = filepath.Join(t.TempDir(), "records")
	}
	sv, err := supervisor.New(supervisor.Config{Logger: lg, Store: st, TmuxSocket: srv.Socket, TmuxEnv: srv.Env, Listener: ln,
		AllowReplicas: true, Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sv.Run(ctx) }()
	cl := api.NewClient(sock)
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("Run did not return within 20s of cancel")
		}
		cl.Close()
		st.Close()
	})
	return cl
}

// replica is a pane playing a recording with `akk replica`.
type replica struct {
	rec    *recordings.Recording
	pane   string
	feed   *controlmode.Feed
	client *controlmode.Client
	status string // the file the pane's shell writes the replica's exit status to
	got    int    // output bytes of the pane taken so far
}

// startReplica opens a window whose shell waits on a fifo, then runs
// the replica of testdata/<version>/<surface>.cast and writes its exit
// status; it follows the pane and releases it.
func startReplica(t *testing.T, ctx context.Context, srv *tmuxtest.Server, akk, surface string) *replica {
	t.Helper()
	dir := t.TempDir()
	p := &replica{rec: screentest.LoadCast(t, filepath.Join("testdata", version, surface+".cast")), status: filepath.Join(dir, "status")}
	last := p.rec.Events[len(p.rec.Events)-1].Time
	p.rec.Events = append(p.rec.Events, recordings.Event{Time: last + 0.1, Code: recordings.Input, Data: []byte(sentinel)})
	cast, err := recordings.Encode(p.rec)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, surface+".cast")
	if err := os.WriteFile(file, cast, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := fmt.Sprintf("read _ < %s; %s replica %s; echo $? > %s.tmp && mv %s.tmp %s", fifo, akk, file, p.status, p.status, p.status)
	p.pane = strings.TrimSpace(string(srv.MustRun("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main", "sh -c '"+cmd+"'")))
	if p.client, err = controlmode.Start(ctx, controlmode.Config{Socket: srv.Socket, Session: "main", Env: srv.Env}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.client.Close() })
	id, _ := controlmode.ParsePaneID(p.pane)
	if p.feed, err = p.client.Follow(id); err != nil {
		t.Fatal(err)
	}
	for seeded := false; !seeded; { // the first seed: the shell waits on the fifo
		select {
		case <-p.feed.Ready():
		case <-ctx.Done():
			t.Fatal("no seed")
		}
		seeded = p.feed.Take().Seed != nil
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// outputs is how many bytes the recording writes in all.
func (p *replica) outputs() int {
	n := 0
	for _, e := range p.rec.Events {
		if e.Code == recordings.Output || e.Code == recordings.OutputRaw {
			n += len(e.Data)
		}
	}
	return n
}

// take waits until the pane has written until bytes.
func (p *replica) take(t *testing.T, ctx context.Context, until int) {
	t.Helper()
	for p.got < until {
		select {
		case <-p.feed.Ready():
		case <-ctx.Done():
			t.Fatalf("the replica wrote %d bytes, want %d", p.got, until)
		}
		u := p.feed.Take()
		if u.Seed != nil {
			p.got = 0
		}
		p.got += len(u.Data)
	}
}

// exitStatus waits for the replica's exit status.
func (p *replica) exitStatus(t *testing.T, ctx context.Context) int {
	t.Helper()
	status := -1
	err := tmuxtest.Poll(ctx, 30*time.Second, func() string {
		b, err := os.ReadFile(p.status)
		if err != nil {
			return "the replica's exit status"
		}
		if _, err := fmt.Sscanf(string(b), "%d", &status); err != nil {
			return fmt.Sprintf("exit status %q: %v", b, err)
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return status
}

// awaitRow waits until the daemon lists pane in state.
func awaitRow(t *testing.T, ctx context.Context, cl *api.Client, pane string, state contract.ScreenState) api.Terminal {
	t.Helper()
	var row api.Terminal
	tmuxtest.Await(t, 15*time.Second, func() string {
		l, err := cl.List(ctx)
		if err != nil {
			return err.Error()
		}
		i := slices.IndexFunc(l.Terminals, func(r api.Terminal) bool { return r.PaneID == pane })
		if i < 0 {
			return "no row for " + pane
		}
		if row = l.Terminals[i]; row.ScreenState != state {
			return fmt.Sprintf("%s is %s (agent %q), want %s", pane, row.ScreenState, row.Agent, state)
		}
		return ""
	})
	return row
}
