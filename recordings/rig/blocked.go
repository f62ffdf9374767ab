package rig

import (
	"fmt"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Blocked surfaces: the fake model answers a prompt with an API error
// (fakemodel.Failure) and the agent shows it once it stops retrying. Each
// scenario marks the error screen "blocked", then sends a prompt that
// gets through and marks the idle screen after it (the error line is
// history then).
//
// What the agents do (measured with these scenarios; see each case):
// Claude Code retries 429 and 5xx itself (CLAUDE_CODE_MAX_RETRIES,
// default 10, backoff 0.5 s doubling to 32 s, at least retry-after) and
// honours x-should-retry: false; 529 overloaded stops after 3 attempts.
// Codex retries per provider (request_max_retries, stream_max_retries):
// the rig's config sets both to 0, so it shows the first error.
type blockedCase struct {
	name  string
	agent string
	// word is the keyword of the failing prompt; fail the failure.
	word string
	fail fakemodel.Failure
	// failures is how many failed requests the agent makes before it
	// shows the error (its retries included).
	failures int
	// anchors are texts of the error screen.
	anchors []string
	// retry: the agent gets through after fail.Times failures by itself
	// (the marker is at its retry line, "working"), instead of showing
	// the error.
	retry bool
}

const blockedReply = "Through after the API error."

var blockedCases = []blockedCase{
	// x-should-retry: false makes Claude Code show the first 429 (its
	// own retries would take ~160 s: 10 attempts, backoff to 32 s).
	{name: "api-error-429", agent: "claude", word: "rate-limit", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 30, ShouldRetry: "false"},
		anchors: []string{"API Error: 429"}},
	{name: "api-error-overloaded", agent: "claude", word: "overloaded", failures: 3,
		fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded, Times: 10},
		anchors: []string{"Repeated 529 Overloaded errors"}},
	{name: "api-retry-429", agent: "claude", word: "retry-limit", failures: 1, retry: true,
		fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 4, Times: 2},
		anchors: []string{"Retrying in"}},
	{name: "api-error-429", agent: "codex", word: "rate-limit", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 2},
		anchors: []string{"429"}},
	{name: "api-error-overloaded", agent: "codex", word: "overloaded", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded},
		anchors: []string{"503"}},
	{name: "api-error-overloaded-stream", agent: "codex", word: "overloaded", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded, InStream: true},
		anchors: []string{"capacity"}},
	{name: "api-usage-limit", agent: "codex", word: "usage-limit", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailUsageLimit, ResetIn: 2*time.Hour + 17*time.Minute},
		anchors: []string{"usage limit"}},
}

// script is the agent's corpus script with the case's failing keyword
// first.
func (c blockedCase) script(version string) fakemodel.Script {
	s := Script(c.agent, version)
	f := c.fail
	s.Keywords = append([]fakemodel.Keyword{{Word: c.word, Reply: fakemodel.Reply{Text: blockedReply}, Fail: &f}}, s.Keywords...)
	return s
}

func (c blockedCase) drive(d *Driver) error {
	s := &sticky{d: d}
	idle, prompt := claudeIdle, claudePrompt
	if c.agent == "codex" {
		idle, prompt = codexIdle, codexPrompt
	}
	s.do(func() error { return idle(d) })
	s.do(func() error { return prompt(d, c.word+" please") })
	for i := 1; i <= c.failures; i++ {
		s.do(func() error {
			_, err := d.Request(fmt.Sprintf("failure %d", i), func(r fakemodel.Request) bool { return r.Status != 0 })
			return err
		})
	}
	s.screen(c.anchors...)
	if c.retry {
		// The spinner animates: marked at once, as the working scenario.
		s.do(func() error { return d.Mark("working", recordings.MarkerState{Composer: "empty"}) })
		s.do(func() error {
			_, err := d.Request("the reply after the retries", func(r fakemodel.Request) bool { return r.Status == 0 })
			return err
		})
	} else {
		s.do(func() error { return idle(d) })
		s.mark("blocked", recordings.MarkerState{Composer: "empty"})
		s.do(func() error { return prompt(d, "hello again") })
		s.do(func() error {
			_, err := d.Request("the next prompt", func(r fakemodel.Request) bool { return r.Status == 0 })
			return err
		})
	}
	s.do(func() error { return d.Quiet(time.Second) })
	s.do(func() error { return idle(d) })
	s.mark("idle", recordings.MarkerState{Composer: "empty"})
	return s.err
}

func init() {
	for _, c := range blockedCases {
		register(&Scenario{Name: c.name, Agent: c.agent, Script: c.script, Drive: c.drive})
	}
}
