package api

// Qualification (issue 41): the daemon runs `akk qualify` of an agent
// binary it does not pin, in the background, one at a time, offline (a
// private tmux server, a throw-away HOME, the fake model on 127.0.0.1),
// and from its record on acts on that exact binary on the surfaces it
// passed. Progress and the result are events.

// Operation and events of qualification.
const (
	OpQualify = "qualify"
	// EventQualifyScenario: one scenario of a run ended (attrs: run,
	// scenario, findings "surface outcome, ...", error).
	EventQualifyScenario = "qualify.scenario"
	// EventQualifyDone: a run ended (attrs: run, agent, version, base,
	// identity, passed, failed, not_reached, error). A run that ended in
	// an error stored nothing.
	EventQualifyDone = "qualify.done"
	// ReasonQualifyBusy: a qualification runs already.
	ReasonQualifyBusy = "qualification_running"
)

// QualifyRequest is POST /v1/qualify: the binary running in TerminalID,
// or Agent's program at Binary (a path on the daemon's machine).
type QualifyRequest struct {
	TerminalID string `json:"terminal_id,omitempty"`
	Binary     string `json:"binary,omitempty"`
	// Base is the pinned version whose profile reads it ("": the
	// nearest); Full runs every scenario recorded for it.
	Base string `json:"base,omitempty"`
	Full bool   `json:"full,omitempty"`
}

// QualifyStarted says what a qualification run is doing: follow its
// events (Run in their attrs) for progress and the result.
type QualifyStarted struct {
	Run     string `json:"run"`
	Agent   string `json:"agent"`
	Version string `json:"version"`
	Binary  string `json:"binary"`
	Base    string `json:"base"`
	// Scenarios is how many scenarios it runs.
	Scenarios int `json:"scenarios"`
}
