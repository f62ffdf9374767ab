// Package vt is akk's VT/xterm screen model: a streaming parser on the
// DEC/Paul Williams state diagram, a screen of cells whose text, width and
// style match what tmux 3.3a shows for the same byte stream, a bounded
// scrollback, and exact styled fingerprints of screen regions.
//
// tmux is the reference, not xterm: the person looking at a pane sees
// tmux's grid, so the model follows tmux 3.3a's input.c, screen-write.c and
// grid.c, quirks included (they are noted where they are implemented), and
// is proven against a real tmux by the differential tests in this package
// (oracle_test.go, testdata/regress). Where tmux ignores a sequence that
// xterm acts on, so does the model: CHT, DECSTR, DECSET 1048 and 2026 are
// parsed and ignored. Character widths come from the same C library
// functions tmux uses (width_table.go, generated).
//
// The model is fed with Write, any bytes split anywhere; it never fails
// and never panics on pane output. A Screen is not safe for concurrent use.
//
// What vt does not do: no I/O and no knowledge of agents or of tmux control
// mode (see controlmode); no answers to terminal queries (DA, DSR, DECRQM:
// tmux answers the pane); no emulation of tmux's reflow of wrapped lines on
// a width change (callers re-seed from tmux after a resize); no escape
// timeout (tmux returns a stuck string state to ground after a few
// seconds); OSC 8 hyperlinks are kept on cells although tmux 3.3a drops them.
package vt
