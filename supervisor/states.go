package supervisor

import "github.com/agent-knock-knock/akk/api"

// Durable activity states (DESIGN "Contract details").
const (
	durableWorking       = "working"
	durableIdle          = "idle"
	durableAwaitingInput = "awaiting_input"
	durableUnknown       = "unknown"
	durableUnavailable   = "unavailable"
)

// Activity states.
const (
	activityAwaitingApproval = "awaiting_approval"
	activityWorking          = "working"
	activityIdle             = "idle"
	activityUnknown          = "unknown"
)

// screenActivity is what a screen state alone says of activity: a prompt
// that waits for a person counts as awaiting_approval.
func screenActivity(screen string) string {
	switch screen {
	case api.ScreenAwaitingApproval, api.ScreenQuestionnaire, api.ScreenFreeText,
		api.ScreenConfirmation, api.ScreenAsyncQuestion:
		return activityAwaitingApproval
	case api.ScreenWorking:
		return activityWorking
	case api.ScreenIdle:
		return activityIdle
	}
	return activityUnknown
}

// activityState combines the screen and durable axes conservatively: the
// result is unknown whenever they disagree (seed 003: activity_state stays
// conservative; it is never mutation authority). A durable axis that
// cannot be known (unavailable: a replica, files unreadable) leaves the
// screen's word.
func activityState(screen, durable string) string {
	a := screenActivity(screen)
	switch durable {
	case durableUnavailable:
		return a
	case durableUnknown, "":
		return activityUnknown
	case durableWorking:
		if a == activityWorking || a == activityAwaitingApproval {
			return a // a pending tool shows as working in the file
		}
	case durableAwaitingInput:
		if a == activityAwaitingApproval {
			return a
		}
	case durableIdle:
		if a == activityIdle {
			return a
		}
	}
	return activityUnknown
}
