package binding

import (
	"bytes"
	"errors"
	"os"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
)

// Durable is what a bound file says of its agent, folded event by event
// (Next): the first parse of the file and the watcher's stream fold the
// same way, so a daemon that starts late knows what one that watched all
// along knows.
type Durable struct {
	// State is durable_activity_state.
	State string
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
func (d Durable) Next(ev watchers.Event) Durable {
	switch e := ev.(type) {
	case watchers.TurnStarted:
		d.State, d.Turn = terminal.DurableWorking, e.TurnID
	case watchers.QuestionAnswered:
		d.State = terminal.DurableWorking
	case watchers.PromptAccepted:
		d.State = terminal.DurableWorking
		if d.async {
			d.SecretCall, d.async = "", false // the async question's answer arrived
		}
	case watchers.ToolPending:
		d.State, d.LastCall = terminal.DurableWorking, e.CallID
		if questionTools[e.Name] {
			// A newer question replaces the one on screen.
			d.SecretCall, d.async = "", false
			if e.SecretQuestion {
				d.SecretCall, d.async = e.CallID, e.Name == "request_user_input_async"
			}
		}
	case watchers.ToolResult:
		d.State = terminal.DurableWorking
		if e.CallID == d.SecretCall && !d.async {
			d.SecretCall = "" // answered or declined
		}
	case watchers.ApprovalRequested:
		d.State = terminal.DurableAwaitingInput
		if e.CallID != "" {
			d.LastCall = e.CallID
		}
	case watchers.TurnCompleted, watchers.TurnAborted, watchers.TurnFailed:
		d.State, d.Turn = terminal.DurableIdle, ""
		if !d.async {
			d.SecretCall = ""
		}
	case watchers.SessionIdentity:
		if d.State == "" {
			d.State = terminal.DurableIdle
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

// ParseDurable reads a bound file's complete lines once.
func ParseDurable(agent watchers.Agent, path string) (d Durable, id watchers.FileID, end int64) {
	f, err := os.Open(path)
	if err != nil {
		return d, id, 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return d, id, 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id = watchers.FileID{Dev: uint64(st.Dev), Ino: st.Ino}
	}
	if fi.Size() > maxBoundParse {
		return Durable{State: terminal.DurableUnknown}, id, 0
	}
	data := make([]byte, fi.Size())
	n, err := f.ReadAt(data, 0)
	if err != nil && !errors.Is(err, os.ErrClosed) && n < len(data) && n == 0 {
		return d, id, 0
	}
	data = data[:n]
	p := watchers.NewParser(agent)
	var out []watchers.Event
	off := int64(0)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		w := watchers.Where{Agent: agent, Path: path, File: id, Offset: off, End: off + int64(i) + 1, Time: time.Time{}}
		out = p.Parse(w, data[:i], out[:0])
		for _, ev := range out {
			d = d.Next(ev)
		}
		off += int64(i) + 1
		data = data[i+1:]
	}
	return d, id, off
}
