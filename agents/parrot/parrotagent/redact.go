package main

import (
	"fmt"
	"log/slog"
)

// What the person typed (the draft, a prompt, the history's text) never
// prints: these say only its kind and length (DESIGN invariant 8).

func (a *app) String() string {
	return fmt.Sprintf("parrot(draft %d chars, %d lines, asking %v)", len(a.draft), len(a.lines), a.asking != "")
}

func (a *app) LogValue() slog.Value { return slog.StringValue(a.String()) }

func (l line) String() string { return fmt.Sprintf("line(%d bytes)", len(l.text)+len(l.rest)) }

func (l line) LogValue() slog.Value { return slog.StringValue(l.String()) }

func (r record) String() string {
	n := 0
	if r.Text != nil {
		n = len(*r.Text)
	}
	return fmt.Sprintf("record(%s %s, text %d bytes)", r.Type, r.Turn, n)
}

func (r record) LogValue() slog.Value { return slog.StringValue(r.String()) }
