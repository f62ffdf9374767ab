package dispatch

import "time"

// OfferEdit is what a test may change of a current offer: stand-ins for
// what it cannot change in a live process (its cwd, its incarnation) and
// for time passing. Editing can only make an offer disagree with the live
// terminal, which the recheck refuses.
type OfferEdit struct {
	Made, Expires    time.Time
	Cwd, Incarnation string
}

// EditOffers applies fn to every current offer (tests of the refusals in
// the tmux tier; production code never calls it).
func (d *Dispatcher) EditOffers(fn func(*OfferEdit)) {
	b := &d.offers
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, o := range b.offers {
		e := OfferEdit{Made: o.made, Expires: o.expires, Cwd: o.cwd, Incarnation: o.incarnation}
		fn(&e)
		o.made, o.expires, o.cwd, o.incarnation = e.Made, e.Expires, e.Cwd, e.Incarnation
	}
}

// ForgetOffers drops every offer, as a restarted daemon has none.
func (d *Dispatcher) ForgetOffers() {
	b := &d.offers
	b.mu.Lock()
	defer b.mu.Unlock()
	b.offers = nil
}
