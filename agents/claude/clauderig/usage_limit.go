package clauderig

import (
	"fmt"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Claude Code's subscription usage limit (issue 20). Claude Code draws
// its usage-limit screen only under a subscription's login: with an API
// key the same 429 is a plain "API Error: Request rejected (429)"
// (api-error-429). These scenarios run it with a fake OAuth token in
// CLAUDE_CODE_OAUTH_TOKEN instead of ANTHROPIC_API_KEY, and the fake
// answers the prompt with a 429 carrying the unified rate-limit headers
// (fakemodel.FailUsageLimit: anthropic-ratelimit-unified-status
// rejected, -representative-claim five_hour, -reset <unix seconds>,
// -overage-status rejected).
//
// What Claude Code does there, measured with these scenarios (2026-12-02):
//
//   - With the token in the environment its scopes are user:inference
//     only ("env-var and setup-token sessions default to user:inference
//     only"), so it calls none of the profile endpoints (api/oauth/profile,
//     api/oauth/claude_cli/roles, api/oauth/usage: they are on
//     api.anthropic.com, not ANTHROPIC_BASE_URL, and unreachable here);
//     the fake sees the prompt's one request (no retry: Claude Code sets
//     retry-after to the seconds until the reset), on 2.1.267 also HEAD
//     /api/hello and the session title request. The request carries
//     "Authorization: Bearer" and the beta oauth-2025-04-20 (the log's
//     auth "oauth", which the drive checks).
//     The banner reads "Claude API" (the plan is unknown without a profile).
//   - 2.1.267: under the prompt "⎿  You've hit your session limit · resets
//     9:31pm (UTC)" and "Continuing automatically at 9:31pm · esc to
//     cancel", then "● Usage limit reached · continuing automatically at
//     9:31pm · esc or type to cancel", the empty composer, and above the
//     footer "⚠ Usage limit reached · continuing automatically at 9:31pm ·
//     esc to cancel". Typing cancels the automatic continuation.
//   - 2.1.332: "⎿  You've hit your 5-hour limit · resets 9:33pm (UTC)",
//     "● Usage limit reached · set to continue automatically at 9:33pm",
//     the empty composer, and above the footer "⚠ Usage limit reached ·
//     limit resets 9:33pm" / "Continuing automatically at 9:33pm · Esc to
//     cancel".
//   - A reset on a whole hour drops the minutes ("10pm"); one more than 24
//     hours away would print a date ("Dec 3, 9:31pm"), not recorded.
//
// Each run marks the limit screen "blocked" and ends there: no key is
// pressed on it (akk never presses anything there either), the rig stops
// the agent.

// fakeOAuthToken looks like a Claude subscription's OAuth access token
// (what `claude setup-token` prints); only the fake server takes it.
const fakeOAuthToken = "sk-ant-oat01-fakefakefakefakefakefakefakefakefakefakefakefakefakefake-AAAA"

// oauthEnv is env with the fake API key swapped for the fake OAuth token:
// Claude Code then runs as a subscriber.
func oauthEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, e := range env {
		if !strings.HasPrefix(e, "ANTHROPIC_API_KEY=") {
			out = append(out, e)
		}
	}
	return append(out, "CLAUDE_CODE_OAUTH_TOKEN="+fakeOAuthToken)
}

// usageLimitCase is one usage-limit recording: the failure's reset.
type usageLimitCase struct {
	name string
	fail fakemodel.Failure
}

var usageLimitCases = []usageLimitCase{
	{name: "usage-limit", fail: fakemodel.Failure{Kind: fakemodel.FailUsageLimit, ResetIn: 2*time.Hour + 17*time.Minute, Times: 100}},
	{name: "usage-limit-hour", fail: fakemodel.Failure{Kind: fakemodel.FailUsageLimit, ResetIn: 2 * time.Hour, ResetOnHour: true, Times: 100}},
}

const usageLimitWord = "usage-limit"

func (c usageLimitCase) script(version string) fakemodel.Script {
	s := claudeScript(version)
	f := c.fail
	s.Keywords = append([]fakemodel.Keyword{{Word: usageLimitWord, Reply: fakemodel.Reply{Text: rig.BlockedReply}, Fail: &f}}, s.Keywords...)
	return s
}

func (c usageLimitCase) drive(s steps) {
	d := s.d
	s.idle()
	s.prompt(usageLimitWord + " please")
	s.Do(func() error {
		r, err := d.Request("the usage-limit 429", func(r fakemodel.Request) bool { return r.Status != 0 })
		if err == nil && r.Auth != "oauth" {
			err = fmt.Errorf("rig: the 429's request authenticated as %q, want oauth", r.Auth)
		}
		return err
	})
	s.Screen("Usage limit reached", "utomatically at")
	s.idle()
	s.Mark("blocked", recordings.MarkerState{Composer: "empty"})
	s.Quiet(time.Second)
}

func usageLimitScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	for _, c := range usageLimitCases {
		out = append(out, &rig.Scenario{Name: c.name, Agent: "claude", Script: c.script, Drive: drive(c.drive),
			Setup: func(_ *rig.Home, _, _ string, env []string) ([]string, error) { return oauthEnv(env), nil }})
	}
	return out
}
