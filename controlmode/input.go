package controlmode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"unicode/utf8"
)

// Input primitives. Each returns after tmux's %end for its command line:
// the bytes are queued on the pane's pty, not yet read by the program
// (the caller proves delivery from the screen). A pane in copy or view
// mode (Seed.InMode, PaneInfo.InMode) takes send-keys itself: check first.
//
// Limits from the research (§2, §8): send-keys -H with 10 000 arguments
// fails with "yacc stack overflow", so bytes go in commands of
// maxHexArgs; one send-keys -l argument of 1 MB works.

const (
	maxHexArgs   = 1000
	maxTextBytes = 1 << 20
)

// SendKeys sends tmux key names (Enter, Escape, Tab, C-u, BSpace, Up,
// F1, M-x, ...) as one command; tmux translates them for the pane's
// current modes (Up depends on DECCKM). Names are checked to be plain key
// names, never text.
func (c *Client) SendKeys(ctx context.Context, pane PaneID, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	for _, k := range keys {
		if !isKeyName(k) {
			return fmt.Errorf("%w: key name %q", ErrBadArgument, k)
		}
	}
	_, err := c.Exec(ctx, append(Cmd{"send-keys", "-t", pane.String()}, keys...))
	return err
}

// isKeyName accepts tmux key names: modifiers (C-, M-, S-) and a name of
// letters and digits, or one printable ASCII character other than space
// after a modifier.
func isKeyName(k string) bool {
	for len(k) > 2 && (k[0] == 'C' || k[0] == 'M' || k[0] == 'S') && k[1] == '-' {
		k = k[2:]
	}
	if len(k) == 1 {
		return k[0] > ' ' && k[0] < 0x7f
	}
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// SendText sends text literally (send-keys -l), as typed characters. It
// must be valid UTF-8 without control characters (use SendBytes or
// SendKeys for those) and at most 1 MiB.
func (c *Client) SendText(ctx context.Context, pane PaneID, text string) error {
	if text == "" {
		return nil
	}
	if err := checkText(text, false); err != nil {
		return err
	}
	_, err := c.Exec(ctx, Cmd{"send-keys", "-t", pane.String(), "-l", text})
	return err
}

func checkText(text string, newlines bool) error {
	if len(text) > maxTextBytes {
		return fmt.Errorf("%w: text of %d bytes (max %d)", ErrBadArgument, len(text), maxTextBytes)
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("%w: text is not UTF-8", ErrBadArgument)
	}
	for i := 0; i < len(text); i++ {
		if b := text[i]; (b < ' ' && !(newlines && (b == '\n' || b == '\t'))) || b == 0x7f {
			return fmt.Errorf("%w: control byte %#02x in text", ErrBadArgument, b)
		}
	}
	return nil
}

// SendBytes sends exact bytes (send-keys -H), whatever they are: NUL,
// ESC, invalid UTF-8. Several commands, if needed, go on one line, so the
// bytes are queued together.
func (c *Client) SendBytes(ctx context.Context, pane PaneID, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	var cmds []Cmd
	for len(b) > 0 {
		n := min(len(b), maxHexArgs)
		cmd := make(Cmd, 0, 4+n)
		cmd = append(cmd, "send-keys", "-t", pane.String(), "-H")
		for _, x := range b[:n] {
			cmd = append(cmd, hex.EncodeToString([]byte{x}))
		}
		cmds = append(cmds, cmd)
		b = b[n:]
	}
	_, err := c.Exec(ctx, cmds...)
	return err
}

// Paste puts text into the pane as one paste: a uniquely named buffer is
// set and pasted with paste-buffer -p -r -d on one command line, so the
// program sees it bracketed (ESC[200~ ... ESC[201~) if it enabled
// bracketed paste, with LF kept (not turned into CR), and the buffer is
// deleted. paste-buffer writes to the pty directly, even in copy mode.
// Text must be valid UTF-8; newlines and tabs are allowed, other control
// characters are not.
func (c *Client) Paste(ctx context.Context, pane PaneID, text string) error {
	if text == "" {
		return nil
	}
	if err := checkText(text, true); err != nil {
		return err
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	name := "akk-paste-" + hex.EncodeToString(id[:])
	_, err := c.Exec(ctx,
		Cmd{"set-buffer", "-b", name, "--", text},
		Cmd{"paste-buffer", "-p", "-r", "-d", "-b", name, "-t", pane.String()},
	)
	if err != nil {
		// A failed paste leaves the buffer behind: remove it, best effort.
		_, _ = c.Exec(ctx, Cmd{"delete-buffer", "-b", name})
	}
	return err
}
