package controlmode

import (
	"fmt"
	"strings"
)

// InputGate is what tmux would do with a key sent to a pane now. A key
// reaches the pane's program only when the pane shows no mode, takes
// input and copies it nowhere else: measured on tmux 3.3a, send-keys to a
// pane in copy-mode moves copy-mode's cursor (an `f` opens its jump
// prompt on the person's status line), a pane after `select-pane -d`
// drops it silently, and with synchronize-panes on, `send-keys -l` and
// `send-keys -H` to one pane reach every pane of the window that has the
// option on too (paste-buffer -p reaches only its target, but brackets
// keys as a paste for a program that asked for bracketed paste).
type InputGate struct {
	Pane PaneID
	// Mode is #{pane_mode}: "copy-mode", "view-mode", "tree-mode",
	// "client-mode", "buffer-mode"...; "" when the pane shows its own
	// screen.
	Mode         string
	InMode       bool // #{pane_in_mode}
	InputOff     bool // #{pane_input_off}: select-pane -d
	Synchronized bool // #{pane_synchronized}: the pane option synchronize-panes
}

// Open reports whether a key sent now would reach the pane's program
// and no other pane.
func (g InputGate) Open() bool { return !g.InMode && !g.InputOff && !g.Synchronized }

// gateFormat: the mode comes last, since it is the only field that may be
// empty.
const gateFormat = "#{pane_id} #{pane_in_mode} #{pane_input_off} #{pane_synchronized} #{pane_mode}"

// GateCmd asks for pane's InputGate (display-message: it runs in order
// with the client's other commands, so its answer is also a barrier).
func GateCmd(pane PaneID) Cmd {
	return Cmd{"display-message", "-p", "-t", pane.String(), gateFormat}
}

// ParseGate reads the reply of GateCmd for pane.
func ParseGate(pane PaneID, r *Reply) (InputGate, error) {
	if r == nil {
		return InputGate{}, fmt.Errorf("%w: gate of %v: no reply", ErrProtocol, pane)
	}
	line := strings.TrimSuffix(string(r.Body), "\n")
	f := strings.SplitN(line, " ", 5)
	if len(f) != 5 {
		return InputGate{}, fmt.Errorf("%w: gate of %v: %q", ErrProtocol, pane, line)
	}
	p, err := ParsePaneID(f[0])
	if err != nil || p != pane {
		return InputGate{}, fmt.Errorf("%w: gate of %v describes %q", ErrProtocol, pane, f[0])
	}
	var flags [3]bool
	for i, s := range f[1:4] {
		switch s {
		case "0":
		case "1":
			flags[i] = true
		default:
			return InputGate{}, fmt.Errorf("%w: gate of %v: flag %q", ErrProtocol, pane, s)
		}
	}
	return InputGate{Pane: p, InMode: flags[0], InputOff: flags[1], Synchronized: flags[2], Mode: f[4]}, nil
}
