package dispatch

import (
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
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

// OfferTTL is the expiry a Status shows. An elapsed expiry does not say
// the prompt died (seed 000): a response after it proceeds when the live
// recapture matches, which it always must, however old the offer.
// OfferHorizon is the age past which a full book sweeps an offer (its
// controller then gets no_offer and looks again).
const (
	OfferTTL     = 60 * time.Second
	OfferHorizon = 10 * time.Minute
)

type offer struct {
	controller    string
	terminalID    string
	interactionID string
	kind          contract.Kind
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
		if now.Sub(o.made) > OfferHorizon {
			delete(b.offers, k)
		}
	}
}

// MakeOffer records what controller sees in v (a Status's view), if the
// screen shows an interaction (a manual_required one too: answering it is
// then refused as manual_required with its reasons, not as "no offer").
// It returns when the offer expires.
func (d *Dispatcher) MakeOffer(controller string, v terminal.View) (expires time.Time, ok bool) {
	r := v.Rec
	if controller == "" || r.Interaction == nil || v.Ident == nil {
		return time.Time{}, false
	}
	now := d.cfg.Now()
	o := &offer{controller: controller, terminalID: v.ID, interactionID: r.Interaction.InteractionID,
		kind: r.Interaction.Kind, fp: r.Fingerprint, fence: v.CurrentFence, plan: r.Plan,
		incarnation: v.Ident.Incarnation(), generation: v.Bind.Generation, profileID: r.ProfileID,
		cwd: v.Ident.Cwd, made: now, expires: now.Add(OfferTTL)}
	d.offers.put(o)
	return o.expires, true
}
