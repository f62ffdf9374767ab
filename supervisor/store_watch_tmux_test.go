package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry/refusaltest"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/disktest"
	"github.com/agent-knock-knock/akk/internal/syncbuf"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// TestTmuxStoreFull: the store on a 2 MiB tmpfs, a Claude replica at a
// permission prompt. The disk fills: within 5 s list, status and health
// say degraded (store_unavailable); status-then-approve is
// rejected_before_input store_unavailable with no receipt and no input
// command. Freed: within 5 s the daemon calls its restart hook (the real
// `akk attach` re-executes: TestTmuxAttachStoreFull); the test restarts
// it in process on the same store, and the next status-then-approve is
// accepted and typed once (the strict replica ends clean). The store's
// error lines are few.
func TestTmuxStoreFull(t *testing.T) {
	tmuxtest.RequireTmux(t)
	mnt := disktest.Tmpfs(t, "size=2m")
	akk := buildAkk(t)
	srv := tmuxtest.Start(t, 120, 40, "sh")
	var inputs inputCounter
	var log syncbuf.Buffer
	lg := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))
	restarted := make(chan struct{}, 1)
	opts := daemonOpts{storeDir: filepath.Join(mnt, "store"), onCommand: inputs.observe, logger: lg, minFree: 256 << 10,
		restart: func() error { restarted <- struct{}{}; return errors.New("in-process daemon: the test restarts it") }}
	d := startDaemon(t, srv, opts)
	ctx, client := driverClient(t, srv, 2*time.Minute)
	c := refusaltest.Case{Name: "approve claude", Agent: "claude", Version: "2.1.267", Recording: "permission-approve", Call: refusaltest.ApproveTerminal}
	rcs := replicaPanes(t, srv, akk, [][3]string{{c.Agent, c.Version, c.Recording}})
	r := newReplicaDriver(t, ctx, d, client, rcs[0])
	r.toMarker(0)
	id := r.row().TerminalID

	free := disktest.Fill(t, mnt)
	filled := time.Now()
	tmuxtest.Await(t, 5*time.Second, func() string {
		l, err := d.cl.List(ctx)
		if err != nil || l.Degraded == nil || l.Degraded.State != api.DegradedStoreUnavailable {
			return fmt.Sprintf("list not degraded: %+v %v", l.Degraded, err)
		}
		return ""
	})
	t.Logf("degraded %.1f s after the disk filled", time.Since(filled).Seconds())
	h, err := d.cl.Health(ctx)
	if err != nil || h.State != api.DaemonDegraded || h.StoreOK {
		t.Fatalf("health %+v %v", h, err)
	}
	st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: id})
	if err != nil || st.Degraded == nil {
		t.Fatalf("status degraded %+v %v", st.Degraded, err)
	}
	before := inputs.n.Load()
	res, err := tmuxCall(r, c, st)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != api.OutcomeRejected || !strings.HasPrefix(res.Reason, api.ReasonStoreUnavailable+":") || res.ReceiptID != "" || res.DoNotRetry {
		t.Fatalf("approve on a full disk: %+v", res)
	}
	if n := inputs.n.Load() - before; n != 0 {
		t.Fatalf("%d input commands on a full disk, want 0", n)
	}
	t.Logf("refused: %s", res.Reason)

	free()
	freed := time.Now()
	select {
	case <-restarted:
	case <-time.After(5 * time.Second):
		t.Fatal("no restart within 5 s of freeing the disk")
	}
	t.Logf("restart hook %.1f s after the disk was freed", time.Since(freed).Seconds())
	d.stop()
	d2 := startDaemon(t, srv, opts)
	r.d = d2
	tmuxtest.Await(t, 10*time.Second, func() string {
		if row := r.row(); row.ScreenState != contract.ScreenAwaitingApproval {
			return "the restarted daemon does not show the prompt: " + string(row.ScreenState)
		}
		return ""
	})
	if h, err := d2.cl.Health(ctx); err != nil || h.State != api.DaemonOK {
		t.Fatalf("after the restart: %+v %v", h, err)
	}
	st, err = d2.cl.Status(ctx, api.StatusRequest{TerminalID: r.row().TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	before = inputs.n.Load()
	res, err = tmuxCall(r, c, st)
	if err != nil || res.Outcome != api.OutcomeAccepted {
		t.Fatalf("approve after the restart: %+v %v", res, err)
	}
	if n := inputs.n.Load() - before; n == 0 {
		t.Fatal("accepted with no input command")
	}
	r.skipInput()
	r.finish(srv)
	n := 0
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, "level=ERROR") || strings.Contains(line, "level=WARN") {
			n++
		}
	}
	if n > 20 {
		t.Fatalf("%d error and warning lines:\n%s", n, log.String())
	}
	t.Logf("%d error and warning lines in the daemons' log", n)
}

