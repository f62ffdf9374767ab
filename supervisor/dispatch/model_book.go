package dispatch

import (
	"strings"
	"sync"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/recognizers"
)

// modelOffer is a controller's last model catalog of a terminal
// (model_options), the only authority set_model accepts: private, in
// memory, for one set_model attempt within api.ModelCatalogTTL, on the
// same process and binding.
type modelOffer struct {
	cat         api.ModelCatalog
	rows        []recognizers.ModelRow // the list as drawn when read
	incarnation string
	generation  uint64
}

// modelBook holds each controller's last catalog of each terminal.
type modelBook struct {
	mu     sync.Mutex
	offers map[snapshotKey]modelOffer
}

func (b *modelBook) put(controller, terminalID string, o modelOffer, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.offers == nil {
		b.offers = map[snapshotKey]modelOffer{}
	}
	for k, old := range b.offers { // bounded: drop the expired
		if now.After(old.cat.ExpiresAt) {
			delete(b.offers, k)
		}
	}
	b.offers[snapshotKey{controller, terminalID}] = o
}

// take returns the controller's unexpired catalog of the terminal and
// removes it: one set_model attempt per catalog.
func (b *modelBook) take(controller, terminalID string, now time.Time) (modelOffer, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := snapshotKey{controller, terminalID}
	o, ok := b.offers[k]
	delete(b.offers, k)
	return o, ok && !now.After(o.cat.ExpiresAt)
}

// find is the catalog's model named model (exactly as listed, or with
// another case) and its index; effort is matched the same way.
func (o modelOffer) find(model, effort string) (int, string, bool) {
	for i, m := range o.cat.Models {
		if !strings.EqualFold(m.Model, model) {
			continue
		}
		if effort == "" && len(m.Efforts) == 0 {
			return i, "", true
		}
		for _, e := range m.Efforts {
			if strings.EqualFold(e, effort) {
				return i, e, true
			}
		}
		return i, "", false
	}
	return -1, "", false
}
