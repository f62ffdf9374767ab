package supervisor

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings/qualify"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/store"
)

// qualifier runs the daemon's qualifications (issue 41), one at a time,
// niced, each run's directory under dir: at start it ends what a run cut
// short by a crash left there (rig.Sweep), so a restarted daemon leaves
// no tmux server, agent process or HOME of a run behind. A run's record
// is stored whole when it ends (store.Qualification): a run killed midway
// stores nothing, and nothing partial ever counts.
type qualifier struct {
	dir      string
	lg       *slog.Logger
	st       *store.Store
	ident    *procid.Classifier
	profiles *qualifiedProfiles
	events   committer
	jobs     chan qualifyJob
	busy     atomic.Bool
	now      func() time.Time
	// stored is called once a record is stored: every pane looks again,
	// so one reading the binary takes its new profile without waiting
	// for its screen to change.
	stored func()
}

// FaultQualifyRunning is the fault point (internal/fault) inside a
// qualification run, while its tmux server and agent are up.
const FaultQualifyRunning = "qualify.running"

// committer writes events (the root's journal).
type committer interface {
	Commit(ch store.Change) error
}

type qualifyJob struct {
	run string
	cfg qualify.Config
}

// start checks req and queues its run; the run's progress and result are
// events.
func (q *qualifier) start(req api.QualifyRequest, view func(terminalID string) (*procid.Identity, bool)) (api.QualifyStarted, error) {
	if q.dir == "" {
		return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "this daemon runs no qualification (no qualify directory): run akk qualify without the daemon")
	}
	bin := req.Binary
	switch {
	case req.TerminalID != "" && bin != "":
		return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "give terminal_id or binary, not both")
	case req.TerminalID != "":
		ident, ok := view(req.TerminalID)
		if !ok || ident == nil {
			return api.QualifyStarted{}, api.Errorf(api.CodeNotFound, "no terminal %s", req.TerminalID)
		}
		if bin = q.ident.ProgramPath(*ident); bin == "" {
			return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "no agent program runs in %s", req.TerminalID)
		}
	case bin == "":
		return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "terminal_id or binary is required")
	}
	agent, version, err := q.ident.Program(bin)
	if err != nil {
		return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "%v", err)
	}
	base := req.Base
	if recognizers.Lookup(agent, version).Exact && base == "" {
		return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "%s %s is pinned: akk acts on it without a qualification", agent, version)
	}
	if base == "" {
		if base, err = qualify.Nearest(agent, version); err != nil {
			return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "%v", err)
		}
	}
	cfg := qualify.Config{Agent: agent, Binary: bin, Version: version, Base: base, Full: req.Full,
		Classifier: q.ident, Hasher: &q.profiles.hasher, Logger: q.lg, Parent: q.dir}
	if home, err := os.UserHomeDir(); err == nil { // the person's theme: the daemon runs as them
		cfg.Environs = qualify.UserEnvirons(agent, home)
	}
	n, err := qualify.Count(cfg)
	if err != nil {
		return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "%v", err)
	}
	if !q.busy.CompareAndSwap(false, true) {
		return api.QualifyStarted{}, api.Errorf(api.CodeBadRequest, "%s: a qualification runs already; follow its events", api.ReasonQualifyBusy)
	}
	job := qualifyJob{run: newRunID(), cfg: cfg}
	job.cfg.Progress = func(sr qualify.ScenarioResult) { q.scenarioEvent(job.run, sr) }
	job.cfg.Running = func() { fault.Point(FaultQualifyRunning) }
	q.jobs <- job // cap 1 and busy: never blocks
	return api.QualifyStarted{Run: job.run, Agent: agent, Version: version, Binary: bin, Base: base, Scenarios: n}, nil
}

// run sweeps what a crash left, then runs the queued jobs until ctx ends.
func (q *qualifier) run(ctx context.Context) error {
	if q.dir == "" {
		<-ctx.Done()
		return nil
	}
	if err := os.MkdirAll(q.dir, 0o700); err != nil {
		q.lg.Warn("qualification: no directory for runs", "dir", q.dir, "err", err)
	}
	if n, err := rig.Sweep(ctx, q.dir); n > 0 || err != nil {
		q.lg.Warn("qualification: ended the runs a stop cut short", "runs", n, "err", err)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case job := <-q.jobs:
			q.do(ctx, job)
			q.busy.Store(false)
		}
	}
}

// do runs one job niced (niceThread) and stores its record.
func (q *qualifier) do(ctx context.Context, job qualifyJob) {
	type result struct {
		rep qualify.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		niceThread()
		rep, err := qualify.Run(ctx, job.cfg)
		done <- result{rep, err}
	}()
	res := <-done
	rep, err := res.rep, res.err
	attrs := map[string]string{"run": job.run, "agent": job.cfg.Agent, "version": job.cfg.Version, "base": job.cfg.Base}
	if err == nil {
		rec := rep.Record(q.now())
		if err = q.st.PutQualification(rec); err == nil {
			q.profiles.gen.Add(1) // panes reading this binary ask again
			q.stored()
			attrs["identity"] = rep.Identity
			attrs["passed"] = strings.Join(rec.Passed, " ")
			attrs["failed"] = strings.Join(rec.Failed, " ")
			attrs["not_reached"] = strings.Join(rec.NotReached, " ")
		}
	}
	if err != nil {
		attrs["error"] = err.Error()
		q.lg.Warn("qualification failed", "run", job.run, "agent", job.cfg.Agent, "version", job.cfg.Version, "err", err)
	}
	q.emit(store.Event{Type: api.EventQualifyDone, Attrs: attrs})
}

func (q *qualifier) scenarioEvent(run string, sr qualify.ScenarioResult) {
	attrs := map[string]string{"run": run, "scenario": sr.Name, "findings": sr.Outcomes(),
		"took": sr.Took.Round(100 * time.Millisecond).String()}
	if sr.Err != "" {
		first, _, _ := strings.Cut(sr.Err, "\n")
		attrs["error"] = first
	}
	q.emit(store.Event{Type: api.EventQualifyScenario, Attrs: attrs})
}

func (q *qualifier) emit(ev store.Event) {
	if err := q.events.Commit(store.Change{Events: []store.Event{ev}}); err != nil {
		q.lg.Warn("qualification: event not recorded", "type", ev.Type, "err", err)
	}
}

// do's goroutine runs niced: it locks its thread, lowers the thread's
// priority and never unlocks it, so the processes the rig starts from it
// (tmux, and the agent under tmux) inherit the priority, and the thread
// ends with the goroutine instead of serving others at the lower one.
func niceThread() {
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, 10) // 0: this thread on Linux
}

func newRunID() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return "qual_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}