// TestTmuxAttachStoreFull: the real `akk attach`. On a full disk it exits
// non-zero within 5 s with one line. Started on a disk with room, it is
// degraded within 5 s of the disk filling, and once space is freed it
// re-executes itself (the same pid, a new start time, state ok) within
// 5 s; degraded again, SIGTERM ends it within 5 s.
func TestTmuxAttachStoreFull(t *testing.T) {
	tmuxtest.RequireTmux(t)
	mnt := disktest.Tmpfs(t, "size=24m")
	akk := buildAkk(t)
	srv := tmuxtest.Start(t, 120, 40, "sh")
	storeDir, sock := filepath.Join(mnt, "store"), filepath.Join(t.TempDir(), "akk.sock")

	free := disktest.Fill(t, mnt)
	cmd := attachCmd(akk, srv, filepath.Join(mnt, "full"), sock)
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	took := time.Since(t0)
	said := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if err == nil || took > 5*time.Second || len(said) != 1 || strings.Contains(stderr.String(), "goroutine ") {
		t.Fatalf("attach on a full disk: %v after %v:\n%s", err, took, stderr.String())
	}
	t.Logf("full disk: exit %v after %.2f s: %s", err, took.Seconds(), said[0])
	free()

	p := startProc(t, akk, srv, storeDir, sock)
	ctx := context.Background()
	h0, _ := p.cl.Health(ctx)
	free = disktest.Fill(t, mnt)
	tmuxtest.Await(t, 5*time.Second, func() string {
		if h, err := p.cl.Health(ctx); err != nil || h.State != api.DaemonDegraded {
			return fmt.Sprintf("not degraded: %+v %v", h, err)
		}
		return ""
	})
	free()
	freed := time.Now()
	tmuxtest.Await(t, 5*time.Second, func() string {
		h, err := p.cl.Health(ctx)
		if err != nil || h.State != api.DaemonOK || !h.Started.After(h0.Started) {
			return fmt.Sprintf("not re-executed: %+v %v", h, err)
		}
		if h.PID != p.cmd.Process.Pid {
			return fmt.Sprintf("pid %d, want %d (exec keeps it)", h.PID, p.cmd.Process.Pid)
		}
		return ""
	})
	t.Logf("re-executed and answering %.1f s after the disk was freed", time.Since(freed).Seconds())
	// Degraded again, and SIGTERM ends it.
	free = disktest.Fill(t, mnt)
	defer free()
	tmuxtest.Await(t, 5*time.Second, func() string {
		if h, err := p.cl.Health(ctx); err != nil || h.State != api.DaemonDegraded {
			return fmt.Sprintf("not degraded: %+v %v", h, err)
		}
		return ""
	})
	t0 = time.Now()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		t.Fatalf("SIGTERM did not end the daemon within 5 s:\n%s", p.stderr.String())
	}
	t.Logf("SIGTERM: ended in %.2f s", time.Since(t0).Seconds())
	if strings.Contains(p.stderr.String(), "goroutine ") {
		t.Fatalf("a stack in the log:\n%s", p.stderr.String())
	}
}
