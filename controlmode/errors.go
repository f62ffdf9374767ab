package controlmode

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error this package returns wraps one of these or
// is a *CommandError or *ExitError.
var (
	// ErrClosed: the client was closed, or its connection ended, before the
	// operation completed.
	ErrClosed = errors.New("controlmode: closed")
	// ErrSyntax: a line or field did not have the shape tmux 3.3a gives it.
	ErrSyntax = errors.New("controlmode: syntax")
	// ErrBadArgument: an argument cannot be sent on a command line (it holds
	// a newline or NUL, or text that must go as bytes).
	ErrBadArgument = errors.New("controlmode: bad argument")
	// ErrProtocol: tmux broke the framing we rely on (a reply nobody asked
	// for, a block cut by end of stream).
	ErrProtocol = errors.New("controlmode: protocol")
	// ErrPaneGone: the pane no longer exists (or its output is no longer
	// delivered to this client).
	ErrPaneGone = errors.New("controlmode: pane gone")
)

// CommandError is a command that tmux answered with %error. Body is the
// text of the block (for example "can't find pane: %9").
type CommandError struct {
	Command string // the command line (or the part of it that failed)
	Body    string
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("controlmode: tmux error: %s (command: %s)", strings.TrimSpace(e.Body), e.Command)
}

// ExitError is the end of a control connection: tmux sent %exit (with an
// optional reason such as "detached" or "too far behind"), or the stream
// ended without one. It wraps ErrClosed.
type ExitError struct {
	Reason string // the %exit reason; empty when tmux gave none
	NoExit bool   // the stream ended without %exit (tmux died)
}

func (e *ExitError) Error() string {
	switch {
	case e.NoExit:
		return "controlmode: closed: connection ended without %exit"
	case e.Reason == "":
		return "controlmode: closed: %exit"
	default:
		return "controlmode: closed: %exit " + e.Reason
	}
}

func (e *ExitError) Unwrap() error { return ErrClosed }

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
