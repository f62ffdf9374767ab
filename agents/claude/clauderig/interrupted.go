package clauderig

import "github.com/agent-knock-knock/akk/recordings/rig"

// The interrupted scenario (rig.Interrupted): Esc while the reply streams.
func interruptedScenarios() []*rig.Scenario {
	return []*rig.Scenario{rig.Interrupted{
		Streaming: []string{claudeBusyFooter},
		Said:      "Interrupted",
		Answered:  func(s *rig.Steps) { wrap(s).turnEnd(1) },
	}.Scenario("claude", claudeScript, composer)}
}
