package dispatch

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// Candidate listings (seed 003): a person picks a conversation to resume
// by its number or a short ref from a listing; akk resolves that to the
// full id from the listing it made (private, per controller and terminal,
// five minutes), and the resume refuses if the ordered candidate set
// changed since (stale_candidates). A model passes full ids only.

// threadIDPattern is a conversation id: both agents use UUIDs (Claude's
// sessionId, Codex's thread id).
var threadIDPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// IsThreadID says whether id is a full conversation id.
func IsThreadID(id string) bool { return threadIDPattern.MatchString(id) }

type snapshotKey struct{ controller, terminal string }

type snapshot struct {
	cands []Candidate // as listed: Unchanged compares with the files then
	made  time.Time
}

func (s snapshot) ids() []string {
	out := make([]string, len(s.cands))
	for i, c := range s.cands {
		out[i] = c.ID
	}
	return out
}

// snapshotBook holds each controller's last listing of each terminal.
type snapshotBook struct {
	mu    sync.Mutex
	lists map[snapshotKey]snapshot
}

func (b *snapshotBook) put(controller, terminalID string, cands []Candidate, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lists == nil {
		b.lists = map[snapshotKey]snapshot{}
	}
	for k, s := range b.lists { // bounded: drop the expired
		if now.Sub(s.made) > api.CandidateSnapshotTTL {
			delete(b.lists, k)
		}
	}
	b.lists[snapshotKey{controller, terminalID}] = snapshot{cands: cands, made: now}
}

// listed is the controller's fresh listing of a terminal, if any.
func (b *snapshotBook) listed(controller, terminalID string, now time.Time) (snapshot, bool) {
	b.mu.Lock()
	s, ok := b.lists[snapshotKey{controller, terminalID}]
	b.mu.Unlock()
	return s, ok && now.Sub(s.made) <= api.CandidateSnapshotTTL
}

// drop forgets every listing of a terminal (its conversation moved).
func (b *snapshotBook) drop(terminalID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k := range b.lists {
		if k.terminal == terminalID {
			delete(b.lists, k)
		}
	}
}

// resolve turns a number or short ref of the controller's listing into
// the full id, with the listing's ordered ids.
func (b *snapshotBook) resolve(controller, terminalID, ref string, now time.Time) (string, []string, *refusal) {
	s, ok := b.listed(controller, terminalID, now)
	if !ok {
		return "", nil, reject(api.ReasonStaleCandidates, "no listing of this terminal's conversations in the last %s: list them again (resume-thread --list)", api.CandidateSnapshotTTL)
	}
	ids := s.ids()
	if n, err := strconv.Atoi(ref); err == nil {
		if n < 1 || n > len(ids) {
			return "", nil, reject(api.ReasonNotResumable, "the listing has no number %d (1-%d)", n, len(ids))
		}
		return ids[n-1], ids, nil
	}
	ref = strings.ToLower(ref)
	var found string
	for _, id := range ids {
		if strings.HasPrefix(id, ref) {
			if found != "" {
				return "", nil, reject(api.ReasonNotResumable, "%q names several conversations of the listing: give more of the id", ref)
			}
			found = id
		}
	}
	if found == "" || len(ref) < 4 {
		return "", nil, reject(api.ReasonNotResumable, "%q names no conversation of the listing", clip(ref, 40))
	}
	return found, ids, nil
}

// ThreadCandidates answers POST /v1/thread_candidates: the conversations
// the terminal's agent may resume, freshly listed, and the controller's
// snapshot for numbers and short refs.
func (d *Dispatcher) ThreadCandidates(ctx context.Context, req api.ThreadCandidatesRequest) (api.ThreadCandidates, error) {
	if err := checkID("terminal_id", req.TerminalID, "term"); err != nil || req.TerminalID == "" {
		return api.ThreadCandidates{}, cmpErr(err, api.Errorf(api.CodeBadRequest, "thread_candidates needs terminal_id"))
	}
	m := d.cfg.Terminals.Terminal(req.TerminalID)
	if m == nil {
		return api.ThreadCandidates{}, api.Errorf(api.CodeNotFound, "no terminal %s: run `akk list` for the current ids", req.TerminalID)
	}
	if d.cfg.Threads == nil {
		return api.ThreadCandidates{}, api.Errorf(api.CodeConflict, "this daemon follows no native sessions")
	}
	if err := m.Barrier(ctx); err != nil {
		return api.ThreadCandidates{}, api.Errorf(api.CodeConflict, "terminal %s: %v", req.TerminalID, err)
	}
	return d.Listing(ctx, ControllerOf(ctx), m.View())
}

// Listing lists v's resumable conversations and records the controller's
// snapshot (Status calls it for available_actions.resume_thread).
func (d *Dispatcher) Listing(ctx context.Context, controller string, v terminal.View) (api.ThreadCandidates, error) {
	now := d.cfg.Now()
	out := api.ThreadCandidates{V: api.SchemaVersion, TerminalID: v.ID, Candidates: []api.ThreadCandidate{},
		ExpiresAt: now.Add(api.CandidateSnapshotTTL)}
	if v.Ident == nil {
		return out, nil
	}
	cands, err := d.cfg.Threads.Candidates(ctx, v)
	if err != nil {
		return out, api.Errorf(api.CodeConflict, "list the agent's conversations: %v", err)
	}
	previous := ""
	if l := v.Bind.Last; l != nil && l.Next != "" && l.Next == v.Bind.SessionID && l.Incarnation == v.Ident.Incarnation() {
		previous = l.Previous
	}
	ids := make([]string, 0, len(cands))
	for _, c := range cands {
		ids = append(ids, c.ID)
	}
	for i, c := range cands {
		out.Candidates = append(out.Candidates, api.ThreadCandidate{Number: i + 1, NativeThreadID: c.ID,
			ShortRef: shortRef(c.ID, ids), Title: c.Title, UpdatedAt: c.Updated, Previous: previous != "" && c.ID == previous})
	}
	d.snapshots.put(controller, v.ID, cands, now)
	return out, nil
}

// shortRef is the shortest prefix of id (at least 8) no other id shares.
func shortRef(id string, ids []string) string {
	for n := 8; n < len(id); n++ {
		p := id[:n]
		if !slices.ContainsFunc(ids, func(o string) bool { return o != id && strings.HasPrefix(o, p) }) {
			return p
		}
	}
	return id
}
