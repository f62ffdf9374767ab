package clauderig

import (
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Claude Code's blocked surfaces (rig.Blocked). What it does, measured with
// these scenarios and by hand against the same fake (2026-12-02):
//
//   - It retries 429 and 5xx itself (CLAUDE_CODE_MAX_RETRIES,
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

// claudeBlocked are its cases.
var claudeBlocked = []rig.Blocked{
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

func blockedScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	for _, b := range claudeBlocked {
		out = append(out, b.Scenario("claude", claudeScript, composer))
	}
	return out
}
