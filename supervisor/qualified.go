package supervisor

import (
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
)

// qualifiedProfiles is terminal.Profiles over the store's qualification
// records (issue 41): a pinned version reads with its own profile; an
// unpinned binary whose identity hash has a record reads with the
// record's base, exact on its passed surfaces only; anything else reads
// generically.
type qualifiedProfiles struct {
	st     *store.Store
	ident  *procid.Classifier
	hasher procid.Hasher
	lg     *slog.Logger
	// gen counts the qualifications stored through this daemon: a pane
	// asks again when it changed.
	gen atomic.Uint64
}

// Profile picks the profile for ident. It hashes the agent's binary
// (seconds for a native agent of hundreds of MB, on the pane's pass) only
// when some record names its agent and version, and then once: the
// digest is cached by inode, size and mtime.
func (q *qualifiedProfiles) Profile(ident procid.Identity) recognizers.Profile {
	p := recognizers.Lookup(ident.Agent, ident.Version)
	if p.Exact || ident.Agent == procid.AgentNone || ident.Agent == "" || !q.recorded(ident.Agent, ident.Version) {
		return p
	}
	files := q.ident.IdentityFiles(ident)
	if len(files) == 0 {
		return p
	}
	identity, err := q.hasher.Identity(files...)
	if err != nil {
		q.lg.Warn("qualification: cannot hash the agent's binary", "agent", ident.Agent, "version", ident.Version, "err", err)
		return p
	}
	rec, err := q.st.Qualification(ident.Agent, identity)
	if errors.Is(err, store.ErrNotFound) {
		return p
	}
	if err != nil {
		q.lg.Warn("qualification: cannot read the record", "agent", ident.Agent, "err", err)
		return p
	}
	if rec.Version != ident.Version {
		// The same bytes under another version cannot happen unless
		// the package was edited: trust neither.
		q.lg.Warn("qualification: the record names another version", "agent", ident.Agent, "version", ident.Version, "record", rec.Version)
		return p
	}
	passed := make([]recognizers.Surface, len(rec.Passed))
	for i, s := range rec.Passed {
		passed[i] = recognizers.Surface(s)
	}
	qp, err := recognizers.Qualified(ident.Agent, ident.Version, recognizers.Qualification{Base: rec.Base,
		Tag: qualificationTag(rec), Passed: passed, Judged: len(rec.Passed) + len(rec.Failed) + len(rec.NotReached)})
	if err != nil {
		q.lg.Warn("qualification: unusable record", "agent", ident.Agent, "version", ident.Version, "err", err)
		return p
	}
	return qp
}

// recorded reports whether a qualification record names agent@version
// (the records are few: one per binary qualified).
func (q *qualifiedProfiles) recorded(agent, version string) bool {
	recs, err := q.st.Qualifications()
	if err != nil {
		q.lg.Warn("qualification: cannot list the records", "err", err)
		return false
	}
	return slices.ContainsFunc(recs, func(r store.Qualification) bool { return r.Agent == agent && r.Version == version })
}

// qualificationTag names one record of one binary: its identity and when
// it was made, so an offer cannot cross a requalification.
func qualificationTag(rec store.Qualification) string {
	return rec.Identity[:min(12, len(rec.Identity))] + "." + strconv.FormatInt(rec.At.Unix(), 36)
}

// Generation is how many qualifications were stored through the daemon.
func (q *qualifiedProfiles) Generation() uint64 { return q.gen.Load() }

// pokePanes makes every pane pass again (a qualification was stored).
func (s *Supervisor) pokePanes() {
	for _, m := range s.monitors() {
		m.Poke()
	}
}
