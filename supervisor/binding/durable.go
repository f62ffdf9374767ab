package binding

import (
	"context"
	"os"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Durable is what a bound file says of its agent, folded event by event
// (Next): the first parse of the file and the watcher's stream fold the
// same way, so a daemon that starts late knows what one that watched all
// along knows.
type Durable struct {
	// State is durable_activity_state.
	State contract.Durable
	// LastCall is the newest tool call id: the durable evidence that tells
	// a new prompt from a byte-identical repeat (DESIGN invariant 6). It
	// is read by the first parse too: a fence written before a restart
	// must still match the prompt after it.
	LastCall string
	// SecretCall is a question call the agent itself marks secret, while
	// its question may still be on screen (Codex's isSecret); async says
	// it is request_user_input_async, whose call returns at once while its
	// question waits for an answer that arrives as a prompt.
	SecretCall string
	async      bool
	// Turn is the native turn in progress (Codex's turn_id from its
	// task_started until its end; "" when none or unknown): a prompt sent
	// into a working agent is recorded under it (watchers.Anchor.Running).
	Turn string
}

// questionTools are the tools that ask the person a question.
var questionTools = map[string]bool{"request_user_input": true, "request_user_input_async": true, "AskUserQuestion": true}

// Next is d after one event.
func (d Durable) Next(ev evidence.Event) Durable {
	switch e := ev.(type) {
	case evidence.TurnStarted:
		d.State, d.Turn = contract.DurableWorking, e.TurnID
	case evidence.QuestionAnswered:
		d.State = contract.DurableWorking
	case evidence.PromptAccepted:
		d.State = contract.DurableWorking
		if d.async {
			d.SecretCall, d.async = "", false // the async question's answer arrived
		}
	case evidence.ToolPending:
		d.State, d.LastCall = contract.DurableWorking, e.CallID
		if questionTools[e.Name] {
			// A newer question replaces the one on screen.
			d.SecretCall, d.async = "", false
			if e.SecretQuestion {
				d.SecretCall, d.async = e.CallID, e.Name == "request_user_input_async"
			}
		}
	case evidence.ToolResult:
		d.State = contract.DurableWorking
		if e.CallID == d.SecretCall && !d.async {
			d.SecretCall = "" // answered or declined
		}
	case evidence.ApprovalRequested:
		d.State = contract.DurableAwaitingInput
		if e.CallID != "" {
			d.LastCall = e.CallID
		}
	case evidence.TurnCompleted, evidence.TurnAborted, evidence.TurnFailed:
		d.State, d.Turn = contract.DurableIdle, ""
		if !d.async {
			d.SecretCall = ""
		}
	case evidence.SessionIdentity:
		if d.State == "" {
			d.State = contract.DurableIdle
		}
	}
	return d
}

// apply copies d into a terminal's binding state.
func (d Durable) apply(st *terminal.Binding) {
	st.Durable, st.LastCall, st.SecretQuestion, st.RunningTurn = d.State, d.LastCall, d.SecretCall != "", d.Turn
}

// maxBoundParse bounds the first read of a bound file.
const maxBoundParse = 64 << 20

// ParseDurable reads a bound record's complete entries once (a line
// file's lines, a store session's log). A line file past maxBoundParse is
// not read (unknown); a store's session is read whole.
func ParseDurable(agent evidence.Agent, path string) (d Durable, id evidence.FileID, end int64) {
	if a, ok := registry.Lookup(string(agent)); !ok || a.Records().OpenStore == nil {
		if fi, err := os.Stat(path); err == nil && fi.Size() > maxBoundParse {
			id, _ = watchers.RecordID(agent, path)
			return Durable{State: contract.DurableUnknown}, id, 0
		}
	}
	id, end, err := watchers.ReadRecord(context.Background(), agent, path, func(_ evidence.Where, ev evidence.Event) {
		d = d.Next(ev)
	})
	if err != nil {
		return Durable{}, id, 0
	}
	return d, id, end
}
