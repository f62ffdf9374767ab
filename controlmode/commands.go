package controlmode

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Cmd is one tmux command: its name and arguments. String quotes it for a
// control-mode command line.
type Cmd []string

// String renders the command for the command line. It panics on nothing:
// an argument that cannot be sent is rendered as is and rejected by Exec.
func (c Cmd) String() string {
	s, _ := c.line()
	return s
}

func (c Cmd) line() (string, error) {
	var b strings.Builder
	for i, a := range c {
		if i > 0 {
			b.WriteByte(' ')
		}
		if err := quoteArg(&b, a); err != nil {
			return b.String(), err
		}
	}
	return b.String(), nil
}

// quoteArg writes one argument so that tmux's parser reads it back
// unchanged. Plain words (flags, names, numbers) go bare. Everything else
// goes in single quotes, where tmux expands nothing ($, ~, #{...}, ;, %
// are literal). A single quote is written as \' between quoted runs and a
// newline as "\n" in double quotes: tmux joins adjacent quoted pieces
// into one word, as sh does, so any UTF-8 text without NUL fits on one
// line. Invalid UTF-8 cannot be sent as an argument.
func quoteArg(b *strings.Builder, a string) error {
	if strings.IndexByte(a, 0) >= 0 {
		return fmt.Errorf("%w: NUL in argument", ErrBadArgument)
	}
	if !utf8.ValidString(a) {
		// tmux's lexer splits words at invalid UTF-8, even inside quotes.
		return fmt.Errorf("%w: argument is not UTF-8 (send bytes with -H)", ErrBadArgument)
	}
	if isBareWord(a) {
		b.WriteString(a)
		return nil
	}
	open := false
	for i := 0; i < len(a); i++ {
		switch r := a[i]; r {
		case '\'', '\n':
			if open {
				b.WriteByte('\'')
				open = false
			}
			if r == '\'' {
				b.WriteString(`\'`)
			} else {
				b.WriteString(`"\n"`)
			}
		default:
			if !open {
				b.WriteByte('\'')
				open = true
			}
			b.WriteByte(r)
		}
	}
	if open {
		b.WriteByte('\'')
	}
	if a == "" {
		b.WriteString("''")
	}
	return nil
}

// isBareWord: safe unquoted. A word may not start with % (tmux's %if),
// ~ (home), # (comment), $ or a quote.
func isBareWord(a string) bool {
	if a == "" {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case i > 0 && strings.IndexByte("-.,:=+/@", c) >= 0:
		case i == 0 && c == '-' && len(a) > 1:
		default:
			return false
		}
	}
	return true
}

// expectation builds the decoder's view of a command line: one block per
// command; refresh-client -A may raise %pause/%continue inside its block.
func expectation(tag uint64, cmds []Cmd) Expectation {
	e := Expectation{Tag: tag, Blocks: len(cmds)}
	for i, c := range cmds {
		if i < 64 && len(c) > 0 && c[0] == "refresh-client" && hasFlag(c, 'A') {
			e.FlowIn |= 1 << i
		}
	}
	return e
}

func hasFlag(c Cmd, f byte) bool {
	for _, a := range c[1:] {
		if len(a) >= 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], f) >= 0 {
			return true
		}
	}
	return false
}

// Exec runs cmds as one command line ("a ; b ; c"), which tmux executes in
// one pass with no pane output in between, and returns one Reply per
// command that ran. If a command fails, tmux skips the rest of the line:
// Exec then returns the replies so far and a *CommandError. It returns
// when the last block arrives, ctx ends (the reply is then discarded when
// it comes), or the connection ends (ErrClosed).
func (c *Client) Exec(ctx context.Context, cmds ...Cmd) ([]*Reply, error) {
	if len(cmds) == 0 {
		return nil, fmt.Errorf("%w: no command", ErrBadArgument)
	}
	line, err := joinCmds(cmds)
	if err != nil {
		return nil, err
	}
	call, err := c.send(line, cmds, nil)
	if err != nil {
		return nil, err
	}
	return call.wait(ctx)
}

// Command runs one command and returns its reply.
func (c *Client) Command(ctx context.Context, args ...string) (*Reply, error) {
	rs, err := c.Exec(ctx, Cmd(args))
	if len(rs) == 0 {
		return nil, err
	}
	return rs[0], err
}

func joinCmds(cmds []Cmd) (string, error) {
	var b strings.Builder
	for i, cmd := range cmds {
		if len(cmd) == 0 {
			return "", fmt.Errorf("%w: empty command", ErrBadArgument)
		}
		if runsCommands(cmd[0]) {
			return "", fmt.Errorf("%w: %s runs further commands, whose replies cannot be matched", ErrBadArgument, cmd[0])
		}
		if i > 0 {
			b.WriteString(" ; ")
		}
		s, err := cmd.line()
		if err != nil {
			return "", fmt.Errorf("%s: %w", cmd[0], err)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// spawning are the commands that queue further commands of this client
// (one more block each, some only later, after a shell ran): if-shell,
// run-shell -C, source-file; the prompts run commands when a person
// answers. tmux accepts aliases and unique prefixes, so a name is refused
// if it could resolve to one of them.
var (
	spawning        = []string{"if-shell", "run-shell", "source-file", "confirm-before", "command-prompt"}
	spawningAliases = []string{"if", "run", "source", "confirm"}
)

func runsCommands(name string) bool {
	for _, a := range spawningAliases {
		if name == a {
			return true
		}
	}
	for _, full := range spawning {
		if strings.HasPrefix(full, name) {
			return true
		}
	}
	return false
}

// call is one command line in flight.
type call struct {
	line    string
	cmds    []Cmd
	replies []*Reply
	err     error
	done    chan struct{}
	// onDone runs on the reader goroutine, under the client lock, when the
	// line completes (seeds install themselves into their feed this way).
	onDone func(*call)
}

func (cl *call) wait(ctx context.Context) ([]*Reply, error) {
	select {
	case <-cl.done:
		return cl.replies, cl.err
	case <-ctx.Done():
		return nil, fmt.Errorf("controlmode: %s: %w", cl.name(), context.Cause(ctx))
	}
}

func (cl *call) name() string {
	if len(cl.cmds) > 0 && len(cl.cmds[0]) > 0 {
		return cl.cmds[0][0]
	}
	return "command"
}

// finish records a reply; it reports whether the line is complete.
func (cl *call) add(r *Reply) bool {
	cl.replies = append(cl.replies, r)
	if r.Failed && cl.err == nil {
		cmd := cl.line
		if r.Index < len(cl.cmds) {
			cmd = cl.cmds[r.Index].String()
		}
		cl.err = &CommandError{Command: cmd, Body: string(r.Body)}
	}
	return r.Last
}
