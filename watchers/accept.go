package watchers

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Request-hash acceptance proves that an exact prompt sent by akk was
// accepted by one native session after a pre-send byte anchor. Before the
// send akk takes an Anchor of every candidate file (the bound rollout or
// transcript, or each open rollout of a candidate set; a candidate whose
// file does not exist yet is anchored as Absent). After the send the
// evidence read past the anchors decides:
//
//	Accepted  exactly one PromptAccepted with the prompt's hash, after its
//	          anchor, in the anchored file (Codex: with a native turn_id
//	          whose task_started also lies after the anchor, or the turn
//	          the anchor names as running: a prompt steered into a working
//	          Codex is recorded in its running turn; Claude: with the
//	          anchored sessionId and cwd when known).
//	Pending   none yet.
//	Uncertain two or more match, or an anchored file was replaced,
//	          truncated or deleted, or its turn started twice, before a
//	          unique match; or the bounded scan ran out. Never retried
//	          blindly.

// Verdict is the outcome of acceptance.
type Verdict string

const (
	Accepted  Verdict = "accepted"
	Pending   Verdict = "pending"
	Uncertain Verdict = "uncertain"
)

// Anchor is a pre-send position in one candidate file.
type Anchor struct {
	Agent evidence.Agent
	Path  string
	File  evidence.FileID
	// Offset is the file's size when anchored: a line boundary.
	Offset int64
	// Guard holds the bytes just before Offset (up to 64). Reading checks
	// them again: an inode number can be reused by a file created after
	// a deletion, its bytes rarely are.
	Guard []byte
	// Absent: the file did not exist when anchored; any file appearing at
	// Path is read from its start.
	Absent bool
	// SessionID and Cwd, when set, must be those of the accepting record
	// (Claude) or of the new file's session_meta (Codex, Absent).
	SessionID string
	Cwd       string
	// Running is the Codex turn in progress when the anchor was taken,
	// when the prompt is sent into it (a working agent): Codex records a
	// steered prompt under the running turn's id, whose task_started lies
	// before the anchor. Only that turn's id is accepted so.
	Running string
}

const anchorGuard = 64

// TakeAnchor anchors path at its current end. A file that ends inside a
// line (the agent is writing) cannot be anchored: ErrAnchor, try again.
func TakeAnchor(ctx context.Context, agent evidence.Agent, path string) (Anchor, error) {
	if err := ctx.Err(); err != nil {
		return Anchor{}, err
	}
	a := Anchor{Agent: agent, Path: path}
	if inStore(agent) {
		return takeRecordAnchor(ctx, a)
	}
	f, st, err := OpenStat(path)
	if err != nil {
		return a, fmt.Errorf("watchers: anchor %s: %w", path, err)
	}
	if f == nil {
		a.Absent = true
		return a, nil
	}
	defer f.Close()
	a.File, a.Offset = st.ID, st.Size
	if st.Size == 0 {
		return a, nil
	}
	a.Guard = make([]byte, min(st.Size, anchorGuard))
	if _, err := f.ReadAt(a.Guard, st.Size-int64(len(a.Guard))); err != nil {
		return a, fmt.Errorf("watchers: anchor %s: %w", path, err)
	}
	if a.Guard[len(a.Guard)-1] != '\n' {
		return a, fmt.Errorf("watchers: anchor %s: file ends inside a line: %w", path, ErrAnchor)
	}
	return a, nil
}

// Acceptance is the verdict and its evidence.
type Acceptance struct {
	Verdict Verdict
	Reason  string
	// Match is the accepting record when Verdict is Accepted.
	Match *evidence.PromptAccepted
	// Matches lists every matching record (two or more: Uncertain).
	Matches []evidence.PromptAccepted
}

// Acceptor decides acceptance from evidence events. It is pure: feed it
// the events of the anchored files (from a Watcher, or from Accept's
// reads) in file order.
type Acceptor struct {
	hash    [32]byte
	anchors []anchorState
	matches []evidence.PromptAccepted
	broken  string
	// brokenAfter: how many matches were held when authority broke; a
	// unique match held before then stands.
	brokenAfter int
}

type anchorState struct {
	Anchor
	rule    evidence.Acceptance // the anchored agent's format's
	started map[string]int      // turn id -> its starts seen after the anchor
	file    evidence.FileID     // an Absent anchor's file, once seen
	session string              // the new file's session_meta (Absent, Codex)
}

