package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The journal is one JSON line per record in
// ~/.parrot/sessions/<session>.jsonl, appended as things happen:
//
//	{"type":"session","session":id,"cwd":dir,"version":"1.0.0","time":t}   first, at start
//	{"type":"prompt","turn":"turn-N","text":...}                            a prompt submitted
//	{"type":"reply","turn":...,"text":...}                                  its echo, or what it ran
//	{"type":"tool_call","turn":...,"call":"call-N","name":"run","input":{"command":...}}
//	{"type":"tool_result","turn":...,"call":...,"name":"run","decision":"yes|no|cancel"}
//	{"type":"turn_end","turn":...,"outcome":"completed|declined"}
//
// Every record has its "time" (RFC 3339, nanoseconds). The session's
// file is written when it starts, before any prompt.
type journal struct {
	f *os.File
}

// record is one line of the journal.
type record struct {
	Type     string            `json:"type"`
	Time     string            `json:"time"`
	Session  string            `json:"session,omitempty"`
	Cwd      string            `json:"cwd,omitempty"`
	Version  string            `json:"version,omitempty"`
	Turn     string            `json:"turn,omitempty"`
	Text     *string           `json:"text,omitempty"`
	Call     string            `json:"call,omitempty"`
	Name     string            `json:"name,omitempty"`
	Input    map[string]string `json:"input,omitempty"`
	Decision string            `json:"decision,omitempty"`
	Outcome  string            `json:"outcome,omitempty"`
}

// openJournal starts a session's journal under home, its header first.
func openJournal(home, cwd string) (*journal, error) {
	dir := filepath.Join(home, ".parrot", "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	session := time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(id[:])
	f, err := os.OpenFile(filepath.Join(dir, session+".jsonl"), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &journal{f: f}
	j.write(record{Type: "session", Session: session, Cwd: cwd, Version: version})
	return j, nil
}

// write appends one record, whole, in one write.
func (j *journal) write(r record) {
	r.Time = time.Now().UTC().Format(time.RFC3339Nano)
	b, _ := json.Marshal(r)
	j.f.Write(append(b, '\n'))
}

func (j *journal) close() { j.f.Close() }
