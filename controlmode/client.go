package controlmode

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Config configures a Client.
type Config struct {
	// Socket is the tmux server's socket path, always passed as -S so that
	// a $TMUX in the environment cannot redirect us. Required.
	Socket string
	// Session is the session to attach to. A plain name is matched
	// exactly (sent as "=name"); "$N" and "=name" are sent as given.
	// Required.
	Session string
	// Tmux is the tmux binary; "" means "tmux" from PATH.
	Tmux string
	// Env is tmux's environment; nil means ours without TMUX and TMUX_PANE.
	Env []string
	// Logger receives protocol anomalies and lifecycle; nil discards.
	Logger *slog.Logger
	// Backlog is how many bytes of one pane's output are held for a slow
	// consumer; beyond that the bytes are dropped and the pane is marked
	// for re-seed. 0 means DefaultBacklog.
	Backlog int
	// EventQueue is how many notifications are held for a slow Events
	// reader; beyond that they are dropped and an EventsLost is queued.
	// 0 means DefaultEventQueue.
	EventQueue int
	// PauseAfter, if positive, asks tmux to pause a pane whose output this
	// client has not read for that long (refresh-client -f pause-after,
	// whole seconds, rounded up). Output then arrives as %extended-output;
	// a paused pane is continued and re-seeded when its consumer next
	// takes. 0 leaves tmux's default (no pausing; tmux disconnects a
	// client that is 300 s behind).
	PauseAfter time.Duration
	// Transcript, if set, receives every line tmux writes, newline
	// included, as read (a raw control-mode transcript, for replay and
	// benchmarks). It is written on the reader goroutine: it must not block.
	Transcript io.Writer
	// OnCommand, if set, is called with every command line's commands
	// before the line is queued (tests count the input commands a client
	// issued). It runs with the client's lock held: it must not block or
	// call the client.
	OnCommand func(cmds []Cmd)
}

// Defaults for Config.
const (
	DefaultBacklog    = 4 << 20
	DefaultEventQueue = 4096
	// closeTimeout is how long Close waits for tmux to exit after its
	// stdin closes before killing it.
	closeTimeout = 3 * time.Second
	// pidSubscription is the refresh-client -B subscription that reports
	// every pane's pid about once a second: a respawn-pane is otherwise
	// silent (no %output, screen cleared).
	pidSubscription = "akk-pane-pid"
)

// Client is one control-mode connection (tmux -S socket -C attach -t
// session) on plain pipes. One goroutine reads and decodes tmux's output
// and never waits for a consumer; one goroutine writes command lines.
type Client struct {
	cfg  Config
	log  *slog.Logger
	proc *exec.Cmd
	in   io.WriteCloser
	out  io.ReadCloser
	errb *tailBuffer

	mu       sync.Mutex
	dec      Decoder
	tag      uint64
	calls    map[uint64]*call
	writeq   []byte
	closing  bool  // Close was called: no new commands
	ended    bool  // the reader finished
	endErr   error // why the connection ended (*ExitError)
	exit     *Exit
	attach   *Reply // the implicit attach command's reply
	session  SessionID
	feeds    map[PaneID]*Feed
	pids     map[PaneID]int
	events   []Event
	lost     int
	evStart  bool
	unowned  int64 // output bytes for panes nobody follows
	protoErr int   // guards outside blocks, unexpected blocks

	attached   chan struct{}
	wake       chan struct{} // writer
	evWake     chan struct{} // events pump
	done       chan struct{} // reader finished
	writerDone chan struct{}
	stop       chan struct{} // Close: stop the pump
	pumpDone   chan struct{}
	evCh       chan Event
	closeOnce  sync.Once
	evOnce     sync.Once
}

