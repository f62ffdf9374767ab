package store

import (
	"errors"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Records of the dispatch transaction (DESIGN invariants 3-6). A
// reservation is written with pebble.Sync before any input it guards; its
// stage only moves forward, and a restarted daemon ends every open one as
// uncertain (never retried): input may have landed.

// Reservation stages.
const (
	StageReserved  = "reserved"   // written before input; nothing sent yet, or unknown
	StageInputSent = "input_sent" // tmux took the input; the postcondition is unproven
	StageDone      = "done"       // the postcondition was proven
	StageRejected  = "rejected"   // refused before any input
	StageUncertain = "uncertain"  // input may have landed, unproven: never retried
)

// Reservation is one mutation's durable record and, once final, its audit
// receipt. It never holds raw answer or task text, keys or fingerprints:
// only semantic ids, lengths and digests for fencing.
type Reservation struct {
	V             int    `json:"v"`
	ID            string `json:"id"` // rcpt_...
	Op            string `json:"op"` // approve, respond_interaction, send, cancel
	Controller    string `json:"controller"`
	TerminalID    string `json:"terminal_id"`
	TurnID        string `json:"turn_id,omitempty"`
	InteractionID string `json:"interaction_id,omitempty"`
	Choice        string `json:"choice,omitempty"` // decision or option id
	TextLen       int    `json:"text_len,omitempty"`
	Incarnation   string `json:"incarnation,omitempty"`
	BindingGen    uint64 `json:"binding_generation,omitempty"`
	Fence         string `json:"fence,omitempty"` // the fence key this consumes
	Stage         string `json:"stage"`
	Reason        string `json:"reason,omitempty"`
	Evidence      string `json:"evidence,omitempty"`
	// Private: an inspection's reservation, kept for crash safety only: it
	// writes no reserved or receipt event (seed 003: native inspection
	// creates no dispatch receipt).
	Private bool      `json:"private,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// Final reports whether the reservation has reached a final stage.
func (r Reservation) Final() bool {
	return r.Stage == StageDone || r.Stage == StageRejected || r.Stage == StageUncertain
}

// Fence marks a consumed prompt forever (invariant 6).
type Fence struct {
	V           int       `json:"v"`
	Key         string    `json:"key"` // hex digest of fingerprint + binding generation + durable evidence
	Reservation string    `json:"reservation"`
	TerminalID  string    `json:"terminal_id"`
	Created     time.Time `json:"created"`
}

// Turn states.
const (
	TurnReserved  = "reserved"  // send reserved, text not yet injected
	TurnSubmitted = "submitted" // text and Enter went in; acceptance unproven
	TurnAccepted  = "accepted"  // the rollout/transcript shows the request
	TurnWorking   = "working"
	TurnDone      = "done"
	TurnFailed    = "failed"
	TurnCancelled = "cancelled"
	TurnUncertain = "uncertain"
	TurnClosed    = "closed"
)

// Turn is one managed dispatch (seed 003): a send and everything the
// monitors learn about it until it settles.
type Turn struct {
	V          int    `json:"v"`
	ID         string `json:"id"`         // turn_...
	SessionID  string `json:"session_id"` // ses_...: the native context
	TerminalID string `json:"terminal_id"`
	Controller string `json:"controller"`
	Agent      string `json:"agent"`
	Version    string `json:"version"`
	// RequestHash is the SHA-256 (hex) of the request text with trailing
	// white space trimmed (watchers.PromptHash): acceptance is
	// proven by finding that text in the transcript after Anchor; the text
	// itself is not kept.
	RequestHash string `json:"request_hash"`
	RequestLen  int    `json:"request_len"`
	MessageID   string `json:"message_id,omitempty"`
	Reservation string `json:"reservation"`
	BindingGen  uint64 `json:"binding_generation"`
	Incarnation string `json:"incarnation"`
	// NativeSession and Anchor place the turn in the native file: the
	// file's path and size before the send.
	NativeSession string `json:"native_session,omitempty"`
	NativePath    string `json:"native_path,omitempty"`
	// FileDev/FileIno identify the anchored file; NativeTurn is the
	// agent's own turn id once the file accepted the request.
	FileDev    uint64    `json:"file_dev,omitempty"`
	FileIno    uint64    `json:"file_ino,omitempty"`
	NativeTurn string    `json:"native_turn,omitempty"`
	Anchor     int64     `json:"anchor"`
	State      string    `json:"state"`
	Reason     string    `json:"reason,omitempty"`
	Management string    `json:"management_state,omitempty"` // managed, closed
	Created    time.Time `json:"created"`
	Updated    time.Time `json:"updated"`
	Accepted   time.Time `json:"accepted,omitzero"`
	Settled    time.Time `json:"settled,omitzero"`
	// EndedWithText: the native turn that settled it ended with the
	// agent's own text, so an answer (respond with a request) may
	// continue it under the same id.
	EndedWithText bool `json:"ended_with_text,omitempty"`
	// SettledEnd is the native file's offset just past the line that
	// ended the turn: a prompt the file took after it (a person's) means
	// the answer would no longer follow the agent's last words.
	SettledEnd int64 `json:"settled_end,omitempty"`
	// Round counts the answers that continued it (0: its first send);
	// Resumed is when the last one was reserved (its hard deadline
	// counts from there).
	Round   int       `json:"round,omitempty"`
	Resumed time.Time `json:"resumed,omitzero"`
}

const (
	reservationSchema = 1
	fenceSchema       = 1
	turnSchema        = 1
)

// Reservation reads one reservation (ErrNotFound when none).
func (s *Store) Reservation(id string) (Reservation, error) {
	k := reservationKey(id)
	return getAs[Reservation](s, k, reservationSchema, string(k))
}

// Reservations lists every reservation in id order.
func (s *Store) Reservations() ([]Reservation, error) {
	return listAs[Reservation](s, kindReservation, reservationSchema, nil)
}

// Fenced reports whether a prompt's fence key was consumed.
func (s *Store) Fenced(key string) (Fence, bool, error) {
	k := fenceKey(key)
	f, err := getAs[Fence](s, k, fenceSchema, string(k))
	if errors.Is(err, ErrNotFound) {
		return Fence{}, false, nil
	}
	return f, err == nil, err
}

// Turn reads one managed Turn (ErrNotFound when none).
func (s *Store) Turn(id string) (Turn, error) {
	k := turnKey(id)
	return getAs[Turn](s, k, turnSchema, string(k))
}

// Turns lists every Turn in id order.
func (s *Store) Turns() ([]Turn, error) {
	return listAs[Turn](s, kindTurn, turnSchema, nil)
}

// putDispatch adds the change's dispatch records to batch b.
func (c *Change) putDispatch(b interface {
	Set(k, v []byte, _ *pebble.WriteOptions) error
}) []error {
	var errs []error
	put := func(k []byte, rec any) {
		v, err := encode(rec)
		errs = append(errs, err, b.Set(k, v, nil))
	}
	for _, r := range c.Reservations {
		r.V = reservationSchema
		put(reservationKey(r.ID), r)
	}
	for _, f := range c.Fences {
		f.V = fenceSchema
		put(fenceKey(f.Key), f)
	}
	for _, t := range c.Turns {
		t.V = turnSchema
		put(turnKey(t.ID), t)
	}
	return errs
}
