package mcpserver

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/hooktest"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// hookLog counts the turn ids a webhook receiver was told about.
type hookLog struct {
	mu    sync.Mutex
	turns map[string]int
}

func (h *hookLog) answer(_ int, r hooktest.Request) (int, time.Duration) {
	var env api.CallbackEnvelope
	if json.Unmarshal(r.Body, &env) == nil {
		h.mu.Lock()
		h.turns[env.TurnID]++
		h.mu.Unlock()
	}
	return 200, 0
}

func (h *hookLog) count(turn string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.turns[turn]
}

// TestTmuxOwnerRoutes: the wake-ups of a host's Turns go to its own
// routes only ([[owner]] in akk attach's config), and the person route
// (tmux) gets every host's. Two hosts each send a Turn to a replica that
// stops at a prompt; each webhook receiver hears of its host's Turn and
// never of the other's.
func TestTmuxOwnerRoutes(t *testing.T) {
	hooks := map[string]*hookLog{"a": {turns: map[string]int{}}, "b": {turns: map[string]int{}}}
	urls := map[string]string{}
	for name, h := range hooks {
		urls[name] = hooktest.Start(t, "", h.answer).URL
	}
	config := fmt.Sprintf(`
[[route]]
name = "hook-a"
kind = "webhook"
url = %q
[[route]]
name = "hook-b"
kind = "webhook"
url = %q
[[route]]
name = "screen"
kind = "tmux"
[[owner]]
name = "host-a"
routes = ["hook-a"]
[[owner]]
name = "host-b"
routes = ["hook-b"]
`, urls["a"], urls["b"])
	r := startRigConfig(t, config, "permission-approve", "question-digit")
	turns := map[string]string{}
	for host, surface := range map[string]string{"a": "permission-approve", "b": "question-digit"} {
		srv := New(Options{Socket: r.socket, Owner: "host-" + host})
		t.Cleanup(srv.closeSessions)
		cs := connect(t, srv, nil)
		row := r.awaitState(t, surface, contract.ScreenIdle)
		task := map[string]string{"permission-approve": "run-touch", "question-digit": "ask-color"}[surface]
		var sent api.ActionResult
		if res := callTool(t, cs, ToolSend, map[string]any{"terminal_id": row.TerminalID, "request": task}, &sent); res.IsError ||
			sent.Outcome != api.OutcomeAccepted {
			t.Fatalf("host %s send: error=%v %q %+v", host, res.IsError, errorText(res), sent)
		}
		turns[host] = sent.TurnID
	}
	r.awaitState(t, "permission-approve", contract.ScreenAwaitingApproval)
	r.awaitState(t, "question-digit", contract.ScreenQuestionnaire)
	tmuxtest.Await(t, 20*time.Second, func() string {
		for host, h := range hooks {
			if h.count(turns[host]) == 0 {
				return "host " + host + "'s route has not heard of its Turn yet"
			}
		}
		return ""
	})
	for host, h := range hooks {
		for other, turn := range turns {
			if other != host && h.count(turn) != 0 {
				t.Errorf("host %s's route heard %d times of host %s's Turn", host, h.count(turn), other)
			}
		}
	}
	// The person route took every Turn's notifications too: two routes
	// per event for each host's Turn.
	for host, turn := range turns {
		task, err := r.cl.TaskStatus(t.Context(), api.TaskRequest{TurnID: turn})
		if err != nil {
			t.Fatal(err)
		}
		if len(task.Notifications) < 2 || len(task.Notifications)%2 != 0 {
			t.Errorf("host %s's Turn has %d notifications, want each event on its route and the tmux route", host, len(task.Notifications))
		}
	}
}
