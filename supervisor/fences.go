package supervisor

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Fences (DESIGN invariant 6): a prompt akk answered is never answered
// again. Its fence key digests the terminal, the prompt's styled fingerprint, the
// binding generation and the newest durable tool call id of the bound
// transcript/rollout. A prompt that comes back byte for byte with no new
// durable evidence has the same key: it is shown as manual_required
// (repeated_prompt_unproven), because nothing proves it is a new question
// rather than the old one still on screen.

// reasonRepeatedPrompt is the manual_required reason of a fenced prompt.
const reasonRepeatedPrompt = "repeated_prompt_unproven"

func fenceKeyOf(terminal string, fp [32]byte, generation uint64, lastCall string) string {
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
func (m *paneMonitor) currentFenceKey() string {
	return fenceKeyOf(m.id, m.rec.fp, m.bind.Generation, m.bind.LastCall)
}

// applyFence turns a pending interaction whose prompt was consumed into
// manual_required, and drops its plan. The store is read once per key.
// A store error counts as fenced: zero input is the safe side. Called
// with mu held.
func (m *paneMonitor) applyFence() {
	in := m.rec.Interaction
	if in == nil || in.State != "pending" {
		return
	}
	key := m.currentFenceKey()
	if key != m.fenceKey {
		_, fenced, err := m.s.st.Fenced(key)
		if err != nil {
			m.lg.Warn("read fence", "err", err)
			fenced = true
		}
		m.fenceKey, m.fenced = key, fenced
	}
	if !m.fenced {
		return
	}
	cp := *in
	cp.State = "manual_required"
	cp.Reasons = append(append([]string(nil), in.Reasons...), reasonRepeatedPrompt)
	cp.Decisions = nil
	m.rec.Interaction = &cp
	m.rec.plan = nil
}
