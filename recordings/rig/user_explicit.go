package rig

import (
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// The keys of a user-explicit send (a person tells akk to deliver a task
// into a composer that holds a draft, or into a working agent), measured
// on the real binaries.
//
// The agents' files say which keys they have, as measured.

// The texts of the user-explicit scenarios: a draft the person leaves,
// a request sent over it, and the reply held back while they type.
const (
	DraftText   = "a draft that is not sent"
	RequestText = "hello there"
	UserSlow    = "This slow reply lets the user type while the agent works."
)

// UserScript is the agent's corpus script with "slow-task": a reply held
// back 15 s.
func UserScript(script func(string) fakemodel.Script) func(string) fakemodel.Script {
	return WithKeywords(script, fakemodel.Keyword{Word: "slow-task", Reply: fakemodel.Reply{Text: UserSlow, FirstDelay: 15 * time.Second}})
}

// MarkUnrecognized: mark the screens of these scenarios that today's
// recognizers misread (each Misread says how); off, they are logged and
// left out.
const MarkUnrecognized = false

// Misread is the marker of a screen the recognizers misread today:
// after the marker's own wait, marked with mark when MarkUnrecognized,
// else logged (at once) and left out.
func (s *Steps) Misread(misread, state string, e recordings.MarkerState, mark func(string, recordings.MarkerState)) {
	s.Pause(PasteGap) // as long as the marker's own wait
	if MarkUnrecognized {
		mark(state, e)
		return
	}
	s.d.lg.Info("rig: marker left out (the recognizers misread its screen)", "state", state, "misread", misread)
}
