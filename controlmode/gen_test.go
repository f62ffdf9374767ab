package controlmode

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the program that runs in panes:
// AKK_CM_HELPER=<name> selects a helper (see TestMain).

func TestMain(m *testing.M) {
	if h := os.Getenv("AKK_CM_HELPER"); h != "" {
		runHelper(h, os.Args[1:])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helperCmd is the shell command that runs helper name with args in a
// pane. The pane's tty is put in raw mode without echo first, so that the
// bytes the helper writes reach tmux unchanged and input is not echoed.
func helperCmd(name string, args ...string) string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("stty raw -echo; AKK_CM_HELPER=%s exec '%s' %s", name, exe, strings.Join(args, " "))
}

func runHelper(name string, args []string) {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	arg := func(i int) int64 {
		n, _ := strconv.ParseInt(args[i], 10, 64)
		return n
	}
	switch name {
	case "bytes": // wait for a byte, write byteStream(seed), block
		waitByte()
		out.Write(byteStream(uint64(arg(0))))
		out.Flush()
	case "agent": // wait for a byte, write agentStream(seed, n) in 32 KiB writes, block
		waitByte()
		out.Write(agentStream(uint64(arg(0)), int(arg(1))))
		out.Flush()
	case "busy": // write agent units one write each, paced, for ever
		r := rand.New(rand.NewPCG(uint64(arg(0)), 7))
		for i := 0; ; i++ {
			os.Stdout.Write(agentUnit(r, i))
			time.Sleep(time.Duration(arg(1)) * time.Microsecond)
		}
	case "ticker": // write "T<unixnano>\r\n" every arg(1) µs, arg(0) times, after a byte
		waitByte()
		for i := int64(0); i < arg(0); i++ {
			fmt.Fprintf(os.Stdout, "T%d\r\n", time.Now().UnixNano())
			time.Sleep(time.Duration(arg(1)) * time.Microsecond)
		}
	case "script": // for each hex-encoded arg: wait for a byte, write it
		for _, a := range args {
			b, _ := hex.DecodeString(a)
			waitByte()
			os.Stdout.Write(b)
		}
	case "echo": // copy stdin to a file (arg is the path), byte for byte
		f, err := os.Create(args[0])
		if err != nil {
			os.Exit(1)
		}
		buf := make([]byte, 64<<10)
		for {
			n, err := os.Stdin.Read(buf)
			f.Write(buf[:n])
			f.Sync()
			if err != nil {
				return
			}
		}
	}
	block()
}

func waitByte() {
	var b [1]byte
	os.Stdin.Read(b[:])
}

// block keeps the pane's process alive: tmux discards the queued output
// of a pane whose process has exited (control_write_pending, wp->fd == -1).
func block() {
	buf := make([]byte, 1024)
	for {
		if _, err := os.Stdin.Read(buf); err != nil {
			time.Sleep(time.Hour)
		}
	}
}

// byteStream is every byte value, then random bytes, random UTF-8 and
// random escape sequences: what test 1 (byte exactness) sends.
func byteStream(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b []byte
	for i := 0; i < 256; i++ {
		b = append(b, byte(i))
	}
	for i := 0; i < 256; i++ {
		b = append(b, byte(255-i), '\\', byte(i))
	}
	for i := 0; i < 64<<10; i++ {
		b = append(b, byte(r.IntN(256)))
	}
	runes := []rune("é世界🎉\u0301\u200d👩‍💻ßΩж\u00a0\ufeff")
	for i := 0; i < 4000; i++ {
		switch r.IntN(4) {
		case 0:
			b = append(b, string(runes[r.IntN(len(runes))])...)
		case 1:
			b = fmt.Appendf(b, "\x1b[%d;%dm", r.IntN(110), r.IntN(50))
		case 2:
			b = append(b, []string{"\x1b[2K", "\x1b[H", "\x1b[?25l", "\x1b[?25h", "\x1b]0;title\x07", "\r\n", "\x1b(0qq\x1b(B", "\\033", "\x1b7", "\x1b8"}[r.IntN(10)]...)
		default:
			b = append(b, byte(r.IntN(0x5f)+0x20))
		}
	}
	// Leave the terminal in a sane state for the screen (not compared).
	return append(b, "\x1b[0m\x1b[?25h\r\nEND\r\n"...)
}

// agentStream is n bytes (at least) of agent-style output.
func agentStream(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	var b []byte
	for i := 0; len(b) < n; i++ {
		b = append(b, agentUnit(r, i)...)
	}
	return b
}

var (
	agentWords = strings.Fields("Read Edit Bash Grep the file main.go to add controlmode tmux pane screen tests pass " +
		"世界 日本語 🎉 café naïve ok ✓ ✗ → … ⠋ ⠙ ⠹ ● ◯ │ ─")
	spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
)

// agentUnit is one self-contained piece of agent-style output: it sets
// the attributes it uses and ends with the pen reset, so the pen is the
// default between units (tmux cannot report the pen to a seed).
func agentUnit(r *rand.Rand, i int) []byte {
	var b []byte
	words := func(n int) {
		for j := 0; j < n; j++ {
			b = append(b, agentWords[r.IntN(len(agentWords))]...)
			b = append(b, ' ')
		}
	}
	switch r.IntN(12) {
	case 0, 1, 2: // a log line with spans of colour
		b = fmt.Appendf(b, "\x1b[38;5;%dm● \x1b[1m%s\x1b[22m(", r.IntN(256), agentWords[r.IntN(6)])
		words(1 + r.IntN(3))
		b = append(b, ")\x1b[0m "...)
		words(r.IntN(12))
		b = append(b, "\r\n"...)
	case 3: // spinner redraw in place
		b = fmt.Appendf(b, "\r\x1b[K\x1b[33m%s Working… (%ds · esc to interrupt)", spinner[i%len(spinner)], i%300)
	case 4: // redraw the last lines (a status block)
		b = append(b, "\r\n\x1b[2A\r\x1b[J"...)
		b = fmt.Appendf(b, "\x1b[2m│ \x1b[0m\x1b[38;2;%d;%d;%dm", r.IntN(256), r.IntN(256), r.IntN(256))
		words(4)
		b = append(b, "\x1b[0m\r\n\x1b[7m ? for shortcuts \x1b[27m"...)
	case 5: // a box
		w := 10 + r.IntN(50)
		b = append(b, "\r\n╭"...)
		b = append(b, strings.Repeat("─", w)...)
		b = append(b, "╮\r\n│ \x1b[3m"...)
		words(3)
		b = append(b, "\x1b[23m\x1b[50G│\r\n╰"...)
		b = append(b, strings.Repeat("─", w)...)
		b = append(b, "╯\r\n"...)
	case 6: // a long line that wraps, with wide characters
		for j := 0; j < 30+r.IntN(60); j++ {
			b = append(b, agentWords[r.IntN(len(agentWords))]...)
		}
		b = append(b, "\r\n"...)
	case 7: // background colour erase (BCE), cursor positioning
		b = fmt.Appendf(b, "\x1b[%d;%dH\x1b[4%dm\x1b[K\x1b[0m", 1+r.IntN(24), 1+r.IntN(60), r.IntN(8))
		words(2)
	case 8: // scroll region use, reset in the same unit
		b = fmt.Appendf(b, "\x1b[%d;%dr\x1b[%dH", 2+r.IntN(5), 12+r.IntN(10), 12)
		for j := 0; j < 3; j++ {
			b = append(b, "\r\n"...)
			words(3)
		}
		b = append(b, "\x1b[r\x1b[24H"...)
	case 9: // alternate screen visited and left in one unit
		b = append(b, "\x1b[?1049h\x1b[H\x1b[2J\x1b[44m"...)
		words(5)
		b = append(b, "\x1b[0m\x1b[?1049l"...)
	case 10: // insert/delete characters and lines, tabs, DEC graphics
		b = append(b, "\r\x1b[3@\x1b[2P\tx\ty\x1b[L\x1b(0lqqk\x1b(B\x1b[M"...)
		words(2)
		b = append(b, "\r\n"...)
	default: // underline styles, colours, combining marks
		b = fmt.Appendf(b, "\x1b[4:%dm\x1b[58;5;%dme\u0301\x1b[24m \x1b[9mstrike\x1b[29m \x1b[53mover\x1b[55m ", 1+r.IntN(5), r.IntN(256))
		words(3)
		b = append(b, "\r\n"...)
	}
	return append(b, "\x1b[0m"...)
}

// awaitHelper waits until pane runs the helper: the shell has run stty
// (the tty is raw, without echo) and exec'd the test binary. Input sent
// earlier would be echoed by the cooked tty.
func awaitHelper(t testing.TB, c *Client, pane PaneID) {
	t.Helper()
	exe, _ := os.Executable()
	deadline := time.Now().Add(5 * time.Second)
	for {
		info, err := c.PaneInfo(ctx3s(t), pane)
		if err == nil {
			if p, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", info.PID)); err == nil && p == exe {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %v does not run the helper: %v", pane, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// trigger starts a helper that waits for a byte.
func trigger(t testing.TB, c *Client, pane PaneID) {
	t.Helper()
	awaitHelper(t, c, pane)
	if err := c.SendBytes(ctx3s(t), pane, []byte{'g'}); err != nil {
		t.Fatal(err)
	}
}
