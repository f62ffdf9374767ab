package api

import (
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

func TestAttention(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	row := func(screen string, inter *contract.Interaction, since time.Duration) Terminal {
		return Terminal{Agent: "claude", ScreenState: contract.ScreenState(screen), Interaction: inter, StateSince: now.Add(-since)}
	}
	q := &contract.Interaction{Kind: "questionnaire", State: "pending"}
	manual := &contract.Interaction{Kind: "permission", State: "manual_required", Reasons: []string{"unknown_version"}}
	for _, tc := range []struct {
		name string
		t    Terminal
		want string
	}{
		{"permission screen", row(string(contract.ScreenAwaitingApproval), nil, time.Second), AttentionPermission},
		{"questionnaire", row(string(contract.ScreenQuestionnaire), q, time.Second), AttentionQuestionnaire},
		{"manual permission still needs a person", row(string(contract.ScreenAwaitingApproval), manual, time.Second), AttentionPermission},
		{"resolved interaction on a working screen", row(string(contract.ScreenWorking), &contract.Interaction{Kind: "permission", State: "resolved"}, 0), ""},
		{"collapsed async question while working", row(string(contract.ScreenWorking), &contract.Interaction{Kind: "async_question", State: "pending"}, 0), AttentionAsyncQuestion},
		{"exited", row(string(contract.ScreenExited), nil, time.Hour), AttentionFailed},
		{"idle a minute", row(string(contract.ScreenIdle), nil, time.Minute), AttentionDone},
		{"idle an hour", row(string(contract.ScreenIdle), nil, time.Hour), ""},
		{"working", row(string(contract.ScreenWorking), nil, time.Second), ""},
		{"a shell", Terminal{Agent: AgentNone, ScreenState: contract.ScreenUnknown}, ""},
	} {
		if got := AttentionOf(tc.t, now); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	ts := []Terminal{row(string(contract.ScreenIdle), nil, time.Minute), row(string(contract.ScreenQuestionnaire), q, time.Second),
		row(string(contract.ScreenAwaitingApproval), nil, time.Second), row(string(contract.ScreenAwaitingApproval), nil, time.Minute)}
	l := AttentionList(ts, now)
	if len(l) != 4 || l[0].Terminal.StateSince != ts[3].StateSince || l[1].Kind != AttentionPermission ||
		l[2].Kind != AttentionQuestionnaire || l[3].Kind != AttentionDone {
		t.Errorf("order %+v", l)
	}
	if got := AttentionSummary(ts, now); got != "3 permission" {
		t.Errorf("summary %q", got)
	}
	if got := AttentionSummary(ts[:1], now); got != "" {
		t.Errorf("summary of a done agent %q, want empty", got)
	}
}
