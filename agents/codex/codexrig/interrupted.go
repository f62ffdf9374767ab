package codexrig

import "github.com/agent-knock-knock/akk/recordings/rig"

// The interrupted scenario (rig.Interrupted): Esc while the reply streams.
func interruptedScenarios() []*rig.Scenario {
	return []*rig.Scenario{rig.Interrupted{
		Started: func(s *rig.Steps) { s.Journal("task_started", rolloutHas("event_msg", "task_started")) },
		Said:    "interrupted",
		Answered: func(s *rig.Steps) {
			s.Journal("task_complete", rolloutHas("event_msg", "task_complete"))
			wrap(s).idle()
		},
	}.Scenario("codex", codexScript, composer)}
}
