package dispatch

import "log/slog"

// The private values of dispatch (DESIGN invariant 8): an offer's
// fingerprint and key plan, an action's answer text (terminal.Recognition
// redacts its own). Their LogValue and String never carry them; a log line
// names ids and states.

// LogValue of an offer: whose, for what, until when.
func (o *offer) LogValue() slog.Value {
	if o == nil {
		return slog.StringValue("offer(none)")
	}
	return slog.GroupValue(slog.String("controller", o.controller), slog.String("terminal_id", o.terminalID),
		slog.String("interaction_id", o.interactionID), slog.String("kind", string(o.kind)),
		slog.Time("expires", o.expires), slog.Bool("plan", o.plan != nil))
}

// String is LogValue as text.
func (o *offer) String() string { return o.LogValue().String() }

// LogValue of an action: the operation and its subject; the answer as its
// own redacted value.
func (a action) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("op", a.op), slog.String("controller", a.controller),
		slog.String("turn_id", a.turnID), slog.String("watch_id", a.watchID), slog.String("terminal_id", a.terminalID),
		slog.String("interaction_id", a.interactionID), slog.String("decision", string(a.decision))}
	if a.answer != nil {
		attrs = append(attrs, slog.Any("answer", a.answer.LogValue()))
	}
	return slog.GroupValue(attrs...)
}

// String is LogValue as text.
func (a action) String() string { return a.LogValue().String() }

// LogValue of a Config: never the secret.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.Bool("secret", len(c.Secret) > 0))
}

// String is LogValue as text.
func (c Config) String() string { return c.LogValue().String() }
