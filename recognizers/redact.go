package recognizers

import "log/slog"

// A recognition's private parts (DESIGN invariant 8): the fingerprint, the
// key plan, the draft (and the completion naming it), a choice's required
// text, a session picker's titles, a status result's values. LogValue
// and String keep them out of logs; Plan's are in plan.go.

// LogValue of a choice: what it chooses, never its keys or required text.
func (c Choice) LogValue() slog.Value {
	return slog.GroupValue(slog.String("decision", string(c.Decision)), slog.String("question_id", c.QuestionID),
		slog.String("option_id", c.OptionID), slog.Bool("free_text", c.FreeText), slog.Int("steps", len(c.Steps)))
}

// String is LogValue as text.
func (c Choice) String() string { return c.LogValue().String() }

// LogValue of a plan step: its shape, never its keys.
func (s PlanStep) LogValue() slog.Value {
	return slog.GroupValue(slog.Bool("text", s.Text), slog.Int("keys", len(s.Keys)))
}

// String is LogValue as text.
func (s PlanStep) String() string { return s.LogValue().String() }

// LogValue of a recognition: the public states, the draft's length.
func (r *Recognition) LogValue() slog.Value {
	if r == nil {
		return slog.StringValue("recognition(none)")
	}
	kind := ""
	if r.Interaction != nil {
		kind = string(r.Interaction.Kind)
	}
	return slog.GroupValue(slog.String("profile", r.Profile), slog.String("screen", string(r.ScreenState)),
		slog.String("composer", string(r.Composer)), slog.Int("draft_len", r.DraftLen), slog.String("interaction", kind))
}

// String is LogValue as text.
func (r *Recognition) String() string { return r.LogValue().String() }

// LogValue of the id deriver: nothing of its key or fingerprint.
func (d ids) LogValue() slog.Value { return slog.StringValue("ids(redacted)") }

// String is LogValue as text.
func (d ids) String() string { return "ids(redacted)" }

// LogValue of a composer clear: how many key bytes, never which (a plan's
// keys stay private like a Plan's).
func (c Clear) LogValue() slog.Value {
	return slog.GroupValue(slog.Int("keys", len(c.Keys)), slog.Bool("stash", c.Stash))
}

// String is LogValue as text.
func (c Clear) String() string { return c.LogValue().String() }

// LogValue of a session picker: its counts, never a title or detail
// (screen text of the person's sessions).
func (p *Picker) LogValue() slog.Value {
	if p == nil {
		return slog.StringValue("picker(none)")
	}
	return slog.GroupValue(slog.Int("rows", len(p.Rows)), slog.Int("current", p.Current),
		slog.Int("shown", p.Shown), slog.Int("total", p.Total))
}

// String is LogValue as text.
func (p *Picker) String() string { return p.LogValue().String() }

// LogValue of a picker row: the lengths of its texts, never the texts.
func (r PickerRow) LogValue() slog.Value {
	return slog.GroupValue(slog.Int("title_len", len([]rune(r.Title))), slog.Int("detail_len", len([]rune(r.Detail))),
		slog.Bool("truncated", r.Truncated))
}

// String is LogValue as text.
func (r PickerRow) String() string { return r.LogValue().String() }

// LogValue of a status result: its counts, never a name or value (screen
// text: paths, session ids).
func (p *StatusPanel) LogValue() slog.Value {
	if p == nil {
		return slog.StringValue("status(none)")
	}
	redacted := 0
	for _, f := range p.Fields {
		if f.Redacted {
			redacted++
		}
	}
	return slog.GroupValue(slog.Int("fields", len(p.Fields)), slog.Int("redacted", redacted))
}

// String is LogValue as text.
func (p *StatusPanel) String() string { return p.LogValue().String() }

// LogValue of a status row: the lengths of its texts, never the texts.
func (f StatusField) LogValue() slog.Value {
	return slog.GroupValue(slog.Int("name_len", len([]rune(f.Name))), slog.Int("value_len", len([]rune(f.Value))),
		slog.Bool("redacted", f.Redacted))
}

// String is LogValue as text.
func (f StatusField) String() string { return f.LogValue().String() }
