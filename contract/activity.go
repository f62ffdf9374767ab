package contract

// Activity is activity_state: the screen's and the agent's own record's
// word combined conservatively (seed 003: never mutation authority).
type Activity string

// Activity states.
const (
	ActivityAwaitingApproval Activity = "awaiting_approval"
	ActivityWorking          Activity = "working"
	ActivityIdle             Activity = "idle"
	ActivityUnknown          Activity = "unknown"
)

// Durable is durable_activity_state: what the agent's own record (its
// transcript, rollout or store) says of the turn.
type Durable string

// Durable activity states.
const (
	DurableWorking       Durable = "working"
	DurableIdle          Durable = "idle"
	DurableAwaitingInput Durable = "awaiting_input"
	DurableUnknown       Durable = "unknown"
	// DurableUnavailable: no record can be read (a replica, a plain pane,
	// files unreadable).
	DurableUnavailable Durable = "unavailable"
)

// Identity is native_identity_state: which native session the pane's
// process runs.
type Identity string

// Native identity states.
const (
	// IdentityResolved: exactly one native session, shown by its file.
	IdentityResolved Identity = "resolved"
	// IdentityAmbiguous: several candidates fit.
	IdentityAmbiguous Identity = "ambiguous"
	// IdentityVerifiedAbsent: everything that could hold the session was
	// read and none does (a fresh agent before its first prompt).
	IdentityVerifiedAbsent Identity = "verified_absent"
	// IdentityUnavailable: the evidence could not be read (process gone,
	// /proc or files unreadable, a rollout deleted while open).
	IdentityUnavailable Identity = "unavailable"
)
