package controlmode

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// PaneInfo is what tmux says about a pane.
type PaneInfo struct {
	Pane       PaneID
	Window     WindowID
	Session    SessionID
	PID        int    // the process tmux spawned in the pane
	TTY        string // /dev/pts/N
	Width      int
	Height     int
	InMode     bool // copy or view mode: send-keys would go to the mode
	Dead       bool
	DeadStatus int
	// CurrentCommand and CurrentPath belong to the pane's foreground
	// process group (tmux reads them from the pty).
	CurrentCommand string
	CurrentPath    string
}

var paneFields = []string{"pane_id", "window_id", "session_id", "pane_pid", "pane_tty", "pane_width",
	"pane_height", "pane_in_mode", "pane_dead", "pane_dead_status", "pane_current_command", "pane_current_path"}

// paneFormat separates fields with tabs; the path is last and may itself
// hold tabs.
var paneFormat = func() string {
	parts := make([]string, len(paneFields))
	for i, f := range paneFields {
		parts[i] = "#{" + f + "}"
	}
	return strings.Join(parts, "\t")
}()

// Panes lists the panes of the attached session: the panes whose output
// this client receives.
func (c *Client) Panes(ctx context.Context) ([]PaneInfo, error) {
	target := c.cfg.Session
	if s := c.Session(); s != NoSession {
		target = s.String()
	}
	r, err := c.Command(ctx, "list-panes", "-s", "-t", target, "-F", paneFormat)
	if err != nil {
		return nil, err
	}
	var out []PaneInfo
	for _, l := range r.Lines() {
		p, err := parsePaneInfo(l)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// PaneInfo asks tmux about one pane.
func (c *Client) PaneInfo(ctx context.Context, pane PaneID) (PaneInfo, error) {
	r, err := c.Command(ctx, "display-message", "-p", "-t", pane.String(), paneFormat)
	if err != nil {
		if isPaneGone(err) {
			return PaneInfo{}, fmt.Errorf("%w: %v: %w", ErrPaneGone, pane, err)
		}
		return PaneInfo{}, err
	}
	line := strings.TrimSuffix(string(r.Body), "\n")
	p, err := parsePaneInfo(line)
	if (err == nil && p.Pane != pane) || strings.HasPrefix(line, "\t") {
		// display-message falls back to the current pane (or none) when
		// its target is missing (CMD_FIND_CANFAIL): not this pane's answer.
		return PaneInfo{}, fmt.Errorf("%w: %v", ErrPaneGone, pane)
	}
	return p, err
}

func parsePaneInfo(line string) (PaneInfo, error) {
	f := strings.SplitN(line, "\t", len(paneFields))
	if len(f) != len(paneFields) {
		return PaneInfo{}, fmt.Errorf("%w: pane line %q", ErrProtocol, line)
	}
	var p PaneInfo
	var errs [4]error
	p.Pane, errs[0] = ParsePaneID(f[0])
	p.Window, errs[1] = ParseWindowID(f[1])
	p.Session, errs[2] = ParseSessionID(f[2])
	nums := []*int{&p.PID, nil, &p.Width, &p.Height, nil, nil, &p.DeadStatus}
	for i, dst := range nums {
		if dst == nil {
			continue
		}
		v := f[3+i]
		if v == "" && dst == &p.DeadStatus {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			errs[3] = fmt.Errorf("%w: %s=%q", ErrProtocol, paneFields[3+i], v)
		}
		*dst = n
	}
	for _, err := range errs {
		if err != nil {
			return PaneInfo{}, err
		}
	}
	p.TTY, p.InMode, p.Dead = f[4], f[7] == "1", f[8] == "1"
	p.CurrentCommand, p.CurrentPath = f[10], f[11]
	return p, nil
}