// NewAcceptor starts deciding for prompt (hashed as PromptHash) over the
// anchored candidates.
func NewAcceptor(prompt string, anchors ...Anchor) *Acceptor {
	a := &Acceptor{hash: evidence.PromptHash(prompt)}
	for _, an := range anchors {
		f, _ := evidence.FormatOf(an.Agent)
		a.anchors = append(a.anchors, anchorState{Anchor: an, rule: f.Accept, started: map[string]int{}})
	}
	return a
}

// Observe takes one event; events of files that are not anchored, or that
// lie before an anchor, are ignored.
func (a *Acceptor) Observe(ev evidence.Event) {
	at := ev.At()
	for i := range a.anchors {
		s := &a.anchors[i]
		if s.Path != at.Path {
			continue
		}
		if fe, ok := ev.(evidence.FileEvent); ok {
			a.fileEvent(s, fe)
			continue
		}
		if !s.covers(at) {
			continue
		}
		switch e := ev.(type) {
		case evidence.SessionIdentity:
			s.session = e.SessionID
		case evidence.TurnStarted:
			s.started[e.TurnID]++
			if s.started[e.TurnID] > 1 {
				a.breakWith(fmt.Sprintf("turn %s started twice after the anchor", e.TurnID))
			}
		case evidence.PromptAccepted:
			if e.SHA256 == a.hash && s.accepts(e) {
				a.matches = append(a.matches, e)
			}
		}
	}
}

// covers says whether an event of the anchored path lies after the anchor
// in the anchored file.
func (s *anchorState) covers(at evidence.Where) bool {
	if s.Absent {
		if s.file == (evidence.FileID{}) {
			s.file = at.File
		}
		return at.File == s.file
	}
	return at.File == s.File && at.Offset >= s.Offset
}

func (s *anchorState) accepts(e evidence.PromptAccepted) bool {
	switch s.rule {
	case evidence.AcceptStartedTurn:
		steered := e.TurnID == s.Running && s.started[e.TurnID] == 0
		if e.TurnID == "" || s.started[e.TurnID] != 1 && !steered {
			return false
		}
		return !s.Absent || s.SessionID == "" || s.session == s.SessionID
	case evidence.AcceptFileSession:
		// The file's prompts carry no session (a parse from the anchor
		// knows none): the anchored file is the session, bound by its
		// header.
		return e.SessionID == "" || s.SessionID == "" || e.SessionID == s.SessionID
	default:
		return (s.SessionID == "" || e.SessionID == s.SessionID) && (s.Cwd == "" || e.Cwd == s.Cwd)
	}
}

func (a *Acceptor) fileEvent(s *anchorState, fe evidence.FileEvent) {
	switch {
	case fe.Change == evidence.FileAppeared && s.Absent && s.file == (evidence.FileID{}):
		s.file = fe.File
	case fe.Change == evidence.FileAppeared, fe.Change == evidence.FileRenamed:
	case s.Absent && s.file == (evidence.FileID{}):
	case fe.OldFile == s.fileID():
		a.breakWith(fmt.Sprintf("anchored file %s %s", s.Path, fe.Change))
	}
}

func (s *anchorState) fileID() evidence.FileID {
	if s.Absent {
		return s.file
	}
	return s.File
}

func (a *Acceptor) breakWith(reason string) {
	if a.broken == "" {
		a.broken, a.brokenAfter = reason, len(a.matches)
	}
}

// Result is the verdict over the events observed so far. Accepted holds
// until a second match arrives (then Uncertain, for good).
func (a *Acceptor) Result() Acceptance {
	r := Acceptance{Matches: append([]evidence.PromptAccepted(nil), a.matches...)}
	switch {
	case len(a.matches) > 1:
		r.Verdict, r.Reason = Uncertain, fmt.Sprintf("%d records match the request hash", len(a.matches))
	case len(a.matches) == 1 && (a.broken == "" || a.brokenAfter == 1):
		m := a.matches[0]
		r.Verdict, r.Reason, r.Match = Accepted, "request hash accepted after the anchor", &m
	case a.broken != "":
		r.Verdict, r.Reason = Uncertain, a.broken
	default:
		r.Verdict, r.Reason = Pending, "no record matches the request hash yet"
	}
	return r
}

