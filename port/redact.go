package port

import "log/slog"

// A person's answer never enters a log or an error message: its length
// only (DESIGN invariant 8).

// LogValue of a response file's content.
func (r Response) LogValue() slog.Value {
	return slog.GroupValue(slog.String("request_id", r.RequestID), slog.Int("answer_len", len(r.Answer)))
}

// String is LogValue as text.
func (r Response) String() string { return r.LogValue().String() }

// LogValue of a race's answer.
func (a Answer) LogValue() slog.Value {
	return slog.GroupValue(slog.Int("port", a.Port), slog.Int("text_len", len(a.Text)))
}

// String is LogValue as text.
func (a Answer) String() string { return a.LogValue().String() }
