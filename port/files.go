package port

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/watchers"
)

// ErrRunDir: the run directory is not safe to take answers from.
var ErrRunDir = errors.New("port: unsafe run directory")

// Files is the response-file channel. Every question writes
// `<dir>/<id>.request` (JSON, see Request) and waits for
// `<dir>/<id>.response` (JSON, see Response). One file pair per question,
// rather than the seed's single approval-response.txt, so two questions
// asked at once can never take each other's answer. A response is
// single-use: it is removed once read, with its request, and one whose
// request_id is not the file's own is refused and removed. When the
// question is aborted (another channel answered) the request is
// withdrawn: its file and any late response are removed.
//
// The directory is 0700 and owned by the running user (OpenFiles checks
// and repairs what it may), so only that user can answer; a response file
// must be a regular file owned by the same user.
type Files struct {
	dir string
	lg  *slog.Logger
}

// Request is the JSON of a `.request` file.
type Request struct {
	V         int       `json:"v"`
	RequestID string    `json:"request_id"`
	Kind      string    `json:"kind"` // decision, manual, text, choice
	Title     string    `json:"title,omitempty"`
	Lines     []string  `json:"lines,omitempty"`
	Question  string    `json:"question,omitempty"`
	Options   []string  `json:"options,omitempty"`
	Multiple  bool      `json:"multiple,omitempty"`
	Styled    string    `json:"styled,omitempty"`
	Created   time.Time `json:"created"`
	// AnswerWith is the path of the response file to write.
	AnswerWith string `json:"answer_with"`
}

// Response is the JSON of a `.response` file. Write it to a temporary
// name and rename it into place; a file read half-written is read again
// on its next change.
type Response struct {
	RequestID string `json:"request_id"`
	Answer    string `json:"answer"`
}

// OpenFiles returns the channel of run directory dir, creating it 0700.
// An existing directory must be ours and not a symbolic link; group or
// other permissions on it are removed.
func OpenFiles(dir string, lg *slog.Logger) (*Files, error) {
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("port: run directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("port: run directory: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrRunDir, dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return nil, fmt.Errorf("%w: %s is owned by uid %d, not %d", ErrRunDir, dir, st.Uid, os.Getuid())
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, fmt.Errorf("%w: chmod 0700 %s: %w", ErrRunDir, dir, err)
		}
	}
	return &Files{dir: dir, lg: lg}, nil
}

// Dir is the run directory.
func (f *Files) Dir() string { return f.dir }

// AskDecision writes a decision request and waits for its response.
func (f *Files) AskDecision(ctx context.Context, p Prompt) (string, error) {
	return f.ask(ctx, "decision", p, Choice{})
}

// AskManualIntervention writes a manual request; any answer ("" too)
// means the person says they intervened.
func (f *Files) AskManualIntervention(ctx context.Context, p Prompt) (string, error) {
	return f.ask(ctx, "manual", p, Choice{})
}

// AskText writes a text request.
func (f *Files) AskText(ctx context.Context, p Prompt) (string, error) {
	return f.ask(ctx, "text", p, Choice{})
}

// AskChoice writes a choice request with its options.
func (f *Files) AskChoice(ctx context.Context, p Prompt, c Choice) (string, error) {
	return f.ask(ctx, "choice", p, c)
}

// Notify appends msg to `<dir>/notices`.
func (f *Files) Notify(msg string) {
	fh, err := os.OpenFile(filepath.Join(f.dir, "notices"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		f.lg.Warn("notice", "err", err)
		return
	}
	defer fh.Close()
	fmt.Fprintf(fh, "%s %s\n", time.Now().UTC().Format(time.RFC3339), strings.ReplaceAll(msg, "\n", " "))
}

func (f *Files) ask(ctx context.Context, kind string, p Prompt, c Choice) (string, error) {
	id, err := NewRequestID()
	if err != nil {
		return "", err
	}
	req := Request{V: 1, RequestID: id, Kind: kind, Title: p.Title, Lines: p.Lines, Question: p.Question,
		Options: c.Options, Multiple: c.Multiple, Styled: p.Styled, Created: time.Now().UTC(), AnswerWith: f.responsePath(id)}
	w, err := watchers.WatchDir(f.dir)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrCannotAsk, err)
	}
	defer w.Close()
	// The watch is made before the request exists, so no response can come
	// unseen.
	if err := f.writeRequest(req); err != nil {
		return "", err
	}
	defer f.withdraw(id)
	if a, ok := f.take(id); ok {
		return a, nil
	}
	for {
		name, err := w.Next(ctx)
		switch {
		case errors.Is(err, watchers.ErrDirWatch):
			// A change may have been missed: look at the response again.
			f.lg.Warn("response watch", "request", id, "err", err)
		case err != nil:
			return "", err
		case name != id+".response":
			continue
		}
		if a, ok := f.take(id); ok {
			return a, nil
		}
	}
}