// Start runs tmux -C attach and waits (within ctx) until tmux has
// answered the attach, then subscribes to pane pids (and sets
// pause-after if configured). It never sends refresh-client -C: a
// control client without a size does not resize anything.
func Start(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.Socket == "" || cfg.Session == "" {
		return nil, fmt.Errorf("%w: Config needs Socket and Session", ErrBadArgument)
	}
	c := newClient(cfg)
	if err := c.spawn(); err != nil {
		return nil, err
	}
	if err := c.awaitAttach(ctx); err != nil {
		c.Close()
		return nil, err
	}
	if err := c.setup(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func newClient(cfg Config) *Client {
	if cfg.Tmux == "" {
		cfg.Tmux = "tmux"
	}
	if cfg.Backlog <= 0 {
		cfg.Backlog = DefaultBacklog
	}
	if cfg.EventQueue <= 0 {
		cfg.EventQueue = DefaultEventQueue
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Client{
		cfg: cfg, log: log.With("tmux_socket", cfg.Socket, "session", cfg.Session),
		calls: map[uint64]*call{}, feeds: map[PaneID]*Feed{}, pids: map[PaneID]int{},
		session: NoSession, attached: make(chan struct{}), wake: make(chan struct{}, 1),
		evWake: make(chan struct{}, 1), done: make(chan struct{}), writerDone: make(chan struct{}),
		stop: make(chan struct{}), pumpDone: make(chan struct{}), errb: &tailBuffer{max: 64 << 10},
	}
}

func (c *Client) spawn() error {
	target := c.cfg.Session
	if !strings.HasPrefix(target, "$") && !strings.HasPrefix(target, "=") {
		target = "=" + target
	}
	// -u: this client takes UTF-8 whatever our locale says (it passes pane
	// bytes through untouched anyway).
	c.proc = exec.Command(c.cfg.Tmux, "-u", "-S", c.cfg.Socket, "-C", "attach-session", "-t", target)
	c.proc.Env = c.cfg.Env
	if c.proc.Env == nil {
		c.proc.Env = environWithoutTmux()
	}
	c.proc.Stderr = c.errb
	var err error
	if c.in, err = c.proc.StdinPipe(); err != nil {
		return fmt.Errorf("controlmode: stdin pipe: %w", err)
	}
	if c.out, err = c.proc.StdoutPipe(); err != nil {
		return fmt.Errorf("controlmode: stdout pipe: %w", err)
	}
	if err := c.proc.Start(); err != nil {
		return fmt.Errorf("controlmode: start tmux: %w", err)
	}
	c.log.Debug("controlmode: started", "pid", c.proc.Process.Pid)
	go c.readLoop()
	go c.writeLoop()
	return nil
}

func environWithoutTmux() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// awaitAttach waits for the implicit attach command's block: commands
// written before it can be answered before it (research §1).
func (c *Client) awaitAttach(ctx context.Context) error {
	select {
	case <-c.attached:
	case <-c.done:
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.attach == nil {
			return fmt.Errorf("controlmode: attach %s: %w (stderr: %s)", c.cfg.Session, c.endErr, c.errb.String())
		}
	case <-ctx.Done():
		return fmt.Errorf("controlmode: attach %s: %w", c.cfg.Session, context.Cause(ctx))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.attach.Failed {
		return &CommandError{Command: "attach-session -t " + c.cfg.Session, Body: string(c.attach.Body)}
	}
	return nil
}

func (c *Client) setup(ctx context.Context) error {
	cmds := []Cmd{{"refresh-client", "-B", pidSubscription + ":%*:#{pane_pid}"}}
	if c.cfg.PauseAfter > 0 {
		secs := int((c.cfg.PauseAfter + time.Second - 1) / time.Second)
		cmds = append(cmds, Cmd{"refresh-client", "-f", fmt.Sprintf("pause-after=%d", secs)})
	}
	_, err := c.Exec(ctx, cmds...)
	return err
}

// Run blocks until the connection ends or ctx is done. When ctx ends it
// closes the client and returns nil; when tmux ends the connection it
// returns an *ExitError (errors.Is ErrClosed). After Close it returns nil.
func (c *Client) Run(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return c.Close()
	case <-c.done:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return nil
	}
	return c.endErr
}

// PID is the tmux -C process's pid (tests end it as a person or a crash
// would; tmux's list-clients names it as #{client_pid}).
func (c *Client) PID() int { return c.proc.Process.Pid }

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is why the connection ended (an *ExitError), or nil while it runs.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.endErr
}

// Session is the id of the attached session ($N), NoSession until tmux
// has said.
func (c *Client) Session() SessionID {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// Close detaches: it closes tmux's stdin (tmux answers %exit and exits,
// leaving every session and pane as they were), waits for the reader and
// writer, and kills tmux only if it has not exited within a few seconds.
// Pending commands fail with ErrClosed. Close is idempotent and safe to
// call from any goroutine.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		signal(c.wake)
		timer := time.NewTimer(closeTimeout)
		select {
		case <-c.done:
		case <-timer.C:
			c.log.Warn("controlmode: tmux did not exit after detach; killing it")
			_ = c.proc.Process.Kill()
			<-c.done
		}
		timer.Stop()
		<-c.writerDone
		close(c.stop)
		c.evOnce.Do(func() { c.evCh = make(chan Event); close(c.evCh) })
		c.mu.Lock()
		started := c.evStart
		c.mu.Unlock()
		if started {
			<-c.pumpDone
		}
	})
	return nil
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// send registers a command line with the decoder and queues it for the
// writer, in one critical section so that expectations and lines keep the
// same order.
func (c *Client) send(line string, cmds []Cmd, onDone func(*call)) (*call, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sendLocked(line, cmds, onDone)
}

func (c *Client) sendLocked(line string, cmds []Cmd, onDone func(*call)) (*call, error) {
	if c.closing || c.ended {
		return nil, ErrClosed
	}
	if c.cfg.OnCommand != nil {
		c.cfg.OnCommand(cmds)
	}
	c.tag++
	cl := &call{line: line, cmds: cmds, done: make(chan struct{}), onDone: onDone}
	c.dec.Expect(expectation(c.tag, cmds))
	c.calls[c.tag] = cl
	c.writeq = append(c.writeq, line...)
	c.writeq = append(c.writeq, '\n')
	signal(c.wake)
	return cl, nil
}

// writeLoop writes queued lines in order. After Close it flushes the
// queue and closes tmux's stdin, which detaches the client.
func (c *Client) writeLoop() {
	defer close(c.writerDone)
	broken := false
	for {
		c.mu.Lock()
		for len(c.writeq) == 0 && !c.closing && !c.ended {
			c.mu.Unlock()
			<-c.wake
			c.mu.Lock()
		}
		buf := c.writeq
		c.writeq = nil
		stop := len(buf) == 0 // closing or ended, nothing left
		c.mu.Unlock()
		if stop {
			_ = c.in.Close()
			return
		}
		if broken {
			continue
		}
		if _, err := c.in.Write(buf); err != nil {
			c.log.Warn("controlmode: write to tmux failed", "err", err)
			broken = true
		}
	}
}

// readLoop reads lines, decodes them and hands every event on without
// ever waiting for a consumer.
func (c *Client) readLoop() {
	r := bufio.NewReaderSize(c.out, 1<<20)
	var long []byte
	var rerr error
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, line...)
			continue
		}
		if len(long) > 0 {
			long = append(long, line...)
			line = long
		}
		if err != nil {
			if len(line) > 0 {
				c.log.Warn("controlmode: stream ended inside a line", "bytes", len(line))
			}
			rerr = err
			break
		}
		if c.cfg.Transcript != nil {
			_, _ = c.cfg.Transcript.Write(line)
		}
		c.handleLine(line[:len(line)-1])
		long = long[:0]
	}
	werr := c.proc.Wait()
	c.finish(rerr, werr)
}

