package codexrig

import (
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The interrupted scenario (rig.SlowStream): Esc while the reply streams.
func interruptedScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out,
		&rig.Scenario{Name: "interrupted", Agent: "codex", Script: rig.WithKeywords(codexScript, rig.SlowStream), Drive: drive(func(s steps) {
			s.idle()
			s.prompt("slow-stream please")
			s.Started("slow-stream")
			s.Journal("task_started", rolloutHas("event_msg", "task_started"))
			s.Screen("This reply streams")
			s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
			s.Key("Escape")
			s.Screen("interrupted")
			s.idle()
			s.MarkInterrupted()
			s.prompt("hello again")
			s.Journal("task_complete", rolloutHas("event_msg", "task_complete"))
			s.idle()
			s.MarkIdle()
		})},
	)
	return out
}
