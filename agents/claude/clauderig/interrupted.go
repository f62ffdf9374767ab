package clauderig

import (
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The interrupted scenario (rig.SlowStream): Esc while the reply streams.
func interruptedScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out,
		&rig.Scenario{Name: "interrupted", Agent: "claude", Script: rig.WithKeywords(claudeScript, rig.SlowStream), Drive: drive(func(s steps) {
			s.idle()
			s.prompt("slow-stream please")
			s.Started("slow-stream")
			s.Screen(claudeBusyFooter, "This reply streams")
			s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
			s.Key("Escape")
			s.Screen("Interrupted")
			s.idle()
			s.MarkInterrupted()
			s.prompt("hello again")
			s.turnEnd(1)
			s.MarkIdle()
		})},
	)
	return out
}
