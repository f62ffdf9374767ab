package rig

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Config is one rig run.
type Config struct {
	Agent    string
	Version  string
	Scenario string
	OutDir   string // where NAME.cast etc. go; "" writes nothing
	Name     string // file name stem; "" means <scenario>
	Install  bool   // install the agent if it is not in the cache
	Keep     bool   // keep the run's directory (HOME, logs) for inspection
	Logger   *slog.Logger
	// Binary, when set, is the agent program to run instead of the
	// installed or built Version (a qualification runs the user's own
	// binary). Version still names whose scenario knowledge the run uses
	// (the fake model's script, the world, what the scenario supports):
	// the pinned base's. BinaryVersion is what the recording's header
	// says ran.
	Binary        string
	BinaryVersion string
	// Inspect, when set, is called once the scenario has driven the agent
	// to its end, while it still runs, with the pid tmux spawned in the
	// pane (a qualification reads the running binary's identity there,
	// the way the daemon does).
	Inspect func(panePID int)
	// Parent is where the run's directory (HOME, tmux socket, logs) is
	// made ("": the system's temporary directory). A daemon that runs
	// qualifications gives its own, so that after a crash it can end
	// what a cut-short run left there (Sweep) and nothing else.
	Parent string
	// Environs change the scenario for this run (Variant, in order): a
	// qualification runs in the user's own theme (Agent.UserTheme).
	Environs []Environ
}

// Result is what a run produced.
type Result struct {
	Recording *recordings.Recording
	Final     recordings.Screen
	Journal   []byte // transcript or rollout
	Requests  []fakemodel.Request
	Dir       string // the run's directory (removed unless Keep)
	Took      time.Duration
}

