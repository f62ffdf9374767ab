package supervisor

import (
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/recognizers"
)

// Offers (DESIGN invariant 7, seed 000 "Private authority"): a fresh
// Status by a controller of a terminal showing a pending interaction
// records what that controller saw — the exact styled prompt fingerprint,
// the semantic-id-to-key plan, the process incarnation, the binding
// generation, the profile and the cwd. A response is authorised only by
// its own controller's offer for the same interaction, and only while the
// live screen still shows exactly that prompt. Offers live in the daemon's
// memory only: a restarted daemon has none, so a controller must look
// again before acting (the safe side).

// offerTTL is how long an offer stands without a live recheck; after it a
// response still proceeds only if the recapture matches (it always must),
// and after offerHorizon it is refused outright.
const (
	offerTTL     = 60 * time.Second
	offerHorizon = 10 * time.Minute
)

type offer struct {
	controller    string
	terminalID    string
	interactionID string
	kind          string
	fp            [32]byte
	fence         string
	plan          *recognizers.Plan
	incarnation   string
	generation    uint64
	profileID     string
	cwd           string
	made          time.Time
	expires       time.Time
}

type offerKey struct{ controller, terminal string }

// offerBook holds the current offer per controller and terminal: a newer
// Status replaces the older offer.
type offerBook struct {
	mu     sync.Mutex
	offers map[offerKey]*offer
}

func (b *offerBook) put(o *offer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.offers == nil {
		b.offers = map[offerKey]*offer{}
	}
	// Every MCP session is a controller of its own: drop what is past
	// the horizon before the book grows without bound.
	if len(b.offers) >= maxOffers {
		b.sweepLocked(o.made)
	}
	b.offers[offerKey{o.controller, o.terminalID}] = o
}

// maxOffers is the book's size past which old offers are swept.
const maxOffers = 256

func (b *offerBook) get(controller, terminal string) *offer {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.offers[offerKey{controller, terminal}]
}

// consume removes o if it is still the current offer.
func (b *offerBook) consume(o *offer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := offerKey{o.controller, o.terminalID}
	if b.offers[k] == o {
		delete(b.offers, k)
	}
}

// sweepLocked drops offers past the horizon. Called with mu held.
func (b *offerBook) sweepLocked(now time.Time) {
	for k, o := range b.offers {
		if now.Sub(o.made) > offerHorizon {
			delete(b.offers, k)
		}
	}
}

// makeOffer records what controller sees now, if the screen shows an
// interaction (a manual_required one too: answering it is then refused as
// manual_required with its reasons, not as "no offer"). Called with mu
// held.
func (m *paneMonitor) makeOffer(controller string, now time.Time) *offer {
	r := m.rec
	if controller == "" || r.Interaction == nil || m.ident == nil {
		return nil
	}
	o := &offer{controller: controller, terminalID: m.id, interactionID: r.Interaction.InteractionID,
		kind: string(r.Interaction.Kind), fp: r.fp, fence: m.currentFenceKey(), plan: r.plan,
		incarnation: m.ident.Incarnation(), generation: m.bind.Generation, profileID: r.profileID,
		cwd: m.ident.Cwd, made: now, expires: now.Add(offerTTL)}
	m.s.offers.put(o)
	return o
}
