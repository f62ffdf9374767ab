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
	only  []string // versions it applies to; nil: all
}

const blockedReply = "Through after the API error."

var blockedCases = []blockedCase{
	// x-should-retry: false makes Claude Code show the first 429 (its
	// own retries take minutes: 10 attempts, backoff to 32 s).
	{name: "api-error-429", agent: "claude", word: "rate-limit", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 30, ShouldRetry: "false"},
		anchors: []string{"API Error: Request rejected (429)"}},
	{name: "api-error-overloaded", agent: "claude", word: "overloaded", failures: 3,
		fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded, Times: 3},
		anchors: []string{"Repeated 529 Overloaded errors"}},
	{name: "api-retry-429", agent: "claude", word: "retry-limit", failures: 1, retry: true, only: []string{"2.1.267"},
		fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 4, Times: 2},
		anchors: []string{"Retrying in"}},
	{name: "api-error-500", agent: "claude", word: "server-error", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailServerError, ShouldRetry: "false"},
		anchors: []string{"API Error: "}},
	{name: "api-error-500", agent: "codex", word: "server-error", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailServerError},
		anchors: []string{"experiencing high demand"}},
	{name: "api-error-429", agent: "codex", word: "rate-limit", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailRateLimit, RetryAfter: 2},
		anchors: []string{"last status: 429 Too Many Requests"}},
	{name: "api-error-overloaded", agent: "codex", word: "overloaded", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded},
		anchors: []string{"Selected model is at capacity"}},
	{name: "api-error-overloaded-stream", agent: "codex", word: "overloaded", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailOverloaded, InStream: true},
		anchors: []string{"Selected model is at capacity"}},
	{name: "api-usage-limit", agent: "codex", word: "usage-limit", failures: 1,
		fail:    fakemodel.Failure{Kind: fakemodel.FailUsageLimit, ResetIn: 2*time.Hour + 17*time.Minute},
		anchors: []string{"hit your usage limit", "try again at"}},
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
	idle, prompt := (*sticky).claudeIdle, (*sticky).claudePrompt
	if c.agent == "codex" {
		idle, prompt = (*sticky).codexIdle, (*sticky).codexPrompt
	}
	idle(s)
	prompt(s, c.word+" please")
	for i := 1; i <= c.failures; i++ {
		s.request(fmt.Sprintf("failure %d", i), func(r fakemodel.Request) bool { return r.Status != 0 })
	}
	s.screen(c.anchors...)
	if c.retry {
		// The spinner animates: marked at once, as the working scenario.
		s.markNow("working", recordings.MarkerState{Composer: "empty"})
		s.request("the reply after the retries", func(r fakemodel.Request) bool { return r.Status == 0 })
	} else {
		idle(s)
		s.mark("blocked", recordings.MarkerState{Composer: "empty"})
		prompt(s, "hello again")
		s.request("the next prompt", func(r fakemodel.Request) bool { return r.Status == 0 })
	}
	s.quiet(time.Second)
	idle(s)
	s.mark("idle", recordings.MarkerState{Composer: "empty"})
	return s.err
}

func init() {
	for _, c := range blockedCases {
		register(&Scenario{Name: c.name, Agent: c.agent, Only: c.only, Script: c.script, Drive: c.drive})
	}
}
