package terminal

import (
	"log/slog"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
)

func TestActivityState(t *testing.T) {
	for _, tc := range []struct {
		screen  contract.ScreenState
		durable contract.Durable
		want    contract.Activity
	}{
		{"working", "working", "working"},
		{"idle", "idle", "idle"},
		{"awaiting_approval", "working", "awaiting_approval"},
		{"awaiting_approval", "awaiting_input", "awaiting_approval"},
		{"questionnaire", "working", "awaiting_approval"},
		{"idle", "working", "unknown"}, // the axes disagree
		{"working", "idle", "unknown"},
		{"idle", "unknown", "unknown"},
		{"idle", "unavailable", "idle"}, // a replica: the screen's word
		{"menu_or_viewer", "unavailable", "unknown"},
		{"exited", "idle", "unknown"},
	} {
		if got := ActivityState(tc.screen, tc.durable); got != tc.want {
			t.Errorf("ActivityState(%s, %s) = %s, want %s", tc.screen, tc.durable, got, tc.want)
		}
	}
}

func TestTerminalID(t *testing.T) {
	k := Key{Socket: "/tmp/tmux-0/default", ServerPID: 10, Pane: "%3", PanePID: 42, PaneStart: 7}
	a, b := ID([]byte("secret"), k), ID([]byte("secret"), k)
	if a != b || !regexp.MustCompile(`^term_[a-z2-7]{26}$`).MatchString(a) {
		t.Fatalf("ids %q %q", a, b)
	}
	k2 := k
	k2.PaneStart = 8 // respawned: same pid, another start time
	if ID([]byte("secret"), k2) == a || ID([]byte("other"), k) == a {
		t.Fatal("id does not depend on the incarnation or the secret")
	}
}

func TestStateEvents(t *testing.T) {
	a := store.Terminal{ID: "term_x", Agent: "claude", Version: "2.1.267", Screen: "working", Composer: "empty",
		Identity: "resolved", Durable: "working", Activity: "working"}
	if evs := StateEvents(store.Terminal{}, a, true); len(evs) != 1 || evs[0].Type != api.EventTerminalAdded || evs[0].Attrs["screen_state"] != "working" {
		t.Fatalf("new terminal: %+v", evs)
	}
	b := a
	b.Screen, b.Activity = "awaiting_approval", "awaiting_approval"
	evs := StateEvents(a, b, false)
	if len(evs) != 1 || evs[0].Type != api.EventTerminalState || evs[0].Attrs["from_screen_state"] != "working" {
		t.Fatalf("state change: %+v", evs)
	}
	c := b
	c.PID = 99
	if evs := StateEvents(b, c, false); len(evs) != 1 || evs[0].Type != api.EventTerminalProcess {
		t.Fatalf("process change: %+v", evs)
	}
	if evs := StateEvents(c, c, false); len(evs) != 0 {
		t.Fatalf("no change: %+v", evs)
	}
}

// TestFenceKey: the key changes with each of its parts.
func TestFenceKey(t *testing.T) {
	var fp [32]byte
	base := FenceKey("term_a", fp, 1, "call_1")
	fp2 := fp
	fp2[0] = 1
	for name, other := range map[string]string{
		"terminal":    FenceKey("term_b", fp, 1, "call_1"),
		"fingerprint": FenceKey("term_a", fp2, 1, "call_1"),
		"generation":  FenceKey("term_a", fp, 2, "call_1"),
		"tool call":   FenceKey("term_a", fp, 1, "call_2"),
	} {
		if other == base {
			t.Errorf("a different %s gives the same fence key", name)
		}
	}
	if FenceKey("term_a", fp, 1, "call_1") != base {
		t.Error("the fence key is not deterministic")
	}
}

// TestFenceStates: a consumed prompt is manual_required with no plan and
// no decisions; one whose answer may have landed is response_uncertain.
func TestFenceStates(t *testing.T) {
	pending := Recognition{Interaction: &contract.Interaction{State: "pending", Decisions: []contract.Decision{"approve_once"}}, Plan: &recognizers.Plan{}}
	for _, tc := range []struct {
		uncertain bool
		state     contract.InteractionState
		reason    string
	}{
		{false, "manual_required", ReasonRepeatedPrompt},
		{true, contract.StateResponseUncertain, ReasonInputMayHaveLanded},
	} {
		r := Fence(pending, tc.uncertain)
		in := r.Interaction
		if in.State != tc.state || len(in.Reasons) != 1 || in.Reasons[0] != tc.reason || in.Decisions != nil || r.Plan != nil {
			t.Errorf("uncertain %v: %+v plan %v", tc.uncertain, in, r.Plan)
		}
		if pending.Interaction.State != contract.StatePending || pending.Plan == nil {
			t.Fatal("Fence changed the recognition it was given")
		}
	}
	if r := Fence(Recognition{Interaction: &contract.Interaction{State: "manual_required"}}, true); r.Interaction.State != contract.StateManualRequired {
		t.Errorf("a prompt that was not pending became %s", r.Interaction.State)
	}
}

