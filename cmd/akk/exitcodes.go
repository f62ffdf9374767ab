package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agent-knock-knock/akk/api"
)

// The exit codes: one table, the only place a code is given a meaning.
// exitCode maps a command's error through it, `akk --help` prints it, and
// a test checks the README's copy against it. 3, 4 and 5 are the action
// outcomes' codes (api.ExitCode) and 6 DESIGN's no-daemon code; a wire
// error code the CLI exits with has a row named after it.
const (
	exitOK       = 0
	exitFailure  = 1
	exitUsage    = api.ExitUsage
	exitNoDaemon = api.ExitNoDaemon
	exitTmux     = 7
	exitNotFound = 8
	// The socket refusals (api/socket.go): nothing was sent.
	exitSocketNotOwned = 9
	exitServerNotOwned = 10
)

// exitRow is one exit code. is reports whether an error exits with it
// (nil: only chosen explicitly, or the default).
type exitRow struct {
	code    int
	name    string
	meaning string
	is      func(error) bool
}

var exitTable = []exitRow{
	{exitOK, "ok", "success; an action accepted (or already done)", nil},
	{exitFailure, "failure", "any other failure (the message says which)", nil},
	{exitUsage, "usage", "bad flags or arguments (bad_request), or a selector that matches several terminals", isUsage},
	{api.ExitRejected, "rejected_before_input", "the action was refused before any input: nothing was sent", nil},
	{api.ExitManual, "manual_required", "a person must answer in the pane; akk sent nothing", nil},
	{api.ExitUncertain, "uncertain", "input may have landed (or a send is pending): never retry it, look at the pane", nil},
	{exitNoDaemon, "daemon_not_running", "no akk attach answers on the socket", isErr(api.ErrDaemonNotRunning)},
	{exitTmux, api.CodeTmuxUnavailable, "the daemon's tmux server does not answer (killed, or never started)", isCode(api.CodeTmuxUnavailable)},
	{exitNotFound, api.CodeNotFound, "no such terminal, turn, watch or session, or no terminal matches the selector", isCode(api.CodeNotFound)},
	{exitSocketNotOwned, "socket_not_owned", "the socket's directory or the socket is not yours alone (a link, another uid's, open to others): nothing was sent", isErr(api.ErrSocketNotOwned)},
	{exitServerNotOwned, "server_not_owned", "the process answering on the socket runs as another uid: nothing was sent", isErr(api.ErrServerNotOwned)},
}

func isUsage(err error) bool { return errors.Is(err, errUsage) || api.IsCode(err, api.CodeBadRequest) }

func isErr(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

func isCode(code string) func(error) bool {
	return func(err error) bool { return api.IsCode(err, code) }
}

// exitCode maps a command's error to its exit code through exitTable,
// printing the error (an exitError has printed what it had to say).
func exitCode(err error, stderr io.Writer) int {
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintln(stderr, "akk:", err)
	for _, r := range exitTable {
		if r.is != nil && r.is(err) {
			return r.code
		}
	}
	return exitFailure
}

// exitCodesText is the table as `akk --help` ends with it (the README
// shows its rows indented as a code block: TestREADMEExitCodes).
func exitCodesText() string {
	var b strings.Builder
	b.WriteString("Exit codes:\n")
	for _, r := range exitTable {
		fmt.Fprintf(&b, "  %2d  %-21s  %s\n", r.code, r.name, r.meaning)
	}
	return b.String()
}
