package api

import (
	"errors"
	"fmt"
)

// Error codes on the wire.
const (
	CodeNotFound   = "not_found"
	CodeBadRequest = "bad_request"
	CodeForbidden  = "forbidden"
	CodeInternal   = "internal"
	CodeNoOp       = "unknown_operation"
	// CodeTmuxUnavailable: the daemon's tmux server does not answer (it
	// was killed or never started). The CLI exits 7.
	CodeTmuxUnavailable = "tmux_unavailable"
)

// Error is an error the daemon answered with: {"error":{"code","message"}}.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf builds an *Error.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

type errorBody struct {
	Error *Error `json:"error"`
}

// ErrNoReply: the request reached the daemon (or the tunnel to it) and no
// answer came back: the connection dropped. A mutation may have been
// carried out: it is uncertain, and never sent again on its own.
var ErrNoReply = errors.New("no reply: the request was sent, the connection dropped")

// ErrDaemonNotRunning: nothing listens on the socket. Its message says how
// to start the daemon.
var ErrDaemonNotRunning = errors.New("api: akk attach is not running")

// IsCode reports whether err is an *Error with that code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
