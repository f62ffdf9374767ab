package clauderig

import (
	"fmt"
	"time"

	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/vt"
)

// /status (inspect.go): after an answered prompt, with the organization
// policy failing to load, and over its completion list.

// claudeHintQuiet is the stillness awaited before marking the "Esc again
// to clear" screen: the third Esc must come within 800 ms of the second.
const claudeHintQuiet = 100 * time.Millisecond

// claudePolicyEnv makes the organization policy fail to load, offline:
// _CLAUDE_CODE_ASSUME_FIRST_PARTY_BASE_URL makes Claude Code treat the
// fake server as api.anthropic.com's stand-in, so it fetches the policy
// (from api.anthropic.com itself) instead of skipping it for a custom
// base URL; HTTPS_PROXY sends that fetch to the fake server, which
// answers the CONNECT with 404 (nothing leaves 127.0.0.1); NO_PROXY
// keeps the Messages calls direct.
func claudePolicyEnv(_ *rig.Home, _, url string, env []string) ([]string, error) {
	return append(env, "_CLAUDE_CODE_ASSUME_FIRST_PARTY_BASE_URL=1", "HTTPS_PROXY="+url, "NO_PROXY=127.0.0.1,localhost"), nil
}

func claudeStatus() *rig.Scenario {
	return &rig.Scenario{Name: "status", Agent: "claude", Only: claudeInspectVersions, Script: claudeScript,
		Drive: drive(func(s steps) {
			d := s.d
			s.answer(inspectPrompt, 1)
			s.statusInspect(claudeInspects[d.Version].statusRows)
		})}
}

func claudeStatusPolicyError() *rig.Scenario {
	return &rig.Scenario{Name: "status-policy-error", Agent: "claude", Only: claudeInspectVersions, Script: claudeScript,
		Setup: claudePolicyEnv,
		Drive: drive(func(s steps) {
			d := s.d
			ci := claudeInspects[d.Version]
			if ci.policyWarning != "" {
				s.Screen(ci.policyWarning)
			}
			s.idle()
			s.Mark("idle", rig.ComposerEmpty)
			s.statusInspect(ci.policyRows)
			s.Do(func() error {
				n := 0
				for _, r := range d.Log.Requests() {
					if r.Method == "CONNECT" {
						n++
					}
				}
				d.Logger().Info("rig: policy fetches through the proxy", "CONNECT requests", n)
				if n == 0 {
					return fmt.Errorf("rig: no CONNECT reached the fake server: the policy was not fetched through it")
				}
				return nil
			})
		})}
}

func claudeStatusCompletion() *rig.Scenario {
	return &rig.Scenario{Name: "status-completion", Agent: "claude", Only: claudeInspectVersions, Script: claudeScript,
		Drive: drive(func(s steps) {
			d := s.d
			s.idle()
			s.Mark("idle", rig.ComposerEmpty)
			s.slash("/status", statusList(d.Version))
			// Down: /statusline highlighted, the composer still "/status".
			s.Key("Down")
			s.completion("/status", statusList(d.Version), "/statusline")
			s.Mark("idle", rig.ComposerDraft)
			// Esc closes the list and keeps the text.
			s.Key("Escape")
			s.Do(func() error {
				return d.ScreenCells("the completion list closed", func(sc *vt.Screen) bool { return len(completionList(sc)) == 0 })
			})
			s.composerReads("/status")
			s.Mark("idle", rig.ComposerDraft)
			// Esc again: the hint; a third Esc within 800 ms clears.
			s.Key("Escape")
			s.Screen(claudeInspects[d.Version].escAgain)
			s.composerReads("/status")
			s.Quiet(claudeHintQuiet)
			s.MarkNow("idle", rig.ComposerDraft)
			s.Key("Escape")
			s.composerReads("")
			s.idle()
			s.Mark("idle", rig.ComposerEmpty)
			s.Do(func() error {
				if n := messagesRequests(d.Log.Requests()); n > 0 {
					return fmt.Errorf("rig: %d model requests", n)
				}
				if j := d.NewestJournal(); j != "" {
					return fmt.Errorf("rig: a transcript was written: %s", rig.ReadFile(j))
				}
				return nil
			})
		})}
}
