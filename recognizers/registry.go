package recognizers

// The registry is one table: agent@exact-version -> profile, filled by
// each agent's screen grammars (its screen package) from an init
// function, as database/sql's drivers register themselves. The engine
// names no agent; whatever links an agent's screen package (akk through
// agents/registry, a test through a blank import) gets its profiles.

// Grammars is what one agent's screen package registers.
type Grammars struct {
	Agent string
	// Versions are the exact versions the agent's recordings show.
	Versions []Version
	// Generic is how an unknown version of the agent is read: with each
	// grammar in turn, newest first, keeping the first that knows the
	// screen. Its interactions are all manual_required (unknown_version).
	Generic []Grammar
}

// Version is one exact version's grammar and the native surfaces its
// recordings show the whole way; nil where they do not (those actions are
// refused before input).
type Version struct {
	Version string
	Grammar Grammar
	Threads *ThreadProfile
	Inspect *InspectProfile
	Model   *ModelControlProfile
}

var (
	// registry is the registration table: agent@exact-version -> profile.
	registry = map[string]Profile{}
	// generic is each agent's reading of an unknown version.
	generic = map[string]Grammar{}
)

// Register adds an agent's grammars to the table. It is called from init
// functions only (the table is read without a lock), and panics when the
// agent registered before or lists a version twice: two grammars for one
// version would make an offer's profile ambiguous.
func Register(gs Grammars) {
	if _, dup := generic[gs.Agent]; dup || gs.Agent == "" {
		panic("recognizers: Register called twice for agent " + gs.Agent)
	}
	generic[gs.Agent] = genericGrammar(gs.Generic)
	for _, v := range gs.Versions {
		id := gs.Agent + "@" + v.Version
		if _, dup := registry[id]; dup {
			panic("recognizers: Register lists " + id + " twice")
		}
		registry[id] = Profile{Agent: gs.Agent, Version: v.Version, Exact: true, grammar: v.Grammar}
		if v.Threads != nil {
			threadProfiles[id] = *v.Threads
		}
		if v.Inspect != nil {
			inspectProfiles[id] = *v.Inspect
		}
		if v.Model != nil {
			modelControls[id] = *v.Model
		}
	}
}