// TestPaneBeforeRun: a pane the registry holds before its goroutine has
// derived its terminal (no mirror yet) has no row, and looking at it
// does not panic (a List then crashed the daemon in the crash tier).
func TestPaneBeforeRun(t *testing.T) {
	m := New(&Env{Logger: slog.New(slog.DiscardHandler), Now: time.Now}, 0, nil, controlmode.PaneInfo{})
	if _, ok := m.Row(); ok {
		t.Error("a pane before Run has a row")
	}
	if _, ok := m.Recorded(); ok {
		t.Error("a pane before Run is recorded")
	}
	if v := m.View(); v.Recorded || v.Ident != nil {
		t.Errorf("a pane before Run shows %+v", v)
	}
	if d := m.Diagnose(); d.HasScreen {
		t.Error("a pane before Run has a screen")
	}
}

// TestActions: what a row advertises, by screen: an idle exact agent may
// be sent to and watched; a shell or a dead pane advertises nothing; a
// permission prompt of a managed Turn is approved by the turn_id.
func TestActions(t *testing.T) {
	agent := &procid.Identity{Agent: "claude", Version: "2.1.267"}
	perm := &contract.Interaction{Kind: contract.KindPermission, State: "pending"}
	plan := &recognizers.Plan{Choices: []recognizers.Choice{{Decision: contract.DecisionApproveOnce}, {Decision: "reject"}}}
	for _, tc := range []struct {
		name string
		v    View
		want []string
	}{
		{"idle agent", View{ID: "term_a", Ident: agent, Rec: Recognition{Exact: true, Screen: contract.ScreenIdle, Composer: "empty"}},
			[]string{"send", "send_user_explicit", "watch"}},
		{"idle agent in a known session", View{ID: "term_a", Ident: agent, SessionID: "ses_a",
			Rec: Recognition{Exact: true, Screen: contract.ScreenIdle, Composer: "empty"}}, []string{"send", "send_session", "send_user_explicit", "watch"}},
		{"a clearable draft", View{ID: "term_a", Ident: agent, Rec: Recognition{Exact: true, Screen: contract.ScreenIdle, Composer: "draft",
			Clear: &recognizers.Clear{Keys: []byte{0x13}, Stash: true}}}, []string{"send_user_explicit", "watch"}},
		{"a draft of unproven shape", View{ID: "term_a", Ident: agent, Rec: Recognition{Exact: true, Screen: contract.ScreenIdle, Composer: "draft"}},
			[]string{"watch"}},
		{"working", View{ID: "term_a", Ident: agent, Rec: Recognition{Exact: true, Screen: contract.ScreenWorking, Composer: "empty"}},
			[]string{"send_user_explicit", "watch"}},
		{"generic profile", View{ID: "term_a", Ident: agent, Rec: Recognition{Screen: contract.ScreenIdle, Composer: "empty"}}, []string{"watch"}},
		{"shell", View{ID: "term_a", Ident: &procid.Identity{Agent: api.AgentNone}, Rec: Recognition{Screen: contract.ScreenUnknown}}, nil},
		{"dead", View{ID: "term_a", Ident: agent, Dead: true, Rec: Recognition{Exact: true, Screen: contract.ScreenIdle, Composer: "empty"}}, nil},
		{"not identified", View{ID: "term_a"}, nil},
		{"managed permission", View{ID: "term_a", Ident: agent, ActiveTurn: "turn_x", Rec: Recognition{Exact: true,
			Screen: contract.ScreenAwaitingApproval, Interaction: perm, Plan: plan}}, []string{"approve", "watch"}},
	} {
		got := Actions(tc.v)
		var names []string
		for k := range got {
			names = append(names, k)
		}
		slices.Sort(names)
		if !slices.Equal(names, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, names, tc.want)
		}
		for name, mode := range map[string]string{"send": api.SendFollowCurrent, "send_session": api.SendSessionExact,
			"send_user_explicit": api.SendUserExplicit} {
			if a, ok := got[name]; ok && a.Arguments["mode"] != mode {
				t.Errorf("%s: %s advertises mode %v, want %s", tc.name, name, a.Arguments["mode"], mode)
			}
		}
		if a, ok := got["send_session"]; ok && (a.Arguments["session_id"] != "ses_a" || a.Arguments["terminal_id"] != nil) {
			t.Errorf("%s: send_session %+v, want by session_id only", tc.name, a)
		}
		if a, ok := got["approve"]; ok && (a.Arguments["turn_id"] != "turn_x" || len(a.Decisions) != 2) {
			t.Errorf("%s: approve %+v, want by turn_id with both decisions", tc.name, a)
		}
	}
}

// TestTurnInteraction: a row's interaction carries the turn_id of the
// managed Turn the terminal runs (seed 000's projection), on a copy: the
// recognition shared with offers and the tasks keeps none.
func TestTurnInteraction(t *testing.T) {
	in := &contract.Interaction{InteractionID: "int_x", State: "pending"}
	m := &Pane{rec: Recognition{Interaction: in}}
	if got := m.turnInteraction(); got != in || got.TurnID != "" {
		t.Errorf("no Turn: %+v", got)
	}
	m.activeTurn = "turn_x"
	if got := m.turnInteraction(); got.TurnID != "turn_x" || got.InteractionID != "int_x" || in.TurnID != "" {
		t.Errorf("with a Turn: %+v (recognized %+v)", got, in)
	}
	m.rec.Interaction = nil
	if got := m.turnInteraction(); got != nil {
		t.Errorf("no interaction: %+v", got)
	}
}
