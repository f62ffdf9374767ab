package popup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/port"
)

// Port is the popup as an interaction port (seed 004): each question opens
// `akk popup --ask` in a tmux popup on the client a person is looking at,
// and the answer comes back as a response file in a private directory.
//
// Why a separate process and a file rather than a pipe: tmux runs the
// popup's command itself (display-popup -E), so the popup is not our
// child; the private 0700 directory and the request's unguessable id are
// what bind the answer to this one question, the same rules as the
// response-file channel.
//
// The rules of a port: with no client to show it on, it never answers (it
// waits for ctx, so another channel can win); a popup the person closed
// without answering is not an answer either; when ctx ends (another
// channel answered, or the question went away) the popup is closed with
// display-popup -C and the client is left as it was.
type Port struct {
	// Dir is the private directory of requests and answers (created 0700).
	Dir string
	// Akk is the akk binary the popup runs.
	Akk string
	// Client names the tmux client to ask on ("" and no error: nobody is
	// looking, so the port cannot ask now).
	Client func(ctx context.Context) (string, error)
	// Tmux runs tmux on the right server (-S) and returns its output.
	Tmux func(ctx context.Context, args ...string) ([]byte, error)
	// TmuxCmd builds the blocking display-popup command (it returns when
	// the popup closes); the same server as Tmux.
	TmuxCmd func(args ...string) *exec.Cmd
	// Width and Height of the popup (0: 80x24).
	Width, Height int
	Logger        *slog.Logger

	turn chan struct{} // one question at a time on the port's clients
}

// NewPort returns a popup port on the tmux server at socket.
func NewPort(dir, akk, socket string, env []string, client func(context.Context) (string, error), lg *slog.Logger) *Port {
	mk := func(args ...string) *exec.Cmd {
		c := controlmode.Command(context.Background(), socket, args...)
		c.Env = env
		return c
	}
	return &Port{Dir: dir, Akk: akk, Client: client, Logger: lg, TmuxCmd: mk, turn: make(chan struct{}, 1),
		Tmux: func(ctx context.Context, args ...string) ([]byte, error) {
			c := mk(args...)
			out, err := c.Output()
			if err != nil {
				return out, fmt.Errorf("tmux %s: %w", strings.Join(args, " "), err)
			}
			return out, nil
		}}
}

// ViewingClient returns a Client function that picks the client showing
// session most recently active (the person looking at the agent), via
// tmux list-clients.
func ViewingClient(tmux func(ctx context.Context, args ...string) ([]byte, error), session string) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		out, err := tmux(ctx, "list-clients", "-F", "#{client_activity} #{client_session} #{client_tty}")
		if err != nil {
			return "", err
		}
		best, bestAct := "", ""
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(l)
			if len(f) != 3 || (session != "" && f[1] != session) {
				continue
			}
			// client_activity is seconds since the epoch: equal widths
			// compare as strings.
			if best == "" || len(f[0]) > len(bestAct) || (len(f[0]) == len(bestAct) && f[0] > bestAct) {
				best, bestAct = f[2], f[0]
			}
		}
		return best, nil
	}
}

func (p *Port) lg() *slog.Logger {
	if p.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return p.Logger
}

// AskDecision asks y/n in a popup.
func (p *Port) AskDecision(ctx context.Context, q port.Prompt) (string, error) {
	return p.ask(ctx, "decision", q, port.Choice{})
}

// AskManualIntervention waits in a popup until the person says done.
func (p *Port) AskManualIntervention(ctx context.Context, q port.Prompt) (string, error) {
	return p.ask(ctx, "manual", q, port.Choice{})
}

// AskText reads a line of text in a popup.
func (p *Port) AskText(ctx context.Context, q port.Prompt) (string, error) {
	return p.ask(ctx, "text", q, port.Choice{})
}

// AskChoice shows the options in a popup.
func (p *Port) AskChoice(ctx context.Context, q port.Prompt, c port.Choice) (string, error) {
	return p.ask(ctx, "choice", q, c)
}

// Notify shows msg on the client's message line.
func (p *Port) Notify(msg string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tty, err := p.Client(ctx)
	if err != nil || tty == "" {
		return
	}
	if _, err := p.Tmux(ctx, "display-message", "-c", tty, "akk: "+strings.ReplaceAll(msg, "#", "##")); err != nil {
		p.lg().Debug("popup notify", "err", err)
	}
}

func (p *Port) ask(ctx context.Context, kind string, q port.Prompt, c port.Choice) (string, error) {
	if p.turn == nil {
		return "", fmt.Errorf("%w: popup port not made by NewPort", port.ErrCannotAsk)
	}
	select {
	case p.turn <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-p.turn }()
	tty, err := p.Client(ctx)
	if err != nil || tty == "" {
		// Nobody to show it to: never answer, let another channel win.
		p.lg().Debug("popup port: no client to ask on", "err", err)
		<-ctx.Done()
		return "", ctx.Err()
	}
	if err := os.MkdirAll(p.Dir, 0o700); err != nil {
		return "", fmt.Errorf("%w: %w", port.ErrCannotAsk, err)
	}
	if err := os.Chmod(p.Dir, 0o700); err != nil {
		return "", fmt.Errorf("%w: %w", port.ErrCannotAsk, err)
	}
	id, err := port.NewRequestID()
	if err != nil {
		return "", err
	}
	req := port.Request{V: 1, RequestID: id, Kind: kind, Title: q.Title, Lines: q.Lines, Question: q.Question,
		Options: c.Options, Multiple: c.Multiple, Styled: q.Styled, Created: time.Now().UTC(),
		AnswerWith: filepath.Join(p.Dir, id+".response")}
	if err := port.WriteRequest(p.Dir, req); err != nil {
		return "", err
	}
	defer p.withdraw(id)
	w, h := p.Width, p.Height
	if w == 0 {
		w, h = 80, 24
	}
	inner := shellQuote(p.Akk) + " popup --ask " + shellQuote(filepath.Join(p.Dir, id+".request"))
	cmd := p.TmuxCmd("display-popup", "-c", tty, "-E", "-w", fmt.Sprint(w), "-h", fmt.Sprint(h), inner)
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("%w: display-popup: %w", port.ErrCannotAsk, err)
	}
	closed := make(chan error, 1)
	go func() { closed <- cmd.Wait() }()
	p.lg().Info("popup port: asking", "request", id, "client", tty, "kind", kind)
	select {
	case <-closed:
		if a, ok := port.TakeResponse(p.Dir, id, p.lg()); ok {
			return a, nil
		}
		// Closed without an answer: the person will answer elsewhere (the
		// pane, the file). Closing is not an answer.
		p.lg().Info("popup port: closed without an answer", "request", id)
		<-ctx.Done()
		return "", ctx.Err()
	case <-ctx.Done():
		// Another channel answered, or the question went away: close our
		// popup (display-popup -C closes the one on this client) and wait
		// for tmux to say it is gone, so the client is usable again when
		// we return. A late answer file is withdrawn unread.
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := p.Tmux(cctx, "display-popup", "-C", "-c", tty); err != nil {
			p.lg().Warn("popup port: close", "request", id, "err", err)
		}
		select {
		case <-closed:
		case <-cctx.Done():
			cmd.Process.Kill()
			<-closed
		}
		return "", ctx.Err()
	}
}

func (p *Port) withdraw(id string) {
	for _, f := range []string{id + ".request", id + ".response"} {
		if err := os.Remove(filepath.Join(p.Dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			p.lg().Warn("popup port: withdraw", "request", id, "err", err)
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
