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
// What the agents do, measured with these scenarios and by hand against
// the same fake (2026-12-02):
//
//   - Claude Code retries 429 and 5xx itself (CLAUDE_CODE_MAX_RETRIES,
//     default 10; backoff 0.5 s doubling to 32 s, up to 25% jitter, at
//     least retry-after). By hand on 2.1.267, a 429 with no retry-after
//     and no x-should-retry: requests at 0, +0.6, +1.7, +4.0, +8.9,
//     +18.5, +37.5, +75.7, +112.6, +146.1 s, then "Retrying in 5s ·
//     attempt 10/10" (stopped there: the screen after the last attempt
//     was not captured). While it waits, 2.1.267 turns its spinner row
//     into "✻ API error · Retrying in 4s · attempt 1/10", from attempt 3
//     "✻ 429 <message> … · Retrying in 13s · attempt 9/10" (a working
//     screen). With retry-after 4, both versions retried after 4.0 s
//     (2.1.332: 5.0 s, 4.0 s) and 2.1.332 drew no "Retrying in" row the
//     rig saw (api-retry-429 is 2.1.267's only). x-should-retry: false
//     stops it at once: api-error-429 and api-error-500 use it to stay
//     short. A 529 overloaded stops after 3 attempts (0, +0.56, +1.74 s)
//     with "Repeated 529 Overloaded errors".
//   - Codex retries per provider (request_max_retries, stream_max_retries;
//     the rig's config sets both to 0). With the defaults, by hand on
//     0.155.1: a 429 rate_limit_exceeded was not retried (one request,
//     "exceeded retry limit, last status: 429 ..."); a 500 was sent 30
//     times in 25 s (5 request attempts, 0/+0.2/+0.6/+1.4/+3.0 s, times
//     6 stream attempts) before "We’re currently experiencing high
//     demand".

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

var claudeBlocked = []Blocked{
	// x-should-retry: false makes Claude Code show the first 429 (its
	// own retries take minutes: 10 attempts, backoff to 32 s).
	{Name: "api-error-429", Word: "rate-limit", Failures: 1,
		Fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 30, ShouldRetry: "false"},
		Anchors: []string{"API Error: Request rejected (429)"}},
	{Name: "api-error-overloaded", Word: "overloaded", Failures: 3,
		Fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded, Times: 3},
		Anchors: []string{"Repeated 529 Overloaded errors"}},
	{Name: "api-retry-429", Word: "retry-limit", Failures: 1, Retry: true, Only: []string{"2.1.267"},
		Fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 4, Times: 2},
		Anchors: []string{"Retrying in"}},
	{Name: "api-error-500", Word: "server-error", Failures: 1,
		Fail:    fakemodel.Failure{Kind: fakemodel.FailServerError, ShouldRetry: "false"},
		Anchors: []string{"API Error: "}},
}

var codexBlocked = []Blocked{
	{Name: "api-error-500", Word: "server-error", Failures: 1,
		Fail:    fakemodel.Failure{Kind: fakemodel.FailServerError},
		Anchors: []string{"experiencing high demand"}},
	{Name: "api-error-429", Word: "rate-limit", Failures: 1,
		Fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 2},
		Anchors: []string{"last status: 429 Too Many Requests"}},
	{Name: "api-error-overloaded", Word: "overloaded", Failures: 1,
		Fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded},
		Anchors: []string{"Selected model is at capacity"}},
	{Name: "api-error-overloaded-stream", Word: "overloaded", Failures: 1,
		Fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded, InStream: true},
		Anchors: []string{"Selected model is at capacity"}},
	{Name: "api-usage-limit", Word: "usage-limit", Failures: 1,
		Fail:    fakemodel.Failure{Kind: fakemodel.FailUsageLimit, ResetIn: 2*time.Hour + 17*time.Minute},
		Anchors: []string{"hit your usage limit", "try again at"}},
}

func init() {
	claude := Composer{Idle: (*Steps).claudeIdle, Prompt: (*Steps).claudePrompt}
	for _, c := range claudeBlocked {
		register(c.Scenario("claude", claudeScript, claude))
	}
	codex := Composer{Idle: (*Steps).codexIdle, Prompt: (*Steps).codexPrompt}
	for _, c := range codexBlocked {
		register(c.Scenario("codex", codexScript, codex))
	}
}
