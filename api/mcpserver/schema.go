package mcpserver

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// The input schemas are written by hand, not derived from the Go types:
// the api request types carry fields a model must never send (terminal_id
// on respond_interaction, minutes as an integer), and a derived schema
// would accept them. Every object is closed
// (additionalProperties false), every string is bounded, every id has the
// pattern of its prefix, and free text exists only in request and
// answers[].text. Patterns use only syntax that Go's regexp and ECMAScript
// read alike, since the host validates with the latter.

// idChars is the length of an id after its prefix: 26 characters of
// lower-case base32 (supervisor/ids.go).
const idChars = 26

// Id prefixes of the contract (DESIGN "Contract details").
const (
	prefixTerminal     = "term_"
	prefixTurn         = "turn_"
	prefixWatch        = "watch_"
	prefixSession      = "ses_"
	prefixInteraction  = "int_"
	prefixQuestion     = "q_"
	prefixOption       = "opt_"
	prefixNotification = "ntf_"
)

// idPattern is the pattern of an id with prefix p.
func idPattern(p string) string { return "^" + p + "[a-z2-7]{26}$" }

// messageIDPattern is a send's idempotency key: chosen by the host, so
// not an id with a prefix, but a token, not text. The daemon takes up to
// 128 bytes of anything; 64 characters of a URL-safe alphabet hold a UUID,
// a ULID or a host's own call id and cannot smuggle text or control
// characters into the store or a log.
const (
	messageIDPattern = "^[A-Za-z0-9._-]{1,64}$"
	messageIDMax     = 64
)

// renewMinutes are the observation windows renew accepts. A closed list of
// strings, not a number: a model picks one, and a typo cannot become a
// week-long watch.
var renewMinutes = []string{"5", "10", "15", "30", "60", "120", "240", "480", "720"}

func ptr(n int) *int { return &n }

// closed is an object schema that admits only props.
func closed(desc string, props map[string]*jsonschema.Schema, required ...string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Description: desc, Properties: props, Required: required,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
}

// id is an id field with prefix p.
func id(p, desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc, Pattern: idPattern(p),
		MinLength: ptr(len(p) + idChars), MaxLength: ptr(len(p) + idChars)}
}

// oneOf is a closed set of strings.
func oneOf[S ~string](desc string, values ...S) *jsonschema.Schema {
	enum := make([]any, len(values))
	longest := 0
	for i, v := range values {
		enum[i] = string(v) // the validator compares with the decoded JSON string
		longest = max(longest, len(v))
	}
	return &jsonschema.Schema{Type: "string", Description: desc, Enum: enum, MaxLength: ptr(longest)}
}

// text is free text of at most n characters (the byte cap is checked in
// checkText: JSON Schema counts characters).
func text(desc string, n int) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc, MinLength: ptr(1), MaxLength: ptr(n)}
}

const (
	descTerminal = "A terminal's id (term_…) exactly as list or status returned it."
	descTurn     = "A managed Turn's id (turn_…) exactly as send or status returned it."
	descWatch    = "A Watch's id (watch_…) exactly as watch or status returned it."
)

func emptyInput() *jsonschema.Schema {
	return closed("No arguments.", map[string]*jsonschema.Schema{})
}

func statusInput() *jsonschema.Schema {
	return closed("Exactly one of terminal_id, turn_id, watch_id.", map[string]*jsonschema.Schema{
		"terminal_id": id(prefixTerminal, descTerminal),
		"turn_id":     id(prefixTurn, descTurn),
		"watch_id":    id(prefixWatch, descWatch),
	})
}

func sendInput() *jsonschema.Schema {
	return closed("At most one of session_id and terminal_id (as the advertised action has it), its mode, and the request.", map[string]*jsonschema.Schema{
		"session_id":  id(prefixSession, "The AKK session (ses_…) of the native conversation to continue, as list or status advertised it."),
		"terminal_id": id(prefixTerminal, descTerminal),
		"mode": oneOf("The advertised action's mode: session_exact (with session_id), terminal_follow_current (with terminal_id; "+
			"the default) or terminal_user_explicit (with terminal_id, only on the user's explicit word).",
			api.SendSessionExact, api.SendFollowCurrent, api.SendUserExplicit),
		"request": text("The task for the coding agent, as the user means it. Plain text; its first line must not start with '/' "+
			"(native slash commands are refused) and it may hold no control characters other than newline and tab.", api.MaxRequestText),
		"message_id": {Type: "string", Description: "Optional idempotency key of your choosing (letters, digits, '.', '_', '-'; " +
			"at most 64): the same message_id again in this MCP session returns the first Turn and sends nothing.",
			Pattern: messageIDPattern, MinLength: ptr(1), MaxLength: ptr(messageIDMax)},
	}, "request")
}

func answerInput() *jsonschema.Schema {
	return closed("The answerable Turn and the reply.", map[string]*jsonschema.Schema{
		"turn_id": id(prefixTurn, descTurn+" Its status must say answerable true."),
		"request": text("The user's reply to the agent, as they mean it. Plain text; its first line must not start with '/' "+
			"and it may hold no control characters other than newline and tab.", api.MaxRequestText),
	}, "turn_id", "request")
}

func approveInput() *jsonschema.Schema {
	return closed("Exactly one of turn_id and terminal_id; decision defaults to approve_once.", map[string]*jsonschema.Schema{
		"turn_id":     id(prefixTurn, descTurn+" By turn_id both approve_once and reject are possible."),
		"terminal_id": id(prefixTerminal, descTerminal+" By terminal_id only approve_once is possible."),
		"decision":    oneOf("approve_once (the one-time Yes) or reject (the native No; only with turn_id).", contract.DecisionApproveOnce, contract.DecisionReject),
	})
}

