package qualify

import (
	"runtime/debug"
	"time"

	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
)

// Record is the store's record of the report, made at. A surface read
// exactly but answered only with native keys akk never sends proves no
// effect of akk's: it is stored as not reached.
func (r *Report) Record(at time.Time) store.Qualification {
	names := func(sets ...[]recognizers.Surface) []string {
		var out []string
		for _, ss := range sets {
			for _, s := range ss {
				out = append(out, string(s))
			}
		}
		return out
	}
	return store.Qualification{Agent: r.Agent, Version: r.Version, Identity: r.Identity, Base: r.Base,
		Akk: AkkVersion(), Passed: names(r.Outcomes(Passed)), Failed: names(r.Outcomes(Failed)),
		NotReached: names(r.Outcomes(NotReached), r.Outcomes(ReadOnly)), At: at.UTC()}
}

// AkkVersion is the version akk was built as ("(devel)" from a checkout),
// with its VCS revision when the build recorded one.
func AkkVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

// Count is how many scenarios cfg runs, or why it cannot run.
func Count(cfg Config) (int, error) {
	if _, err := baseProfile(cfg.Agent, cfg.Base); err != nil {
		return 0, err
	}
	names, err := scenarioSet(cfg, cfg.Base)
	return len(names), err
}
