// Package vt is akk's VT/xterm screen model: a streaming parser that follows
// the DEC/Paul Williams state diagram, a screen of cells whose text, width and
// tcell-based Style match what tmux 3.3a shows for the same byte stream, a
// bounded scrollback, and exact styled fingerprints of screen regions.
//
// vt does no I/O and knows nothing of agents or tmux control mode. It does
// not answer terminal queries (DA, DSR, DECRQM): tmux answers the pane, not
// us. It does not emulate tmux's reflow on resize beyond what tmux itself
// does to the grid; callers re-seed from tmux after a resize.
package vt
