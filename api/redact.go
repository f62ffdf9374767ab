package api

import "log/slog"

// Types that carry text a person or a controller typed (answers, tasks) or
// what a screen shows: their LogValue and String keep it out of logs and
// error messages (DESIGN invariant 8), lengths and ids only. JSON is not
// affected: the wire carries the text where the contract says so.

// LogValue of an answer: its ids and the length of its text.
func (a Answer) LogValue() slog.Value {
	return slog.GroupValue(slog.String("question_id", a.QuestionID), slog.String("response_kind", string(a.ResponseKind)),
		slog.Any("selected_option_ids", a.SelectedOptionIDs), slog.Int("text_len", len(a.Text)))
}

// String is LogValue as text.
func (a Answer) String() string { return a.LogValue().String() }

// LogValue of a response: its subject and each answer's LogValue.
func (r RespondRequest) LogValue() slog.Value {
	answers := make([]slog.Value, len(r.Answers))
	for i, a := range r.Answers {
		answers[i] = a.LogValue()
	}
	return slog.GroupValue(slog.String("turn_id", r.TurnID), slog.String("watch_id", r.WatchID),
		slog.String("terminal_id", r.TerminalID), slog.String("interaction_id", r.InteractionID),
		slog.Any("answers", answers), slog.String("delivery_mode", string(r.DeliveryMode)))
}

// String is LogValue as text.
func (r RespondRequest) String() string { return r.LogValue().String() }

// LogValue of a send: its target and the length of the task.
func (r SendRequest) LogValue() slog.Value {
	return slog.GroupValue(slog.String("session_id", r.SessionID), slog.String("terminal_id", r.TerminalID),
		slog.String("mode", r.Mode), slog.Int("request_len", len(r.Request)), slog.String("message_id", r.MessageID))
}

// String is LogValue as text.
func (r SendRequest) String() string { return r.LogValue().String() }

// LogValue of an answer: its Turn and the length of the reply.
func (r AnswerRequest) LogValue() slog.Value {
	return slog.GroupValue(slog.String("turn_id", r.TurnID), slog.Int("request_len", len(r.Request)))
}

// String is LogValue as text.
func (r AnswerRequest) String() string { return r.LogValue().String() }

// LogValue of a prompt region: its rows, not what they show (a draft may
// be among them).
func (p PromptRegion) LogValue() slog.Value {
	return slog.GroupValue(slog.Int("top", p.Top), slog.Int("bottom", p.Bottom), slog.Int("text_len", len(p.Text)))
}

// String is LogValue as text.
func (p PromptRegion) String() string { return p.LogValue().String() }
