package watchers

import (
	"fmt"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// lineFormat is a registered line-file format of an agent; anything else
// is an error wrapping ErrOptions.
func lineFormat(a evidence.Agent) (evidence.Format, error) {
	f, ok := evidence.FormatOf(a)
	switch {
	case !ok:
		return f, fmt.Errorf("%w: unknown agent %q", ErrOptions, a)
	case f.NewParser == nil:
		return f, fmt.Errorf("%w: %q keeps its records in a store, not line files", ErrOptions, a)
	}
	return f, nil
}
