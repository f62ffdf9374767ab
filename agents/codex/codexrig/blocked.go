package codexrig

import (
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Codex's blocked surfaces (rig.Blocked). What it does, measured with
// these scenarios and by hand against the same fake (2026-12-02):
//
//   - It retries per provider (request_max_retries, stream_max_retries;
//     the rig's config sets both to 0). With the defaults, by hand on
//     0.155.1: a 429 rate_limit_exceeded was not retried (one request,
//     "exceeded retry limit, last status: 429 ..."); a 500 was sent 30
//     times in 25 s (5 request attempts, 0/+0.2/+0.6/+1.4/+3.0 s, times
//     6 stream attempts) before "We’re currently experiencing high
//     demand".

// codexBlocked are its cases.
var codexBlocked = []rig.Blocked{
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

func blockedScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	for _, b := range codexBlocked {
		out = append(out, b.Scenario("codex", codexScript, composer))
	}
	return out
}
