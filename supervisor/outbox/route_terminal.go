package outbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/agent-knock-knock/akk/store"
)

// terminalRoute raises a notice in the person's own terminal: one write()
// of a whole OSC 9 (or OSC 777) sequence to the tty of every client
// attached to the pane's tmux server. tmux itself never passes such a
// sequence from akk to the outer terminal, and a write of one whole
// sequence is not interleaved with the client's own writes (the tty
// layer serialises each write call), so the terminal parses it whole and
// the client's screen is unchanged: terminals that do not know it ignore
// an OSC.
type terminalRoute struct {
	cfg      RouteConfig
	sessions Sessions
	places   Places
}

func (r terminalRoute) Send(ctx context.Context, n *store.Notification) Delivery {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	client, _ := r.sessions.SessionOf(n.TerminalID)
	if client == nil {
		return Delivery{Outcome: store.NtfPermanent, Detail: "terminal not followed"}
	}
	// Every client of the server: a person attached to another session
	// hears of this agent too.
	ttys, fail := attachedClients(ctx, client, "#{client_tty}")
	if fail != nil {
		return *fail
	}
	seq := oscSequence(r.cfg.OSC, NoticeOf(n, r.places))
	wrote, skipped := 0, 0
	for _, tty := range ttys {
		if err := writeTTY(tty, seq); err != nil {
			skipped++
			continue
		}
		wrote++
	}
	switch {
	case wrote == 0:
		return Delivery{Outcome: store.NtfRetryable, Detail: fmt.Sprintf("no client tty took it (%d)", skipped)}
	case skipped > 0:
		return Delivery{Outcome: store.NtfAccepted, Detail: fmt.Sprintf("%d clients, %d ttys refused", wrote, skipped)}
	}
	return Delivery{Outcome: store.NtfAccepted, Detail: fmt.Sprintf("%d clients", wrote)}
}

// oscSequence is the whole notification sequence, BEL-terminated (every
// terminal that knows these takes BEL; ST is not understood by all).
// The text is clean (NoticeOf): no ESC or BEL can end it early.
func oscSequence(osc string, nt Notice) []byte {
	msg := nt.Title
	if nt.Body != "" {
		msg += " · " + strings.ReplaceAll(nt.Body, "\n", " · ")
	}
	if osc == OSC777 {
		// notify ; title ; body: a ';' in the title would start the body.
		return []byte("\x1b]777;notify;" + strings.ReplaceAll(nt.Title, ";", ",") + ";" +
			strings.ReplaceAll(nt.Body, "\n", " · ") + "\a")
	}
	// ConEmu and Windows Terminal read "9;<digits>;" as a command (9;4 is
	// a progress bar): the message starts with "akk: ", never a digit.
	return []byte("\x1b]9;akk: " + msg + "\a")
}

// writeTTY writes seq to a client's tty in one call. The path comes from
// akk's own tmux server; it must still be a terminal device under /dev,
// opened without becoming akk's controlling terminal and without blocking
// (a terminal stopped with ^S refuses rather than stalls the route).
func writeTTY(path string, seq []byte) error {
	if !strings.HasPrefix(path, "/dev/") {
		return errors.New("not a device path")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return errors.New("not a terminal device")
	}
	// One write call holds the sequence (a pty takes a few hundred bytes
	// at once); the deadline bounds a terminal that stopped reading.
	_ = f.SetWriteDeadline(time.Now().Add(time.Second))
	n, err := f.Write(seq)
	if err == nil && n != len(seq) {
		err = errors.New("short write")
	}
	return err
}
