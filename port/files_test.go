package port

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/internal/syncbuf"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// race runs Race over the terminal and the files in the background and
// delivers its answer on the returned channel.
func race(t *testing.T, term Port, f *Files, ask func(ctx context.Context, p Port) (string, error)) <-chan Answer {
	t.Helper()
	done := make(chan Answer, 1)
	go func() {
		a, err := Race(context.Background(), []Port{term, f}, ask)
		if err != nil {
			t.Error(err)
		}
		done <- a
	}()
	return done
}

// awaitRequest waits for the one pending request of f.
func awaitRequest(t *testing.T, f *Files) Request {
	t.Helper()
	var req Request
	tmuxtest.Await(t, 5*time.Second, func() string {
		reqs, err := f.Pending()
		if err != nil {
			return err.Error()
		}
		if len(reqs) != 1 {
			return fmt.Sprintf("%d request files, want one", len(reqs))
		}
		req = reqs[0]
		return ""
	})
	return req
}

func await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tmuxtest.Await(t, 5*time.Second, tmuxtest.Until(what, cond))
}

func runDir(t *testing.T) *Files {
	t.Helper()
	f, err := OpenFiles(filepath.Join(t.TempDir(), "run"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// pipedTerminal is a terminal port on a tty that reads what the test
// writes to in and writes its questions to out; in is closed when the
// test ends.
func pipedTerminal(t *testing.T) (term *Terminal, in *io.PipeWriter, out *syncbuf.Buffer) {
	inR, in := io.Pipe()
	t.Cleanup(func() { in.Close() })
	out = &syncbuf.Buffer{}
	return NewTerminal(inR, out, true), in, out
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestRaceFileFirst: the response file answers first; the terminal's
// question is aborted without an answer, says so and stays usable (its
// next question is answered by the next line, not by a stale one), and the
// request is gone.
func TestRaceFileFirst(t *testing.T) {
	f := runDir(t)
	term, inW, out := pipedTerminal(t)
	done := race(t, term, f, func(ctx context.Context, p Port) (string, error) {
		return p.AskDecision(ctx, Prompt{Title: "Bash: rm -rf build"})
	})
	req := awaitRequest(t, f)
	if req.Kind != "decision" || req.Title != "Bash: rm -rf build" || req.AnswerWith != filepath.Join(f.Dir(), req.RequestID+".response") {
		t.Fatalf("request %+v", req)
	}
	await(t, "the terminal's question", func() bool { return strings.Contains(out.String(), DefaultQuestion) })
	if err := AnswerFile(f.Dir(), req.RequestID, "y"); err != nil {
		t.Fatal(err)
	}
	a := <-done
	if a.Port != 1 || a.Text != "y" {
		t.Fatalf("answer %+v, want the file's y", a)
	}
	if !strings.Contains(out.String(), "(answered elsewhere)") {
		t.Errorf("terminal output %q: the aborted question does not say why it went away", out.String())
	}
	if names := dirEntries(t, f.Dir()); len(names) != 0 {
		t.Errorf("run directory after the answer: %v, want empty (request and response consumed)", names)
	}
	// A line typed now, with no question waiting, answers nothing later.
	io.WriteString(inW, "stale\n")
	// An empty write to the pipe returns only once the port's reader calls
	// Read again, which it does after it has handled (dropped) the line.
	io.WriteString(inW, "")
	ans := make(chan string, 1)
	go func() {
		a, _ := term.AskText(context.Background(), Prompt{Question: "name?"})
		ans <- a
	}()
	await(t, "the second question", func() bool { return strings.Contains(out.String(), "name?") })
	io.WriteString(inW, "Fresh\n")
	if got := <-ans; got != "Fresh" {
		t.Errorf("second question answered %q, want %q (case kept, stale line dropped)", got, "Fresh")
	}
}

// TestRaceTerminalFirst: the person answers on the terminal; the request
// file is withdrawn, and a response written late is removed, not kept for
// anyone.
func TestRaceTerminalFirst(t *testing.T) {
	f := runDir(t)
	term, inW, out := pipedTerminal(t)
	done := race(t, term, f, func(ctx context.Context, p Port) (string, error) {
		return AskChoice(ctx, p, Prompt{Title: "colour"}, Choice{Options: []string{"Red", "Blue"}})
	})
	req := awaitRequest(t, f)
	if req.Kind != "choice" || len(req.Options) != 2 {
		t.Fatalf("request %+v", req)
	}
	await(t, "the terminal's question", func() bool { return strings.Contains(out.String(), "2. Blue") })
	io.WriteString(inW, "2\n")
	a := <-done
	if a.Port != 0 || a.Text != "2" {
		t.Fatalf("answer %+v, want the terminal's 2", a)
	}
	if names := dirEntries(t, f.Dir()); len(names) != 0 {
		t.Errorf("run directory after the terminal answered: %v, want the request withdrawn", names)
	}
}

// TestFilesRefuse: responses that are not the request's own are refused
// and removed; the question keeps waiting for a good one.
func TestFilesRefuse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(t *testing.T, dir, id string)
	}{
		{"bound to another request", func(t *testing.T, dir, id string) {
			os.WriteFile(filepath.Join(dir, id+".response"), []byte(`{"request_id":"req_other","answer":"y"}`), 0o600)
		}},
		{"a symbolic link", func(t *testing.T, dir, id string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			os.WriteFile(target, []byte(`{"request_id":"`+id+`","answer":"y"}`), 0o600)
			os.Symlink(target, filepath.Join(dir, id+".response"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := runDir(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan string, 1)
			go func() {
				a, err := f.AskDecision(ctx, Prompt{Title: "x"})
				if err != nil {
					a = "err: " + err.Error()
				}
				done <- a
			}()
			req := awaitRequest(t, f)
			tc.write(t, f.Dir(), req.RequestID)
			await(t, "the refused response removed", func() bool {
				_, err := os.Lstat(filepath.Join(f.Dir(), req.RequestID+".response"))
				return errors.Is(err, os.ErrNotExist)
			})
			select {
			case a := <-done:
				t.Fatalf("answered %q from a refused response", a)
			default:
			}
			if err := AnswerFile(f.Dir(), req.RequestID, "n"); err != nil {
				t.Fatal(err)
			}
			if a := <-done; a != "n" {
				t.Errorf("answer %q, want n", a)
			}
		})
	}
}

// TestFilesAbortWithdraws: a caller that gives up leaves no request.
func TestFilesAbortWithdraws(t *testing.T) {
	f := runDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := f.AskManualIntervention(ctx, Prompt{Title: "log in"})
		done <- err
	}()
	awaitRequest(t, f)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if names := dirEntries(t, f.Dir()); len(names) != 0 {
		t.Errorf("run directory after the abort: %v", names)
	}
}

// TestOpenFilesMode: the run directory ends up 0700, and a file in its
// place is refused.
func TestOpenFilesMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFiles(dir, nil); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", fi.Mode().Perm())
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := OpenFiles(file, nil); err == nil {
		t.Error("a file accepted as the run directory")
	}
}

// TestTerminalWithoutTTY: no terminal, no question printed, no answer.
func TestTerminalWithoutTTY(t *testing.T) {
	out := &syncbuf.Buffer{}
	term := NewTerminal(strings.NewReader("y\n"), out, false)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if a, err := term.AskDecision(ctx, Prompt{Title: "x"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("answered %q %v without a terminal", a, err)
	}
	if out.String() != "" {
		t.Errorf("printed %q without a terminal", out.String())
	}
}

// TestTerminalInputEnds: a terminal whose input ended cannot ask; in a
// race it drops out and the file still answers.
func TestTerminalInputEnds(t *testing.T) {
	f := runDir(t)
	term := NewTerminal(strings.NewReader(""), io.Discard, true)
	done := race(t, term, f, func(ctx context.Context, p Port) (string, error) {
		return p.AskDecision(ctx, Prompt{Title: "x"})
	})
	req := awaitRequest(t, f)
	time.Sleep(10 * time.Millisecond) // the terminal drops out first
	AnswerFile(f.Dir(), req.RequestID, "y")
	if a := <-done; a.Port != 1 || a.Text != "y" {
		t.Errorf("answer %+v", a)
	}
}
