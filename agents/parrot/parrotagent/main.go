// Command akk-parrot is akk's test agent: a tiny terminal agent with no
// model, built from this folder by the recording rig (agents/parrot/
// parrotrig) so that akk drives a fifth agent the way it drives the
// others. It draws its screen on the alternate screen with plain SGR
// styles: a header, its history, and at the bottom either the composer
// ("parrot> " over a footer) or a permission dialog. A prompt is echoed
// back; "run <command>" asks permission first ("1. Yes" runs nothing but
// says it ran, "2. No" or Esc declines). It records the conversation in
// ~/.parrot/sessions/<session>.jsonl (journal.go).
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"
)

// version is the program's version, as its header and journal say it.
const version = "1.0.0"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println(version)
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "akk-parrot:", err)
		os.Exit(1)
	}
}

// run sets the terminal up, starts the session's journal and reads keys
// until ctrl+c or ctrl+d, or the terminal goes.
func run() error {
	in, out := int(os.Stdin.Fd()), int(os.Stdout.Fd())
	saved, err := term.MakeRaw(in)
	if err != nil {
		return fmt.Errorf("raw mode: %w", err)
	}
	defer term.Restore(in, saved)
	home, err := os.UserHomeDir()
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	j, err := openJournal(home, cwd)
	if err != nil {
		return err
	}
	defer j.close()
	a := &app{j: j}
	a.w, a.h, _ = term.GetSize(out)
	os.Stdout.WriteString("\x1b[?1049h")
	defer os.Stdout.WriteString("\x1b[?25h\x1b[?1049l")
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	keys := make(chan []byte)
	go readKeys(keys)
	for {
		os.Stdout.WriteString(a.frame())
		select {
		case <-winch:
			a.w, a.h, _ = term.GetSize(out)
		case b, ok := <-keys:
			if !ok || !a.keys(b) {
				return nil
			}
		}
	}
}

// readKeys sends what the terminal reads, chunk by chunk, and closes
// keys when it can read no more.
func readKeys(keys chan<- []byte) {
	defer close(keys)
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			keys <- append([]byte(nil), buf[:n]...)
		}
		if err != nil {
			return
		}
	}
}