// Run records one scenario with the real agent.
func Run(ctx context.Context, cfg Config) (res *Result, err error) {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	sc, err := FindScenario(cfg.Agent, cfg.Scenario)
	if err != nil {
		return nil, err
	}
	if !sc.Supports(cfg.Version) {
		return nil, fmt.Errorf("rig: scenario %s does not apply to %s %s", sc.Name, cfg.Agent, cfg.Version)
	}
	for _, e := range cfg.Environs {
		sc = Variant(sc, e)
	}
	a, err := agentOf(cfg.Agent)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	dir, err := os.MkdirTemp(cfg.Parent, runPrefix)
	if err != nil {
		return nil, fmt.Errorf("rig: %w", err)
	}
	res = &Result{Dir: dir}
	if !cfg.Keep {
		defer os.RemoveAll(dir)
	}
	in, err := program(ctx, lg, a, cfg, dir)
	if err != nil {
		return res, err
	}
	r := &run{cfg: cfg, sc: sc, in: in, lg: lg.With("agent", cfg.Agent, "version", cfg.Version, "scenario", sc.Name), dir: dir, res: res}
	err = r.do(ctx)
	res.Took = time.Since(start)
	if err != nil {
		return res, fmt.Errorf("rig: %s %s %s: %w", cfg.Agent, cfg.Version, sc.Name, err)
	}
	if cfg.OutDir != "" {
		if err := res.write(cfg.OutDir, cmpOr(cfg.Name, sc.Name), a); err != nil {
			return res, err
		}
	}
	return res, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

type run struct {
	cfg Config
	sc  *Scenario
	in  Installed
	lg  *slog.Logger
	dir string
	res *Result
}

func (r *run) do(ctx context.Context) (err error) {
	h, err := NewHome(r.dir)
	if err != nil {
		return err
	}
	reqLog, err := os.Create(filepath.Join(r.dir, "requests.jsonl"))
	if err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	defer reqLog.Close()
	log := fakemodel.NewLog(reqLog)
	a, err := agentOf(r.cfg.Agent)
	if err != nil {
		return err
	}
	url := "" // the fake model's, when the agent talks to one
	if a.Serve != nil {
		srv, err := a.Serve(r.sc.Script(r.cfg.Version), log, r.lg)
		if err != nil {
			return err
		}
		defer srv.Close()
		url = srv.URL()
	}
	env, err := a.World(h, r.sc, r.cfg.Version, url)
	if err != nil {
		return err
	}
	if r.sc.Setup != nil {
		if env, err = r.sc.Setup(h, r.cfg.Version, url, env); err != nil {
			return fmt.Errorf("rig: setup of %s: %w", r.sc.Name, err)
		}
	}
	fifo := filepath.Join(r.dir, "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return fmt.Errorf("rig: fifo: %w", err)
	}
	// The pane waits on the fifo until the recorder follows it, so the
	// agent's first byte is recorded.
	argv := append([]string{"sh", "-c", `cd "$1" && read _ < "$0" && shift && exec "$@"`, fifo, h.Work,
		"env", "-i"}, env...)
	argv = append(append(argv, r.in.Bin), a.args(r.in)...)
	w, hh := r.sc.size()
	tm, err := startTmux(ctx, r.dir, w, hh, argv, r.sc.PaneBG)
	if err != nil {
		return err
	}
	defer func() {
		tm.kill()
		if e := checkNoneLeft(context.Background(), h.Home); e != nil && err == nil {
			err = e
		}
	}()
	client, err := controlmode.Start(ctx, controlmode.Config{Socket: tm.Socket, Session: session, Logger: r.lg, Backlog: 64 << 20})
	if err != nil {
		return fmt.Errorf("rig: control client: %w", err)
	}
	defer client.Close()
	panes, err := client.Panes(ctx)
	if err != nil || len(panes) != 1 {
		return fmt.Errorf("rig: panes: %v %v", panes, err)
	}
	feed, err := client.Follow(panes[0].Pane)
	if err != nil {
		return fmt.Errorf("rig: follow: %w", err)
	}
	hdr := recordings.Header{Width: w, Height: hh, Timestamp: time.Now().Unix(),
		Env: map[string]string{"TERM": "xterm-256color"},
		Akk: &recordings.Akk{Agent: r.cfg.Agent, Version: cmpOr(r.cfg.BinaryVersion, r.cfg.Version), Scenario: r.sc.Name, Recorder: recordings.RecorderVersion}}
	rec := recordings.NewRecorder(feed, hdr)
	rctx, stopRec := context.WithCancel(ctx)
	recDone := make(chan error, 1)
	go func() { recDone <- rec.Run(rctx) }()
	defer func() {
		stopRec()
		<-recDone
	}()
	d := &Driver{Agent: r.cfg.Agent, Version: r.cfg.Version, Home: h, Log: log, ctx: ctx, lg: r.lg, scenario: r.sc,
		dialect: a, client: client, pane: panes[0].Pane, rec: rec, tmux: tm}
	// The first seed (blank pane) starts the recording; then the agent.
	if _, err := rec.Barrier(ctx); err != nil {
		return err
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		return fmt.Errorf("rig: start agent: %w", err)
	}
	steps := NewSteps(d)
	r.sc.Drive(steps)
	if r.cfg.Inspect != nil {
		r.cfg.Inspect(panes[0].PID)
	}
	if steps.Err() != nil {
		return steps.Err()
	}
	return r.finish(ctx, d)
}

// finish cuts the recording where the drive ended and keeps what the run
// produced: the final screen, the model's requests, the agent's journal.
func (r *run) finish(ctx context.Context, d *Driver) error {
	end, err := d.rec.Barrier(ctx)
	if err != nil {
		return err
	}
	r.res.Recording = d.rec.Finish(end)
	r.res.Final = recordings.ScreenFromSeed(end.Screen)
	r.res.Requests = d.Log.Requests()
	if a := d.dialect; a.ReadJournal != nil {
		r.res.Journal = a.ReadJournal(ctx, d.Home.Home)
	} else if j := a.newestJournal(d.Home.Home); j != "" {
		if r.res.Journal, err = os.ReadFile(j); err != nil {
			return fmt.Errorf("rig: journal: %w", err)
		}
	}
	return nil
}

// write stores NAME.cast, NAME.final.txt, the journal
// (NAME.<JournalKind>.jsonl) and, for an agent that talks to a model,
// its replies (NAME.model.jsonl) in dir.
func (res *Result) write(dir, name string, a *Agent) error {
	cast, err := recordings.Encode(res.Recording)
	if err != nil {
		return err
	}
	files := map[string][]byte{name + ".cast": cast, name + ".final.txt": res.Final.Marshal(),
		name + "." + a.JournalKind + ".jsonl": res.Journal}
	if a.Serve != nil {
		files[name+".model.jsonl"] = res.modelReplies()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	for f, b := range files {
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return fmt.Errorf("rig: %w", err)
		}
	}
	return nil
}

// modelReplies is what the fake model answered the agent's main
// requests, one JSON line each (seq, how the reply was chosen, the
// prompt, the tool it called with its input, a scripted error's status):
// the script as it played, stored beside the recording. Request bodies
// stay out (the agents' system prompts, megabytes each).
func (res *Result) modelReplies() []byte {
	var out []byte
	for _, r := range res.Requests {
		if r.Kind != "main" {
			continue
		}
		b, _ := json.Marshal(struct {
			Seq       int             `json:"seq"`
			Choice    string          `json:"choice,omitempty"`
			Prompt    string          `json:"prompt,omitempty"`
			Tool      string          `json:"tool,omitempty"`
			ToolInput json.RawMessage `json:"tool_input,omitempty"`
			Status    int             `json:"status,omitempty"`
		}{r.Seq, r.Choice, r.Prompt, r.Tool, r.ToolInput, r.Status})
		out = append(append(out, b...), '\n')
	}
	return out
}

// Summary is a one-line description of a result.
func (res *Result) Summary() string {
	n := map[byte]int{}
	for _, e := range res.Recording.Events {
		n[e.Code]++
	}
	var parts []string
	for _, c := range []byte("oxirsm") {
		parts = append(parts, fmt.Sprintf("%c=%d", c, n[c]))
	}
	return fmt.Sprintf("%s, %d requests, %s", strings.Join(parts, " "), len(res.Requests), res.Took.Round(time.Millisecond))
}
