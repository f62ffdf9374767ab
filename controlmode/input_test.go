package controlmode

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestKeyNames(t *testing.T) {
	for _, k := range []string{"Enter", "Escape", "Tab", "C-u", "C-s", "BSpace", "Up", "F1", "M-x", "S-Up", "C-M-a", "a", "1", "~", ";"} {
		if !isKeyName(k) {
			t.Errorf("%q refused", k)
		}
	}
	for _, k := range []string{"", " ", "hello world", "C-", "Ent er", "é", "a\n", "'", "x'y", "C-ab c"} {
		if k == "'" {
			continue // a single printable character is a key
		}
		if isKeyName(k) {
			t.Errorf("%q accepted", k)
		}
	}
}

func TestQuoteArg(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"-t", "-t"},
		{"%3", "'%3'"},
		{"", "''"},
		{"it's", `'it'\''s'`},
		{"a\nb", `'a'"\n"'b'`},
		{"\n", `"\n"`},
		{"'", `\'`},
		{"$HOME ~", "'$HOME ~'"},
		{"-", "'-'"},
		{"#{pane_id}", "'#{pane_id}'"},
	} {
		var b strings.Builder
		if err := quoteArg(&b, tc.in); err != nil || b.String() != tc.want {
			t.Errorf("quoteArg(%q) = %q, %v; want %q", tc.in, b.String(), err, tc.want)
		}
	}
	var b strings.Builder
	if err := quoteArg(&b, "a\x00"); !errors.Is(err, ErrBadArgument) {
		t.Errorf("NUL: %v", err)
	}
}

func TestExpectationFlow(t *testing.T) {
	e := expectation(5, []Cmd{{"refresh-client", "-A", "%1:continue"}, {"capture-pane", "-p"}, {"refresh-client", "-B", "x"}})
	if e.Blocks != 3 || e.FlowIn != 1 || e.Tag != 5 {
		t.Errorf("%+v", e)
	}
}

// TestTmuxInput sends every kind of input to a pane that copies what it
// reads into a file, and checks the exact bytes.
func TestTmuxInput(t *testing.T) {
	checkLeaks(t)
	file := filepath.Join(t.TempDir(), "in.bin")
	srv := startTmux(t, 80, 24, helperCmd("echo", file))
	c := attach(t, srv)
	ctx := ctxTest(t)
	awaitHelper(t, c, 0)
	// Bracketed paste is on only if the program asks for it; the echo
	// helper does not, so paste-buffer -p sends the text bare.
	var want []byte
	step := func(what string, err error, bytes string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want = append(want, bytes...)
	}
	step("keys", c.SendKeys(ctx, 0, "Enter", "Escape", "Tab", "C-u", "BSpace", "Up", "F1", "M-x"), "\r\x1b\t\x15\x7f\x1b[A\x1bOP\x1bx")
	step("text", c.SendText(ctx, 0, "it's ; $HOME #{pane_id} é世 🎉 \\033"), "it's ; $HOME #{pane_id} é世 🎉 \\033")
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	step("bytes", c.SendBytes(ctx, 0, all), string(all))
	big := bytes.Repeat([]byte{0x1b, 'x', 0}, 1200) // several send-keys -H on one line
	step("big bytes", c.SendBytes(ctx, 0, big), string(big))
	step("paste", c.Paste(ctx, 0, "line one\nline 'two'\n\ttabbed $X"), "line one\nline 'two'\n\ttabbed $X")
	if err := c.SendText(ctx, 0, "a\x1bb"); !errors.Is(err, ErrBadArgument) {
		t.Errorf("control byte in text: %v", err)
	}
	if err := c.SendKeys(ctx, 0, "Enter; kill-server"); !errors.Is(err, ErrBadArgument) {
		t.Errorf("bad key name: %v", err)
	}
	var got []byte
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		got, _ = os.ReadFile(file)
		if len(got) >= len(want) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if i := firstDiff(got, want); i >= 0 {
		t.Fatalf("pane read %d bytes, want %d; first difference at %d: %q vs %q", len(got), len(want), i, clip(got, i), clip(want, i))
	}
	if out := strings.TrimSpace(string(srv.MustRun("list-buffers"))); out != "" {
		t.Errorf("paste left buffers: %q", out)
	}
}

// TestTmuxPasteBracketed: a program that enabled bracketed paste gets the
// paste between ESC[200~ and ESC[201~.
func TestTmuxPasteBracketed(t *testing.T) {
	checkLeaks(t)
	file := filepath.Join(t.TempDir(), "in.bin")
	srv := startTmux(t, 80, 24, "printf '\\033[?2004h'; "+helperCmd("echo", file))
	c := attach(t, srv)
	awaitHelper(t, c, 0)
	if err := c.Paste(ctx3s(t), 0, "a\nb"); err != nil {
		t.Fatal(err)
	}
	want := "\x1b[200~a\nb\x1b[201~"
	var got []byte
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && len(got) < len(want); {
		got, _ = os.ReadFile(file)
		time.Sleep(10 * time.Millisecond)
	}
	if string(got) != want {
		t.Fatalf("got %q want %q", got, want)
	}
}
