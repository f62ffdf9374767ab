package outbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/store"
)

// Delivery is one attempt's outcome: a store.Ntf* outcome state and a
// detail without secrets (no URL, no body).
type Delivery struct {
	Outcome string
	Detail  string
	// RetryAfter is the receiver's own wait before a retryable attempt
	// again (a 429's Retry-After): the next is not before it.
	RetryAfter time.Duration
}

// Route delivers one frozen envelope. It never retries: the worker
// decides from the outcome.
type Route interface {
	Send(ctx context.Context, n *store.Notification) Delivery
}

// Sessions finds the tmux session a terminal's pane is in, for the tmux
// route: its control connection and name (nil when no pane of the daemon
// follows the terminal).
type Sessions interface {
	SessionOf(terminalID string) (Commander, string)
}

// Commander runs one tmux command through a control connection.
type Commander interface {
	Command(ctx context.Context, args ...string) (*controlmode.Reply, error)
}

// exitRetry is the command route's "try again later" (EX_TEMPFAIL).
const exitRetry = 75

// commandRoute runs a configured program with the envelope on stdin: exit
// 0 accepted, 75 retryable, any other exit permanent; still running at the
// timeout is uncertain (it may have acted), and its process group is
// killed.
type commandRoute struct{ cfg RouteConfig }

func (r commandRoute) Send(ctx context.Context, n *store.Notification) Delivery {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	cmd := exec.Command(r.cfg.Command[0], r.cfg.Command[1:]...)
	cmd.Stdin = bytes.NewReader(n.Envelope)
	cmd.Env = append(cmd.Environ(), "AKK_IDEMPOTENCY_KEY="+n.IdempotencyKey, "AKK_NOTIFICATION_ID="+n.ID)
	// Its own process group, so that a timeout kills what it started too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		// Nothing ran: a configuration fault that a retry will not mend.
		return Delivery{Outcome: store.NtfPermanent, Detail: "start: " + errors.Unwrap(err).Error()}
	}
	fault.Point("outbox.after_send")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		switch {
		case err == nil:
			return Delivery{Outcome: store.NtfAccepted, Detail: "exit 0"}
		case errors.As(err, &ee) && ee.ExitCode() == exitRetry:
			return Delivery{Outcome: store.NtfRetryable, Detail: "exit 75"}
		case errors.As(err, &ee):
			return Delivery{Outcome: store.NtfPermanent, Detail: fmt.Sprintf("exit %d", ee.ExitCode())}
		default:
			return Delivery{Outcome: store.NtfUncertain, Detail: "wait: " + err.Error()}
		}
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return Delivery{Outcome: store.NtfUncertain, Detail: "timeout after " + r.cfg.Timeout.String()}
	}
}

// netCause names a transport error's kind without the URL (which may
// carry a token).
func netCause(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	}
	return "transport error"
}

// tmuxRoute shows a one-line message on every client attached to the
// pane's session (display-message -c), through the session's control
// connection. No attached client is a permanent failure: nobody saw it.
type tmuxRoute struct {
	cfg      RouteConfig
	sessions Sessions
}

func (r tmuxRoute) Send(ctx context.Context, n *store.Notification) Delivery {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	client, session := r.sessions.SessionOf(n.TerminalID)
	if client == nil {
		return Delivery{Outcome: store.NtfPermanent, Detail: "terminal not followed"}
	}
	names, fail := attachedClients(ctx, client, "#{client_name}", "-t", session)
	if fail != nil {
		return *fail
	}
	msg := tmuxMessage(n)
	for _, c := range names {
		if _, err := client.Command(ctx, "display-message", "-c", c, "-d", "10000", msg); err != nil {
			return Delivery{Outcome: store.NtfUncertain, Detail: "display-message failed after some clients"}
		}
	}
	return Delivery{Outcome: store.NtfAccepted, Detail: fmt.Sprintf("%d clients", len(names))}
}

// attachedClients lists a field (#{client_name}, #{client_tty}) of every
// client with a screen that list-clients (with args) names; control
// clients, akk's own connections, have none. No such client is a failed
// delivery: nobody would see it.
func attachedClients(ctx context.Context, client Commander, field string, args ...string) ([]string, *Delivery) {
	reply, err := client.Command(ctx, append(append([]string{"list-clients"}, args...), "-F", "#{client_control_mode} "+field)...)
	if err != nil {
		return nil, &Delivery{Outcome: store.NtfRetryable, Detail: "list-clients failed"}
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(reply.Body)), "\n") {
		if v, ok := strings.CutPrefix(l, "0 "); ok && v != "" {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, &Delivery{Outcome: store.NtfPermanent, Detail: "no attached client"}
	}
	return out, nil
}

// tmuxMessage is the one line a person sees: the type and the subject.
// '#' is doubled so tmux does not expand formats in it.
func tmuxMessage(n *store.Notification) string {
	msg := fmt.Sprintf("akk: %s %s (%s)", n.Type, n.Subject, n.Event)
	return strings.ReplaceAll(msg, "#", "##")
}
