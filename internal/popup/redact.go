package popup

import "log/slog"

// What the person types into the popup stays on their screen: a model's
// LogValue and String give its shape only.

// LogValue of the list popup's model.
func (m Model) LogValue() slog.Value {
	return slog.GroupValue(slog.Int("items", len(m.Items)), slog.Int("sel", m.Sel), slog.Bool("typing", m.Typing),
		slog.Int("text_len", len(m.Text)), slog.Bool("busy", m.Busy))
}

// String is LogValue as text.
func (m Model) String() string { return m.LogValue().String() }

// LogValue of the ask popup's model.
func (m AskModel) LogValue() slog.Value {
	return slog.GroupValue(slog.String("request_id", m.Req.RequestID), slog.Int("text_len", len(m.Text)),
		slog.Bool("answered", m.Answer != nil), slog.Bool("quit", m.Quit))
}

// String is LogValue as text.
func (m AskModel) String() string { return m.LogValue().String() }