func respondInput() *jsonschema.Schema {
	answer := closed("The answer to one question of the current step.", map[string]*jsonschema.Schema{
		"question_id": id(prefixQuestion, "The question's id (q_…) from the status projection."),
		"response_kind": oneOf("The question's response_kind as the projection says (open: a collapsed async question "+
			"summary; answering it opens its questions, no option and no text; multi_select: the options named end ticked, "+
			"every other unticked, then the agent shows its review, the next interaction).",
			"single_select", "multi_select", "free_text", "confirmation", "open"),
		"selected_option_ids": {Type: "array", Description: "The chosen option's id (opt_…) from the projection: exactly one " +
			"for single_select, one or more for multi_select.",
			Items: id(prefixOption, "An option id (opt_…)."), MaxItems: ptr(8), UniqueItems: true},
		"text": text("The typed answer, for a free_text question or an option marked free_text. No control characters "+
			"other than newline and tab; its first line must not start with '/'.", api.MaxAnswerText),
	}, "question_id", "response_kind")
	return closed("Exactly one of turn_id and watch_id, the interaction_id and the answers of its current step.", map[string]*jsonschema.Schema{
		"turn_id":        id(prefixTurn, descTurn),
		"watch_id":       id(prefixWatch, descWatch+" Only an exact_task Watch."),
		"interaction_id": id(prefixInteraction, "The interaction's id (int_…) from the status just shown to the user."),
		"answers": {Type: "array", Description: "One answer per question of the current step.", Items: answer,
			MinItems: ptr(1), MaxItems: ptr(4)},
		"delivery_mode": oneOf("Only for an async_question, and only a mode it advertises (default steer_current_turn).",
			contract.DeliverySteerCurrentTurn, contract.DeliveryQueueNextTurn),
	}, "interaction_id", "answers")
}

func turnInput(desc string) *jsonschema.Schema {
	return closed(desc, map[string]*jsonschema.Schema{"turn_id": id(prefixTurn, descTurn)}, "turn_id")
}

// terminalInput is the input of a tool whose one argument is the
// terminal it acts on; desc says what the terminal is to the tool.
func terminalInput(desc string) *jsonschema.Schema {
	return closed(desc, map[string]*jsonschema.Schema{"terminal_id": id(prefixTerminal, descTerminal)}, "terminal_id")
}

func unwatchInput() *jsonschema.Schema {
	return closed("The Watch to stop.", map[string]*jsonschema.Schema{"watch_id": id(prefixWatch, descWatch)}, "watch_id")
}

func renewInput() *jsonschema.Schema {
	return closed("Exactly one of watch_id and turn_id; minutes optional.", map[string]*jsonschema.Schema{
		"watch_id": id(prefixWatch, descWatch),
		"turn_id":  id(prefixTurn, descTurn),
		"minutes":  oneOf("How long to extend observation, in minutes (default: the daemon's configured window).", renewMinutes...),
	})
}

func taskInput(desc string) *jsonschema.Schema {
	return closed(desc, map[string]*jsonschema.Schema{
		"watch_id": id(prefixWatch, descWatch),
		"turn_id":  id(prefixTurn, descTurn),
	})
}

func retryInput() *jsonschema.Schema {
	return closed("Exactly one of watch_id and turn_id; notification_id when several failed.", map[string]*jsonschema.Schema{
		"watch_id":        id(prefixWatch, descWatch),
		"turn_id":         id(prefixTurn, descTurn),
		"notification_id": id(prefixNotification, "The failed notification (ntf_…) from status; required when several failed."),
	})
}

// threadIDPattern is a native conversation id: a UUID, as the agents write
// it (the candidates list it).
const threadIDPattern = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"

func resumeThreadInput() *jsonschema.Schema {
	return closed("The terminal and the conversation to resume in it.", map[string]*jsonschema.Schema{
		"terminal_id": id(prefixTerminal, descTerminal),
		"native_thread_id": {Type: "string", Description: "The conversation's full id exactly as status listed it in " +
			"available_actions.resume_thread.candidates[].native_thread_id.",
			Pattern: threadIDPattern, MinLength: ptr(36), MaxLength: ptr(36)},
	}, "terminal_id", "native_thread_id")
}

func closeInput() *jsonschema.Schema {
	return closed("The Turn to release, and the reason when it settles a handoff decision.", map[string]*jsonschema.Schema{
		"turn_id": id(prefixTurn, descTurn),
		"reason": oneOf("Only to settle a handoff decision status shows (a person switched the conversation): "+
			api.CloseSupersededByHuman+".", api.CloseSupersededByHuman),
	}, "turn_id")
}

func reconcileInput() *jsonschema.Schema {
	return closed("The terminal and the AKK session whose stale binding to detach.", map[string]*jsonschema.Schema{
		"terminal_id":            id(prefixTerminal, descTerminal),
		"conflicting_session_id": id(prefixSession, "The AKK session (ses_…) status names as conflicting."),
	}, "terminal_id", "conflicting_session_id")
}

func inspectInput() *jsonschema.Schema {
	return closed("The terminal whose agent's own status to read, and the inspection (status).", map[string]*jsonschema.Schema{
		"terminal_id": id(prefixTerminal, descTerminal),
		"inspection":  oneOf("The inspection: status (the agent's own status panel).", api.InspectionStatus),
	}, "terminal_id", "inspection")
}
