package rig

import (
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings"
)

// Startup screens: what an agent shows before its composer when the
// machine is not set up as the rig's standard home is (an untrusted
// project, no login, a first run, an update waiting), and what it shows
// after a person pressed Esc in a running turn. Each scenario's Setup
// undoes one piece of the standard config; the Drive waits for the
// screen, marks it, and a person's key takes the agent on to its idle
// composer where the agent allows it (the mark before is what akk must
// read: blocked, never actionable). An agent's files say what it does
// not show, and why.

// Probe waits for any of the anchors (a screen the agent shows before its
// composer), lets it settle (settle: the agent's wait for a frame drawn
// in full) and marks it blocked, with the composer state it shows.
func (s *Steps) Probe(composer string, settle func(*Steps), anchors ...string) {
	s.ScreenAny(anchors...)
	settle(s)
	s.MarkNow("blocked", recordings.MarkerState{Composer: contract.Composer(composer)})
}
