package rig

import (
	"fmt"
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Blocked surfaces: the fake model answers a prompt with an API error
// (fakemodel.Failure) and the agent shows it once it stops retrying. Each
// scenario marks the error screen "blocked", then sends a prompt that
// gets through and marks the idle screen after it (the error is history
// then).
//
// What an agent does (its retries, its error screen) is in its file
// beside its cases.

// Blocked is one blocked surface: the fake model answers a prompt with an
// API error (fakemodel.Failure) and the agent shows it once it stops
// retrying. The scenario marks the error screen "blocked", then sends a
// prompt that gets through and marks the idle screen after it (the error
// is history then).
type Blocked struct {
	Name string
	// Word is the keyword of the failing prompt; Fail the failure.
	Word string
	Fail fakemodel.Failure
	// Failures is how many failed requests the agent makes before it
	// shows the error (its retries included).
	Failures int
	// Anchors are texts of the error screen.
	Anchors []string
	// Retry: the agent gets through after Fail.Times failures by itself
	// (the marker is at its retry line, "working"), instead of showing
	// the error.
	Retry bool
	Only  []string // versions it applies to; nil: all
}

// BlockedReply is the fake model's reply once a failing prompt gets
// through.
const BlockedReply = "Through after the API error."

// A Composer is how a scenario family reaches an agent's composer: its
// wait for the idle composer, and its prompt typed and submitted.
type Composer struct {
	Idle   func(s *Steps)
	Prompt func(s *Steps, text string)
}

// Scenario is the case as a scenario of agent, whose corpus script is
// script (the case's failing keyword goes first) and whose composer is c.
func (b Blocked) Scenario(agent string, script func(string) fakemodel.Script, c Composer) *Scenario {
	return &Scenario{Name: b.Name, Agent: agent, Only: b.Only,
		Script: func(version string) fakemodel.Script {
			f := b.Fail
			return WithKeywords(script, fakemodel.Keyword{Word: b.Word, Reply: fakemodel.Reply{Text: BlockedReply}, Fail: &f})(version)
		},
		Drive: func(s *Steps) { b.drive(s, c) }}
}

func (b Blocked) drive(s *Steps, c Composer) {
	c.Idle(s)
	c.Prompt(s, b.Word+" please")
	for i := 1; i <= b.Failures; i++ {
		s.Request(fmt.Sprintf("failure %d", i), func(r fakemodel.Request) bool { return r.Status != 0 })
	}
	s.Screen(b.Anchors...)
	if b.Retry {
		// The spinner animates: marked at once, as the working scenario.
		s.MarkNow("working", ComposerEmpty)
		s.Request("the reply after the retries", func(r fakemodel.Request) bool { return r.Status == 0 })
	} else {
		c.Idle(s)
		s.Mark("blocked", ComposerEmpty)
		c.Prompt(s, "hello again")
		s.Request("the next prompt", func(r fakemodel.Request) bool { return r.Status == 0 })
	}
	s.Quiet(time.Second)
	c.Idle(s)
	s.Mark("idle", ComposerEmpty)
}
