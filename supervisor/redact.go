package supervisor

import "log/slog"

// The daemon's private values (DESIGN invariant 8): an offer's and a
// recognition's fingerprint and key plan, an action's answer text. Their
// LogValue and String never carry them; a log line names ids and states.

// LogValue of an offer: whose, for what, until when.
func (o *offer) LogValue() slog.Value {
	if o == nil {
		return slog.StringValue("offer(none)")
	}
	return slog.GroupValue(slog.String("controller", o.controller), slog.String("terminal_id", o.terminalID),
		slog.String("interaction_id", o.interactionID), slog.String("kind", o.kind),
		slog.Time("expires", o.expires), slog.Bool("plan", o.plan != nil))
}

// String is LogValue as text.
func (o *offer) String() string { return o.LogValue().String() }

// LogValue of a recognition: its public states only.
func (r recognition) LogValue() slog.Value {
	kind := ""
	if r.Interaction != nil {
		kind = string(r.Interaction.Kind)
	}
	return slog.GroupValue(slog.String("screen", r.Screen), slog.String("composer", r.Composer),
		slog.Int("draft_len", r.DraftLen), slog.String("interaction", kind), slog.String("recognizer", r.Recognizer))
}

// String is LogValue as text.
func (r recognition) String() string { return r.LogValue().String() }

// LogValue of an action: the operation and its subject; the answer as its
// own redacted value.
func (a action) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("op", a.op), slog.String("controller", a.controller),
		slog.String("turn_id", a.turnID), slog.String("watch_id", a.watchID), slog.String("terminal_id", a.terminalID),
		slog.String("interaction_id", a.interactionID), slog.String("decision", a.decision)}
	if a.answer != nil {
		attrs = append(attrs, slog.Any("answer", a.answer.LogValue()))
	}
	return slog.GroupValue(attrs...)
}

// String is LogValue as text.
func (a action) String() string { return a.LogValue().String() }
