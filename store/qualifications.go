package store

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Qualification is the record of one agent binary qualified against a
// pinned profile (issue 41): the daemon acts on that exact binary, known
// by its identity hash, with the base version's profile, on the passed
// surfaces only; any other surface of it stays manual_required. The record
// is written once, whole, when a run ends: a run killed midway leaves no
// record, so nothing partial ever counts as qualified.
type Qualification struct {
	V       int    `json:"v"`
	Agent   string `json:"agent"`
	Version string `json:"version"` // as the agent reports it
	// Identity is the SHA-256 (hex) of the files that make the binary
	// (procid.Hasher): another build of the same version is another
	// identity, and unqualified.
	Identity string `json:"identity"`
	// Base is the pinned version whose profile read its screens.
	Base string `json:"base"`
	// Akk is the version of akk that ran the qualification.
	Akk string `json:"akk"`
	// Passed, Failed and NotReached are surface ids, each in one list at
	// most: a surface read exactly as the base reads it with the recorded
	// effect; read differently; never drawn in the run.
	Passed     []string  `json:"passed,omitempty"`
	Failed     []string  `json:"failed,omitempty"`
	NotReached []string  `json:"not_reached,omitempty"`
	At         time.Time `json:"at"`
}

const qualificationSchema = 1

// ErrQualification: a record that cannot be a qualification.
var ErrQualification = errors.New("store: invalid qualification")

// Passes reports whether the qualification passed surface.
func (q Qualification) Passes(surface string) bool { return slices.Contains(q.Passed, surface) }

func (q *Qualification) check() error {
	switch {
	case q.Agent == "" || q.Version == "" || q.Base == "":
		return fmt.Errorf("%w: agent, version and base are required", ErrQualification)
	case len(q.Identity) != 64:
		return fmt.Errorf("%w: identity %q is not a SHA-256", ErrQualification, q.Identity)
	case q.At.IsZero():
		return fmt.Errorf("%w: no time", ErrQualification)
	}
	seen := map[string]string{}
	for name, list := range map[string][]string{"passed": q.Passed, "failed": q.Failed, "not_reached": q.NotReached} {
		for _, s := range list {
			if s == "" {
				return fmt.Errorf("%w: an empty surface id in %s", ErrQualification, name)
			}
			if other, dup := seen[s]; dup {
				return fmt.Errorf("%w: surface %s is both %s and %s", ErrQualification, s, other, name)
			}
			seen[s] = name
		}
	}
	return nil
}

// PutQualification writes q (synced): it replaces the record of the same
// agent binary, whose latest run is the one that counts.
func (s *Store) PutQualification(q Qualification) error {
	q.V = qualificationSchema
	q.Passed, q.Failed, q.NotReached = sorted(q.Passed), sorted(q.Failed), sorted(q.NotReached)
	if err := q.check(); err != nil {
		return err
	}
	data, err := encode(q)
	if err != nil {
		return err
	}
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	_ = b.Set(qualificationKey(q.Agent, q.Identity), data, nil)
	if err := s.commit(b, pebble.Sync); err != nil {
		return fmt.Errorf("store: qualification %s@%s: %w", q.Agent, q.Version, err)
	}
	return nil
}

// Qualification reads the record of agent's binary with identity
// (ErrNotFound: it was never qualified).
func (s *Store) Qualification(agent, identity string) (Qualification, error) {
	return getAs[Qualification](s, qualificationKey(agent, identity), qualificationSchema, "qualification "+agent+"@"+identity)
}

// Qualifications lists every record, by agent and identity.
func (s *Store) Qualifications() ([]Qualification, error) {
	return listAs[Qualification](s, kindQualification, qualificationSchema, nil)
}

func sorted(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := slices.Clone(ss)
	slices.Sort(out)
	return out
}
