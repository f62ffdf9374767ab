package vt

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/internal/tmuxtest"
)

// tmuxRig runs byte streams through panes of one isolated tmux server and
// reads back what tmux made of them. Each stream gets a fresh session of
// its own size, so streams are independent and can run concurrently.
type tmuxRig struct {
	srv *tmuxtest.Server
	dir string
	seq atomic.Int64
}

// newTmuxRig starts the server. Its "main" session only keeps the server
// alive between streams.
func newTmuxRig(t testing.TB) *tmuxRig {
	t.Helper()
	srv := tmuxtest.Start(t, 80, 24, "exec cat >/dev/null")
	srv.MustRun("set-option", "-g", "history-limit", strconv.Itoa(oracleHistory))
	return &tmuxRig{srv: srv, dir: t.TempDir()}
}

// oracleHistory is the scrollback both tmux and the model keep in oracle
// tests: more than any generated stream scrolls, because tmux trims its
// history by a tenth at a time when full and the model's ring by single
// lines, and the two need not agree on that.
const oracleHistory = 50000

// newModel returns a model configured like the oracle's tmux panes.
func newModel(width, height int) *Screen {
	return New(width, height, Options{Scrollback: oracleHistory})
}

// tmuxView is tmux's view of a pane after a stream: the capture plus the
// cursor and modes from a display-message run in the same command queue
// pass, so both describe the same moment.
type tmuxView struct {
	Capture       []byte // capture-pane -p -e -N -S - -E -: History lines, then the screen
	History       int    // lines of history before the screen in Capture
	Width, Height int
	CursorX       int // may equal Width: pending wrap
	CursorY       int
	CursorVisible bool
	Alternate     bool
	Insert        bool
	Origin        bool
	Wrap          bool
	ScrollTop     int
	ScrollBottom  int
	Title         string
	Marker        []byte // the sync marker written after the stream
}

// viewFormat is the display-message format behind tmuxView. pane_path comes
// first: it carries the sync marker (see syncMarker); the title comes last
// because it may contain the separator.
const viewFormat = "#{pane_path}|#{pane_width}|#{pane_height}|#{cursor_x}|#{cursor_y}|" +
	"#{cursor_flag}|#{alternate_on}|#{insert_flag}|#{origin_flag}|#{wrap_flag}|" +
	"#{scroll_region_upper}|#{scroll_region_lower}|#{history_size}|#{pane_title}"

// syncMarker is written after the stream. tmux may still be reading the pty
// when the pane program signals completion, so the capture is only trusted
// once pane_path shows the marker: then every byte before it was parsed.
// CAN ends any sequence the stream left open, except a DCS string, which
// only ST ends; ESC \ then is an ST that does nothing in ground state. None
// of this touches cells or the cursor, and the model is fed the stream
// without it. Streams must not use OSC 7 themselves.
func syncMarker(n int64) (marker []byte, path string) {
	path = fmt.Sprintf("akk-sync-%d", n)
	return []byte("\x18\x1b\\\x1b]7;" + path + "\a"), path
}

// Run writes stream into a fresh width x height pane through a raw tty and
// returns tmux's view of it.
func (r *tmuxRig) Run(ctx context.Context, stream []byte, width, height int) (*tmuxView, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		v, retry, err := r.runOnce(ctx, stream, width, height)
		if err == nil {
			return v, nil
		}
		lastErr = err
		if !retry {
			break
		}
	}
	return nil, lastErr
}

func (r *tmuxRig) runOnce(ctx context.Context, stream []byte, width, height int) (v *tmuxView, retry bool, err error) {
	n := r.seq.Add(1)
	marker, path := syncMarker(n)
	var files []string
	for k, piece := range pieces(append(append([]byte(nil), stream...), marker...)) {
		file := filepath.Join(r.dir, fmt.Sprintf("s%d.%d.bin", n, k))
		if err := os.WriteFile(file, piece, 0o600); err != nil {
			return nil, false, fmt.Errorf("write stream: %w", err)
		}
		defer os.Remove(file)
		files = append(files, shellQuote(file))
	}
	channel := fmt.Sprintf("akk-done-%d", n)
	// The pane must see the bytes unchanged: no output post-processing
	// (ONLCR would turn LF into CRLF), no echo of tmux's replies to queries.
	// Pieces go out a little apart, so that tmux reads each whole (see
	// pieces). The pane then stays alive reading its tty, because a dead
	// pane gets tmux's "Pane is dead" line written over the screen.
	paneCmd := fmt.Sprintf("stty raw -echo -opost -onlcr && for f in %s; do cat $f; sleep 0.02; done; "+
		"tmux -S %s wait-for -S %s; exec cat >/dev/null",
		strings.Join(files, " "), shellQuote(r.srv.Socket), channel)
	session := fmt.Sprintf("s%d", n)
	out, err := r.tmux(ctx, "new-session", "-d", "-P", "-F", "#{pane_id}", "-s", session,
		"-x", strconv.Itoa(width), "-y", strconv.Itoa(height), paneCmd)
	if err != nil {
		return nil, false, err
	}
	pane := strings.TrimSpace(string(out))
	defer r.tmux(context.Background(), "kill-session", "-t", session) //nolint:errcheck // best effort
	if _, err := r.tmux(ctx, "wait-for", channel); err != nil {
		return nil, false, err
	}
	for try := 0; try < 50; try++ {
		out, err = r.tmux(ctx, "capture-pane", "-p", "-e", "-N", "-S", "-", "-E", "-", "-t", pane, ";",
			"display-message", "-p", "-t", pane, viewFormat)
		if err != nil {
			return nil, false, err
		}
		v, gotPath, err := parseView(out, height)
		if err != nil {
			return nil, false, err
		}
		if gotPath == path {
			v.Marker = marker
			if v.Width != width || v.Height != height {
				return nil, false, fmt.Errorf("pane is %dx%d, want %dx%d", v.Width, v.Height, width, height)
			}
			return v, false, nil
		}
		time.Sleep(time.Duration(try+1) * time.Millisecond)
	}
	return nil, true, fmt.Errorf("pane %s never showed sync marker %q", pane, path)
}

