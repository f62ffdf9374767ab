package main

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/api"
)

// readmeExitHeader is the README line the table's copy follows.
const readmeExitHeader = "Exit codes (`akk --help` ends with this table; a test keeps the two equal):"

// TestREADMEExitCodes: the README's exit code table is exitTable's, row
// for row (its rows as a code block: indented four spaces).
func TestREADMEExitCodes(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(exitCodesText(), "\n"), "\n")[1:] {
		want.WriteString("  " + l + "\n")
	}
	lines := strings.Split(string(data), "\n")
	var got strings.Builder
	found := false
	for i, l := range lines {
		if l != readmeExitHeader {
			continue
		}
		found = true
		for _, r := range lines[i+2:] { // after the header's blank line
			if r == "" {
				break
			}
			got.WriteString(r + "\n")
		}
		break
	}
	if !found || got.String() != want.String() {
		t.Errorf("README.md's exit codes differ from exitTable (cmd/akk/exitcodes.go); the README wants:\n\n%s\n\n%s\n", readmeExitHeader, want.String())
	}
}

// TestExitTable: the codes are distinct and agree with the contract's, and
// `akk --help` ends with the table.
func TestExitTable(t *testing.T) {
	seen := map[int]bool{}
	for _, r := range exitTable {
		if seen[r.code] {
			t.Errorf("code %d twice", r.code)
		}
		seen[r.code] = true
	}
	if api.ExitCode(api.OutcomeAccepted) != exitOK {
		t.Errorf("accepted exits %d", api.ExitCode(api.OutcomeAccepted))
	}
	for _, outcome := range []string{api.OutcomeRejected, api.OutcomeManual, api.OutcomeUncertain} {
		code := api.ExitCode(outcome)
		if code >= len(exitTable) || exitTable[code].code != code || exitTable[code].name != outcome {
			t.Errorf("outcome %s exits %d: no table row of that name", outcome, code)
		}
	}
	for _, tc := range []struct {
		err  error
		code int
	}{
		{nil, exitOK},
		{errors.New("boom"), exitFailure},
		{fmt.Errorf("%w: bad", errUsage), exitUsage},
		{api.Errorf(api.CodeBadRequest, "bad"), exitUsage},
		{exitWith(api.ExitManual), api.ExitManual},
		{fmt.Errorf("list: %w", api.ErrDaemonNotRunning), exitNoDaemon},
		{fmt.Errorf("list: %w", api.Errorf(api.CodeTmuxUnavailable, "gone")), 7},
		{api.Errorf(api.CodeNotFound, "no terminal term_x"), 8},
		{fmt.Errorf("list: %w: /tmp/akk-0 is a symbolic link", api.ErrSocketNotOwned), 9},
		{fmt.Errorf("%w: uid 65534 answers", api.ErrServerNotOwned), 10},
	} {
		if got := exitCode(tc.err, &bytes.Buffer{}); got != tc.code {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.code)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, &out, &errb); code != 0 || !strings.HasSuffix(out.String(), "\n"+exitCodesText()) {
		t.Errorf("akk --help: exit %d, does not end with the exit codes:\n%s", code, out.String())
	}
}

// TestSocketRefusalExits: a socket directory that is a symbolic link (to
// a directory of ours, a live listener in it) is refused by akk attach,
// list and send alike, with exit 9 and the reason (api.TestSocketSquat
// proves such a refusal sends nothing).
func TestSocketRefusalExits(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "target")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", filepath.Join(target, api.SocketName))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	link := filepath.Join(base, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(link, api.SocketName)
	for _, args := range [][]string{
		{"attach", "--socket", sock, "--store", filepath.Join(base, "store")},
		{"list", "--socket", sock},
		{"send", "--socket", sock, "term_aaaaaaaaaaaaaaaaaaaaaaaaaa", "deploy"},
	} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		if code != exitSocketNotOwned || !strings.Contains(errb.String(), "socket_not_owned: socket directory "+link+" is a symbolic link") {
			t.Errorf("%s: exit %d, %q", args[0], code, errb.String())
		}
	}
}
