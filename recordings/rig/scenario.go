package rig

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Scenario is one short, scripted session with an agent: what the fake
// model answers, and the keys, waits and markers that drive the agent.
type Scenario struct {
	Name   string
	Agent  string
	Width  int      // 0: 120
	Height int      // 0: 40
	Only   []string // versions it applies to; nil: all
	// AgentMode: leave the permission mode to the version's own default
	// instead of the manual mode the agent's World pins (a version whose
	// default runs commands without a prompt).
	AgentMode bool
	// Model is the model the agent's World configures for a version (""
	// or nil: the agent's own choice).
	Model func(version string) string
	// FallbackTools: Model is an id the agent has no metadata for, so it
	// offers its fallback tools on every version; the script calls them.
	FallbackTools bool
	Script        func(version string) fakemodel.Script
	// Drive drives the agent through its steps (see Steps).
	Drive func(s *Steps)
	// Setup, when set, changes the run's world after the agent's World is
	// written and before the agent starts: files under h (an untrusted
	// project, an MCP server, plan mode) and the agent's environment (it
	// returns env, changed or not). url is the fake model's.
	Setup func(h *Home, version, url string, env []string) ([]string, error)
	// PaneBG, when set, is the pane's background colour ("#ffffff"), set
	// before the agent starts: tmux answers the agent's OSC 11 query with
	// it (an agent may pick its light or dark palette from it).
	PaneBG string
}

// Supports reports whether the scenario applies to version.
func (s *Scenario) Supports(version string) bool {
	return s.Only == nil || slices.Contains(s.Only, version)
}

func (s *Scenario) size() (int, int) {
	w, h := s.Width, s.Height
	if w == 0 {
		w = 120
	}
	if h == 0 {
		h = 40
	}
	return w, h
}

// Size is the pane's size, width and height, the defaults filled in.
func (s *Scenario) Size() (int, int) { return s.size() }

// VersionAtLeast reports whether version v (major.minor.patch, numeric)
// is at least min; a part that is not a number compares as 0.
func VersionAtLeast(v, min string) bool {
	a, b := strings.Split(v, "."), strings.Split(min, ".")
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y int
		if i < len(a) {
			x, _ = strconv.Atoi(a[i])
		}
		if i < len(b) {
			y, _ = strconv.Atoi(b[i])
		}
		if x != y {
			return x > y
		}
	}
	return true
}

// WithKeywords is script with keywords first (they win over the script's
// own for a prompt that holds both words).
func WithKeywords(script func(string) fakemodel.Script, keywords ...fakemodel.Keyword) func(string) fakemodel.Script {
	return func(version string) fakemodel.Script {
		s := script(version)
		s.Keywords = append(append([]fakemodel.Keyword(nil), keywords...), s.Keywords...)
		return s
	}
}