// initialTitle returns the title tmux gives a new pane (the host name).
func (r *tmuxRig) initialTitle(t testing.TB) string {
	t.Helper()
	out, err := r.tmux(context.Background(), "display-message", "-p", "-t", "main", "#{pane_title}")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// maxPiece is the largest piece of a stream written to the pane at once:
// below libevent's 4096-byte read size, so tmux reads each piece whole.
const maxPiece = 3500

// pieces cuts a long stream into pieces for the pane to write apart. tmux
// forgets a pending zero width joiner between two reads (see
// joinerRetries), so where its reads fall matters; written at once, a long
// stream is read in slices that end anywhere. A joiner stays pending until
// the next character tmux writes cell by cell, which plain ASCII is not, so
// a piece never ends while the last non-ASCII character before its end is
// a joiner (unless no such place exists in its second half; then the
// reruns of joinerRetries are the fallback).
func pieces(data []byte) [][]byte {
	if !bytes.Contains(data, []byte("\u200d")) {
		return [][]byte{data} // no joiner: where tmux's reads fall cannot matter
	}
	var out [][]byte
	for len(data) > maxPiece {
		end := maxPiece
		for end > maxPiece/2 && joinerPending(data[:end]) {
			end--
		}
		out = append(out, data[:end])
		data = data[end:]
	}
	return append(out, data)
}

// joinerPending reports whether the last complete non-ASCII character in b
// is a zero width joiner.
func joinerPending(b []byte) bool {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xc2 || b[i] > 0xf4 {
			continue // ASCII, a continuation byte or a byte that starts nothing
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError || i+size > len(b) {
			continue
		}
		return r == zeroWidthJoiner
	}
	return false
}

// tmux runs one tmux command line on the rig's server.
func (r *tmuxRig) tmux(ctx context.Context, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return r.srv.RunContext(ctx, args...)
}

// parseView splits the output of `capture-pane ; display-message`: height
// capture lines, then the display line.
func parseView(out []byte, height int) (*tmuxView, string, error) {
	out = bytes.TrimSuffix(out, []byte("\n"))
	i := bytes.LastIndexByte(out, '\n')
	if i < 0 {
		return nil, "", fmt.Errorf("no capture before display line in %q", out)
	}
	capture, line := out[:i+1], string(out[i+1:])
	f := strings.SplitN(line, "|", 14)
	if len(f) != 14 {
		return nil, "", fmt.Errorf("display line %q: want 14 fields", line)
	}
	var nums [12]int
	for k := 1; k <= 12; k++ {
		n, err := strconv.Atoi(f[k])
		if err != nil {
			return nil, "", fmt.Errorf("display line %q: field %d: %w", line, k, err)
		}
		nums[k-1] = n
	}
	v := &tmuxView{
		Capture: capture, Width: nums[0], Height: nums[1],
		CursorX: nums[2], CursorY: nums[3], CursorVisible: nums[4] == 1,
		Alternate: nums[5] == 1, Insert: nums[6] == 1, Origin: nums[7] == 1, Wrap: nums[8] == 1,
		ScrollTop: nums[9], ScrollBottom: nums[10], History: nums[11], Title: f[13],
	}
	if got := bytes.Count(capture, []byte("\n")); got != v.History+height {
		return nil, "", fmt.Errorf("capture has %d lines, want %d of history and %d of screen", got, v.History, height)
	}
	return v, f[0], nil
}

// parse reads the capture: history rows first, then the screen rows.
func (v *tmuxView) parse() (*Capture, error) {
	return ParseCapture(v.Capture, v.Width, v.History+v.Height)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
