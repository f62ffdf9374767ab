package rig

import "github.com/agent-knock-knock/akk/recordings"

// The interrupted scenario (interrupted.go): Esc while the reply streams.
func init() {
	register(
		&Scenario{Name: "interrupted", Agent: "claude", Script: WithKeywords(claudeScript, SlowStream), Drive: func(s *Steps) {
			s.claudeIdle()
			s.claudePrompt("slow-stream please")
			s.Started("slow-stream")
			s.Screen(claudeBusyFooter, "This reply streams")
			s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
			s.Key("Escape")
			s.Screen("Interrupted")
			s.claudeIdle()
			s.MarkInterrupted()
			s.claudePrompt("hello again")
			s.claudeTurnEnd(1)
			s.MarkIdle()
		}},
	)
}
