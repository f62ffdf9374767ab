package terminal

import (
	"log/slog"

	"github.com/agent-knock-knock/akk/internal/procid"
)

// Diagnosis is what a test or a person's diagnosis reads of a pane beyond
// its row: the whole screen (drafts included: never logged, never in the
// contract), the identity read and its re-read schedule.
type Diagnosis struct {
	PanePID    int
	Ident      *procid.Identity // a copy; nil before the first read
	Rechecks   int              // re-reads asked after inconclusive reads
	RecheckDue bool
	// FgReports counts tmux's reports of a new foreground command (the
	// subscription polls about once a second).
	FgReports  int64
	Bytes      int64 // %output taken so far
	HasScreen  bool
	Width      int
	Height     int
	Text, ANSI string // the whole screen
}

// Diagnose reads the pane now.
func (m *Pane) Diagnose() Diagnosis {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := Diagnosis{PanePID: m.key.PanePID, Rechecks: m.identRecheck.attempts, RecheckDue: m.recheckDue.Load(),
		FgReports: m.fgReports.Load()}
	if m.ident != nil {
		cp := *m.ident
		d.Ident = &cp
	}
	if m.mirror == nil {
		return d
	}
	d.Bytes = m.mirror.Bytes
	if scr := m.mirror.Screen(); scr != nil {
		d.HasScreen = true
		d.Width, d.Height = scr.Size()
		d.Text, d.ANSI = scr.PlainText(scr.Bounds()), scr.ANSI(scr.Bounds())
	}
	return d
}

// LogValue of a diagnosis: never the screen's text.
func (d Diagnosis) LogValue() slog.Value {
	return slog.GroupValue(slog.Int("pane_pid", d.PanePID), slog.Int("rechecks", d.Rechecks),
		slog.Int64("bytes", d.Bytes), slog.Int("width", d.Width), slog.Int("height", d.Height))
}

// String is LogValue as text.
func (d Diagnosis) String() string { return d.LogValue().String() }

// LogValue of an Env: the server, never the secret or the id key.
func (e *Env) LogValue() slog.Value {
	return slog.GroupValue(slog.String("socket", e.Server.Socket), slog.Int("server_pid", e.Server.PID))
}

// String is LogValue as text.
func (e *Env) String() string { return e.LogValue().String() }
