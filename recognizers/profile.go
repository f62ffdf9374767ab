package recognizers

import (
	"sort"

	"github.com/agent-knock-knock/akk/contract"
)

// Profile is one agent version's closed screen grammar. It is a value:
// each exact version has its own, so an offer made under one version can
// never be taken under another (the version is part of every id).
type Profile struct {
	Agent   string
	Version string
	// Exact is false for the generic profile of an unknown version: its
	// states come with a compatibility warning and every interaction is
	// manual_required.
	Exact   bool
	grammar Grammar
	// qual, set by Qualified, limits an exact reading to the surfaces a
	// qualification passed.
	qual *qualification
}

// Grammar is what a profile knows of its agent's screens. Each agent's
// screen package (agents/<name>/screen) implements it with a value per
// version, built from the kit this package exports (Grid, StyleSpec,
// MenuLayout, StatusLayout, ChoiceSpec, NewReason...), and registers it
// (Register).
type Grammar interface {
	// Recognize reads g into out, which arrives with the profile's
	// identity, ScreenUnknown and ComposerAbsent. It sets the state, the
	// prompt, its region and its ChoiceSpecs; the engine adds the
	// fingerprint, the secret reasons, the generic profile's limits and
	// the projection. It must not keep g or write anything but out.
	Recognize(g *Grid, out *Recognition)
}

// ID names the profile: "claude@2.1.267", or "claude@generic".
func (p Profile) ID() string {
	switch {
	case !p.Exact:
		return p.Agent + "@generic"
	case p.qual != nil:
		return p.Agent + "@" + p.Version + "~" + p.qual.Base + "#" + p.qual.Tag
	}
	return p.Agent + "@" + p.Version
}

// Lookup returns the exact profile registered for agent@version, or the
// agent's generic profile. The lookup is exact: 2.1.268 is not 2.1.267.
func Lookup(agent, version string) Profile {
	if p, ok := registry[agent+"@"+version]; ok {
		return p
	}
	return Profile{Agent: agent, Version: version, grammar: generic[agent]}
}

// Profiles lists the exact profiles, by agent and version.
func Profiles() []Profile {
	out := make([]Profile, 0, len(registry))
	for _, p := range registry {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Agent != out[j].Agent {
			return out[i].Agent < out[j].Agent
		}
		return VersionLess(out[i].Version, out[j].Version)
	})
	return out
}

// VersionLess orders dotted numeric versions ("2.1.9" before "2.1.10").
func VersionLess(a, b string) bool {
	for a != "" || b != "" {
		var na, nb int
		na, a = leadingInt(a)
		nb, b = leadingInt(b)
		if na != nb {
			return na < nb
		}
	}
	return false
}

func leadingInt(s string) (int, string) {
	n, i := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
	} else if i == 0 && s != "" {
		i = len(s) // not numeric: compare as equal from here on
	}
	return n, s[i:]
}

// genericGrammar reads a screen with each of its grammars and keeps the
// best reading: one that parses without a manual reason, else the first
// that knows the state, else the newest's. A version between or after the
// known ones usually draws like one of them.
type genericGrammar []Grammar

func (gg genericGrammar) Recognize(g *Grid, out *Recognition) {
	ReadBest(g, out, gg, func(i int) string { return grammarName(gg[i]) + " (generic)" })
}

// ReadBest reads a screen with each grammar in turn and keeps the first
// reading that proves its shape, else the first that knows the state,
// else the first one's. section names a grammar's trace section ("": no
// new section).
func ReadBest(g *Grid, out *Recognition, grammars []Grammar, section func(i int) string) {
	blank := *out
	best, score := blank, -1
	for i, gr := range grammars {
		if g.trace != nil {
			if name := section(i); name != "" {
				g.trace.begin(name)
			}
		}
		try := blank
		gr.Recognize(g, &try)
		s := 0
		if try.ScreenState != contract.ScreenUnknown {
			s = 1
			if !manual(try.Reasons) {
				s = 2
			}
		}
		if s > score {
			best, score = try, s
		}
		if s == 2 {
			break
		}
	}
	*out = best
}

// manual reports a reason that the reading failed to prove the screen's
// shape. secret_input is about what the question asks, not its shape: the
// grammar that reads a masked editor is still the right reading.
func manual(rs []Reason) bool {
	for _, r := range rs {
		if !isNote(r.Code) && r.Code != ReasonSecretInput {
			return true
		}
	}
	return false
}
