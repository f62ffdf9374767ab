package recognizers

import (
	"errors"
	"fmt"
	"slices"
)

// Qualification is what a qualification run granted one agent binary
// (issue 41; the record is store.Qualification): its screens are read
// with the grammar of the pinned version Base, and a reading is exact
// only on a surface in Passed. Every other surface is read the same way
// but proves nothing: its interactions are manual_required
// (unqualified_surface) and no draft, list or panel of it is proven.
type Qualification struct {
	// Base is the pinned version whose profile read the binary's screens.
	Base string
	// Tag names this qualification of this binary (its identity and its
	// record): it is part of the profile's id, so an offer made under one
	// qualification can never be taken under another, even of the same
	// binary.
	Tag    string
	Passed []Surface
	// Judged is how many surfaces the qualification judged (passed,
	// failed or not reached), for "qualified on 3/7 surfaces".
	Judged int
}

type qualification struct {
	Qualification
}

func (q *qualification) passes(s Surface) bool {
	return s != SurfaceNone && slices.Contains(q.Passed, s)
}

// ErrNoBase: a qualification names a base version with no exact profile.
var ErrNoBase = errors.New("recognizers: no exact profile for the qualification's base")

// Qualified returns the profile of agent@version, a binary that is not
// pinned, under q: the base version's grammar, its id naming the version,
// the base and the tag. A base that is not an exact profile is an error:
// a record made by another akk may name a version this one no longer
// pins, and then nothing is qualified.
func Qualified(agent, version string, q Qualification) (Profile, error) {
	base, ok := registry[agent+"@"+q.Base]
	if !ok {
		return Profile{}, fmt.Errorf("%w: %s@%s", ErrNoBase, agent, q.Base)
	}
	if q.Tag == "" {
		return Profile{}, fmt.Errorf("recognizers: qualification of %s@%s has no tag", agent, version)
	}
	q.Passed = slices.Clone(q.Passed)
	return Profile{Agent: agent, Version: version, Exact: true, grammar: base.grammar, qual: &qualification{q}}, nil
}

// Qualified reports the qualification p reads under (ok false for a
// pinned or generic profile).
func (p Profile) Qualified() (Qualification, bool) {
	if p.qual == nil {
		return Qualification{}, false
	}
	return p.qual.Qualification, true
}