func (c *Client) handleLine(line []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.dec.FeedLine(line) {
		c.dispatch(e)
	}
}

// finish ends the connection: every waiting command and every feed learns
// why.
func (c *Client) finish(rerr, werr error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	var end error
	if c.exit != nil {
		end = &ExitError{Reason: c.exit.Reason}
	} else {
		end = &ExitError{NoExit: true}
	}
	c.endErr = end
	if c.dec.InBlock() {
		c.log.Warn("controlmode: stream ended inside a block")
		end = fmt.Errorf("%w: stream ended inside a block: %w", ErrProtocol, end)
	}
	for tag, cl := range c.calls {
		delete(c.calls, tag)
		if cl.err == nil {
			cl.err = end
		}
		if cl.onDone != nil {
			cl.onDone(cl)
		}
		close(cl.done)
	}
	for _, f := range c.feeds {
		f.setGone(ErrClosed)
	}
	if s := c.errb.String(); s != "" {
		c.log.Info("controlmode: tmux stderr", "stderr", s)
	}
	level := slog.LevelInfo
	if !c.closing {
		level = slog.LevelWarn
	}
	c.log.Log(context.Background(), level, "controlmode: connection ended", "reason", c.endErr,
		"read_err", errString(rerr), "wait_err", errString(werr))
	close(c.done)
	signal(c.wake)
	signal(c.evWake)
}

func errString(err error) string {
	if err == nil || errors.Is(err, io.EOF) {
		return ""
	}
	return err.Error()
}

// tailBuffer keeps the last max bytes written (tmux's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}
