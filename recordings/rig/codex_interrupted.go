package rig

import "github.com/agent-knock-knock/akk/recordings"

// The interrupted scenario (interrupted.go): Esc while the reply streams.
func init() {
	register(
		&Scenario{Name: "interrupted", Agent: "codex", Script: WithKeywords(codexScript, SlowStream), Drive: func(s *Steps) {
			s.codexIdle()
			s.codexPrompt("slow-stream please")
			s.Started("slow-stream")
			s.Journal("task_started", rolloutHas("event_msg", "task_started"))
			s.Screen("This reply streams")
			s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
			s.Key("Escape")
			s.Screen("interrupted")
			s.codexIdle()
			s.MarkInterrupted()
			s.codexPrompt("hello again")
			s.Journal("task_complete", rolloutHas("event_msg", "task_complete"))
			s.codexIdle()
			s.MarkIdle()
		}},
	)
}
