package terminal

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"

	"github.com/agent-knock-knock/akk/contract"
)

// Fences (DESIGN invariant 6): a prompt akk answered is never answered
// again. Its fence key digests the terminal, the prompt's styled fingerprint, the
// binding generation and the newest durable tool call id of the bound
// transcript/rollout. A prompt that comes back byte for byte with no new
// durable evidence has the same key: it is shown as manual_required
// (repeated_prompt_unproven), because nothing proves it is a new question
// rather than the old one still on screen.

// ReasonRepeatedPrompt is the manual_required reason of a fenced prompt.
const ReasonRepeatedPrompt = "repeated_prompt_unproven"

// ReasonInputMayHaveLanded is the reason of a prompt whose answer may have
// landed without proof (contract.StateResponseUncertain; seed 000: input
// may have occurred, so nothing is sent again).
const ReasonInputMayHaveLanded = "input_may_have_landed"

// FenceState is what the store says of a prompt's fence key.
type FenceState struct {
	Consumed  bool // a mutation answered the prompt (or may have)
	Uncertain bool // and its outcome is uncertain: the input may have landed
}

// FenceKey is the fence key of a prompt with fingerprint fp on terminal
// under binding generation and the bound file's newest tool call.
func FenceKey(terminal string, fp [32]byte, generation uint64, lastCall string) string {
	h := sha256.New()
	h.Write([]byte("akk fence v1\x00" + terminal + "\x00"))
	h.Write(fp[:])
	var g [8]byte
	binary.BigEndian.PutUint64(g[:], generation)
	h.Write(g[:])
	h.Write([]byte(lastCall))
	return hex.EncodeToString(h.Sum(nil))
}

// currentFenceKey is the fence key of the prompt on screen. Called with mu
// held.
func (m *Pane) currentFenceKey() string {
	return FenceKey(m.id, m.rec.Fingerprint, m.bind.Generation, m.bind.LastCall)
}

// applyFence turns a pending interaction whose prompt was consumed into
// manual_required (response_uncertain if its answer may have landed), and
// drops its plan. The store is read once per key.
// A store error counts as fenced: zero input is the safe side. Called
// with mu held.
func (m *Pane) applyFence() {
	in := m.rec.Interaction
	if in == nil || in.State != contract.StatePending {
		return
	}
	key := m.currentFenceKey()
	if key != m.fenceKey {
		st, err := m.env.Host.Fenced(key)
		if err != nil {
			m.lg.Warn("read fence", "err", err)
			st.Consumed = true
		}
		m.fenceKey, m.fenced, m.fenceUncertain = key, st.Consumed, st.Uncertain
	}
	if m.fenced {
		m.rec = Fence(m.rec, m.fenceUncertain)
	}
}

// Fence is r with its pending interaction shown as consumed, with no
// decisions and no plan: manual_required (ReasonRepeatedPrompt), or
// response_uncertain when the answer may have landed.
func Fence(r Recognition, uncertain bool) Recognition {
	in := r.Interaction
	if in == nil || in.State != contract.StatePending {
		return r
	}
	cp := *in
	cp.State, cp.Reasons = contract.StateManualRequired, append(append([]string(nil), in.Reasons...), ReasonRepeatedPrompt)
	if uncertain {
		cp.State, cp.Reasons = contract.StateResponseUncertain, append(append([]string(nil), in.Reasons...), ReasonInputMayHaveLanded)
	}
	cp.Decisions = nil
	r.Interaction = &cp
	r.Plan = nil
	return r
}
