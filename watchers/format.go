package watchers

import (
	"fmt"
	"sync"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// The formats the engine knows, by agent: each agent's folder registers
// its own (as database/sql drivers register themselves), so following,
// reading and accepting a record names no agent here.
var formats struct {
	sync.RWMutex
	by map[evidence.Agent]evidence.Format
}

// Register makes an agent's record format known. It panics on a format
// without a name or a reader, or a second format of one agent: both are
// programming errors in an agent's folder, found at start.
func Register(f evidence.Format) {
	if f.Agent == "" || (f.NewParser == nil) == (f.OpenStore == nil) {
		panic(fmt.Sprintf("watchers: format %q needs a name and exactly one of NewParser, OpenStore", f.Agent))
	}
	formats.Lock()
	defer formats.Unlock()
	if _, dup := formats.by[f.Agent]; dup {
		panic(fmt.Sprintf("watchers: format %q registered twice", f.Agent))
	}
	if formats.by == nil {
		formats.by = map[evidence.Agent]evidence.Format{}
	}
	formats.by[f.Agent] = f
}

// FormatOf is the registered format of an agent's records.
func FormatOf(a evidence.Agent) (evidence.Format, bool) {
	formats.RLock()
	defer formats.RUnlock()
	f, ok := formats.by[a]
	return f, ok
}

// lineFormat is a registered line-file format of an agent; anything else
// is an error wrapping ErrOptions.
func lineFormat(a evidence.Agent) (evidence.Format, error) {
	f, ok := FormatOf(a)
	switch {
	case !ok:
		return f, fmt.Errorf("%w: unknown agent %q", ErrOptions, a)
	case f.NewParser == nil:
		return f, fmt.Errorf("%w: %q keeps its records in a store, not line files", ErrOptions, a)
	}
	return f, nil
}