// Accept reads each anchored file past its anchor (at most limit bytes
// each, 0: 16 MiB) and decides. It re-reads from the anchors every time,
// so it can be called again as evidence arrives.
func Accept(ctx context.Context, prompt string, limit int64, anchors ...Anchor) (Acceptance, error) {
	if limit <= 0 {
		limit = 16 << 20
	}
	acc := NewAcceptor(prompt, anchors...)
	for _, an := range anchors {
		if err := ctx.Err(); err != nil {
			return Acceptance{}, err
		}
		short, err := scanAnchor(acc, an, limit)
		if err != nil {
			return Acceptance{}, err
		}
		if short != "" {
			acc.breakWith(short)
		}
	}
	return acc.Result(), nil
}

func guardHolds(f io.ReaderAt, an Anchor) bool {
	g := make([]byte, len(an.Guard))
	_, err := f.ReadAt(g, an.Offset-int64(len(g)))
	return err == nil && string(g) == string(an.Guard)
}

// scanAnchor feeds the acceptor the events of one anchored file's suffix;
// it returns a reason when the file no longer holds the anchor or the
// bound was reached.
func scanAnchor(acc *Acceptor, an Anchor, limit int64) (string, error) {
	format, err := lineFormat(an.Agent)
	if err != nil {
		if inStore(an.Agent) {
			return scanRecordAnchor(acc, an)
		}
		return "", fmt.Errorf("watchers: accept: %w", err)
	}
	f, st, err := OpenStat(an.Path)
	if err != nil {
		return "", fmt.Errorf("watchers: accept: %w", err)
	}
	if f == nil {
		if an.Absent {
			return "", nil
		}
		return fmt.Sprintf("anchored file %s deleted", an.Path), nil
	}
	defer f.Close()
	switch {
	case !an.Absent && st.ID != an.File:
		return fmt.Sprintf("anchored file %s replaced", an.Path), nil
	case !an.Absent && st.Size < an.Offset:
		return fmt.Sprintf("anchored file %s truncated", an.Path), nil
	case !an.Absent && !guardHolds(f, an):
		return fmt.Sprintf("anchored file %s rewritten before the anchor", an.Path), nil
	}
	tl := NewTail(0, 0)
	if !an.Absent {
		tl.Resume(an.File, an.Offset)
	}
	p := format.NewParser()
	start := an.Offset
	if an.Absent {
		start = 0
	}
	end := min(st.Size, start+limit)
	buf := make([]byte, DefaultMaxRead)
	var evs []evidence.Event
	for {
		step := tl.Next(Stat{Exists: true, ID: st.ID, Size: end})
		if step.ReadLen == 0 {
			break
		}
		n, err := f.ReadAt(buf[:step.ReadLen], step.ReadAt)
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("watchers: accept: read %s: %w", an.Path, err)
		}
		if ch := tl.Feed(buf[:n], func(l Line) {
			at := evidence.Where{Agent: an.Agent, Path: an.Path, File: st.ID, Offset: l.Offset, End: l.End()}
			if !l.TooLong {
				evs = p.Parse(at, l.Data, evs[:0])
				for _, ev := range evs {
					acc.Observe(ev)
				}
			}
		}); ch != nil {
			return fmt.Sprintf("anchored file %s changed while read", an.Path), nil
		}
	}
	for _, ev := range p.Flush(nil) {
		acc.Observe(ev)
	}
	if end < st.Size && acc.Result().Verdict == Pending {
		return fmt.Sprintf("no match within %d bytes after the anchor", limit), nil
	}
	return "", nil
}

// Prompted reports whether the anchored file took a prompt after the
// anchor (a turn other than own started there: a person typed one, or
// another tool sent it), or no longer holds the anchor (replaced,
// truncated, rewritten), so that nothing can be said of what came after.
// why says which. own is the turn that ended at the anchor: Claude Code
// may write that turn's prompt record after its end (out of order), which
// is no new prompt.
func Prompted(ctx context.Context, an Anchor, own string) (prompted bool, why string, err error) {
	if err := ctx.Err(); err != nil {
		return false, "", err
	}
	acc := NewAcceptor("", an)
	short, err := scanAnchor(acc, an, 16<<20)
	if err != nil {
		return false, "", err
	}
	if short != "" { // the anchor is gone, or the scan ran out: nothing is proven
		return true, short, nil
	}
	for id := range acc.anchors[0].started {
		if id != own {
			return true, "turn " + id + " started after it", nil
		}
	}
	return false, "", nil
}