func (f *Files) responsePath(id string) string { return filepath.Join(f.dir, id+".response") }
func (f *Files) requestPath(id string) string  { return filepath.Join(f.dir, id+".request") }

func (f *Files) writeRequest(req Request) error { return WriteRequest(f.dir, req) }

// WriteRequest writes req as `<dir>/<id>.request`, atomically (temp file,
// rename), 0600.
func WriteRequest(dir string, req Request) error {
	data, err := json.MarshalIndent(req, "", "  ")
	if err != nil {
		return fmt.Errorf("port: request: %w", err)
	}
	tmp := filepath.Join(dir, "."+req.RequestID+".request.tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("%w: write request: %w", ErrCannotAsk, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, req.RequestID+".request")); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%w: write request: %w", ErrCannotAsk, err)
	}
	return nil
}

// take reads the response of id, if one is there and valid, and consumes
// it. A response that is not a regular file of ours, or names another
// request, is refused and removed; one that does not parse yet (being
// written) is left for its next change.
func (f *Files) take(id string) (string, bool) { return TakeResponse(f.dir, id, f.lg) }

// TakeResponse reads and consumes the response to request id in dir, as
// the file channel does (the popup's port reads its popup's answer the
// same way).
func TakeResponse(dir, id string, lg *slog.Logger) (string, bool) {
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	path := filepath.Join(dir, id+".response")
	fi, err := os.Lstat(path)
	if err != nil {
		return "", false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.Mode().IsRegular() || (ok && int(st.Uid) != os.Getuid()) {
		lg.Warn("response refused: not a regular file of ours", "request", id)
		os.Remove(path)
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	var r Response
	if err := json.Unmarshal(data, &r); err != nil {
		return "", false
	}
	if r.RequestID != id {
		lg.Warn("response refused: bound to another request", "request", id, "names", r.RequestID)
		os.Remove(path)
		return "", false
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		lg.Warn("consume response", "request", id, "err", err)
	}
	return r.Answer, true
}

// withdraw removes the request and any response (late, or never read).
func (f *Files) withdraw(id string) {
	for _, p := range []string{f.requestPath(id), f.responsePath(id)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			f.lg.Warn("withdraw request", "request", id, "err", err)
		}
	}
}

// Pending lists the requests waiting in the run directory.
func (f *Files) Pending() ([]Request, error) {
	ents, err := os.ReadDir(f.dir)
	if err != nil {
		return nil, fmt.Errorf("port: %w", err)
	}
	var out []Request
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".request") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(f.dir, e.Name()))
		if err != nil {
			continue // withdrawn meanwhile
		}
		var r Request
		if json.Unmarshal(data, &r) == nil {
			out = append(out, r)
		}
	}
	return out, nil
}

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewRequestID returns a fresh request id ("req_" and 16 base32
// characters): unguessable, so a response names exactly one question.
func NewRequestID() (string, error) {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("port: request id: %w", err)
	}
	return "req_" + strings.ToLower(idEncoding.EncodeToString(b[:])), nil
}

// AnswerFile writes the response to request id in dir, atomically: what a
// person's tool (or a test) does to answer through the file channel.
func AnswerFile(dir, id, answer string) error {
	data, err := json.Marshal(Response{RequestID: id, Answer: answer})
	if err != nil {
		return fmt.Errorf("port: response: %w", err)
	}
	tmp := filepath.Join(dir, "."+id+".response.tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("port: response: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, id+".response")); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("port: response: %w", err)
	}
	return nil
}
