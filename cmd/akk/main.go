// Command akk supervises coding agents running in tmux panes.
//
// Exit codes: exitTable in exitcodes.go (`akk --help` prints it).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"reflect"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/agent-knock-knock/akk/agents"
	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
)

// Globals are the flags every command has.
type Globals struct {
	JSON     bool   `help:"Print data as JSON."`
	LogLevel string `help:"Log level." enum:"debug,info,warn,error" default:"warn"`
}

// CLI is akk's command tree: one field per command (group), each defined
// with its Run method in its own cmd_*.go file.
type CLI struct {
	Globals

	Replay  ReplayCmd  `cmd:"" help:"Replay a recording (or a raw tmux -C transcript) through akk's screen model."`
	Record  RecordCmd  `cmd:"" help:"Record a tmux pane's output stream into a recording."`
	Replica ReplicaCmd `cmd:"" help:"Play a recording as a pane program, waiting for each recorded input."`
	Attach  AttachCmd  `cmd:"" help:"Supervise a tmux server: the akk daemon, in the foreground."`
	List    ListCmd    `cmd:"" help:"List every pane of the supervised tmux server and its agent's state."`
	Status  StatusCmd  `cmd:"" help:"Show one terminal's state, evidence and prompt region."`
	Events  EventsCmd  `cmd:"" help:"Print the daemon's event history (--follow: and new events)."`
	Approve ApproveCmd `cmd:"" help:"Approve a permission prompt once (or reject it, for a managed turn)."`
	Respond RespondCmd `cmd:"" help:"Answer the current step of a questionnaire by its semantic ids."`
	Send    SendCmd    `cmd:"" help:"Send a task to an idle agent as a managed turn."`
	Answer  AnswerCmd  `cmd:"" help:"Reply to an agent that ended a managed turn with its own text, inside the same turn."`
	Cancel  CancelCmd  `cmd:"" help:"Interrupt a managed turn's working agent."`

	// Native thread transitions (cmd_thread.go).
	NewThread        NewThreadCmd          `cmd:"" name:"new-thread" help:"Start a new conversation in a terminal's idle agent (its own command for it; ${thread_agents})."`
	ResumeThread     ResumeThreadCmd       `cmd:"" name:"resume-thread" help:"Resume an earlier conversation in a terminal's idle agent (--list shows them)."`
	ReconcileBinding ReconcileBindingCmd   `cmd:"" name:"reconcile-binding" help:"Detach a terminal's binding to a conversation a person left (no input)."`
	NativeInspect    NativeInspectCmd      `cmd:"" name:"native-inspect" help:"Read a terminal's agent's own status panel (its /status), then dismiss it."`
	ModelOptions     ModelOptionsCmd       `cmd:"" name:"model-options" help:"List the models and efforts of a terminal's agent (its /model menu, closed again)."`
	SetModel         SetModelCmd           `cmd:"" name:"set-model" help:"Set one model and effort from model-options through the agent's own menu."`
	RepairModelCtl   RepairModelControlCmd `cmd:"" name:"repair-model-control" help:"Close a /model popup or clear a bare /model a failed model change left (agents whose profile records the residue)."`

	// The controller hosts (cmd_hosts.go).
	OpenClaw OpenClawCmd `cmd:"" name:"openclaw" help:"Set akk up in OpenClaw (MCP server, wake-up hook, skill)."`
	Pi       PiCmd       `cmd:"" name:"pi" help:"Set akk up in Pi (MCP server)."`

	// Foreground identification of an ambiguous Codex pane (cmd_identify.go).
	IdentifyForeground IdentifyForegroundCmd `cmd:"" name:"identify-foreground" help:"Read which conversation an ambiguous terminal runs (its /status, once; ${identify_agents}): a diagnostic, no authority."`
	IdentifyAndSend    IdentifyAndSendCmd    `cmd:"" name:"identify-and-send" help:"Probe an ambiguous terminal's conversation (${identify_agents}), then send a task there as a managed turn."`

	Doctor DoctorCmd `cmd:"" help:"Check tmux, the server, the daemon, the store and the agents."`
	Demo   DemoCmd   `cmd:"" help:"Supervise replica agents on a private tmux server, with a live table of their states."`
	Popup  PopupCmd  `cmd:"" help:"The agents that need you, to answer or jump to (runs in tmux display-popup)."`
	Web    WebCmd    `cmd:"" help:"The agents that need you, on a phone-friendly page (loopback; pair a browser with --pair)."`
	MCP    MCPCmd    `cmd:"" name:"mcp" help:"Serve the agent_knock_knock tools to an MCP host (stdio, or --http on loopback with a bearer token: --print-token prints it)."`

	TmuxConf TmuxConfCmd `cmd:"" name:"tmux-conf" help:"Print the tmux.conf lines: a popup key binding and a status-line segment."`

	Recognize RecognizeCmd `cmd:"" help:"Recognize a recording's screens or a screen dump with the agent's profile."`
	Qualify   QualifyCmd   `cmd:"" help:"Prove offline that an agent version akk does not pin draws what akk acts on as a pinned one does, so that akk acts on it."`

	// Watches, managed Turns and callbacks (cmd_watch.go).
	Watch         WatchCmd         `cmd:"" help:"Observe a terminal's task (read-only) and be called back when it settles."`
	Unwatch       UnwatchCmd       `cmd:"" help:"Stop a Watch and withdraw its undelivered callbacks."`
	Close         CloseCmd         `cmd:"" help:"Release a managed Turn (does not cancel the agent's task)."`
	Renew         RenewCmd         `cmd:"" help:"Extend a Watch's observation (or a Turn's inactivity window) while its task is unchanged."`
	Recover       RecoverCmd       `cmd:"" help:"Re-read a Watch's or Turn's task and reschedule its open callbacks."`
	RetryCallback RetryCallbackCmd `cmd:"" name:"retry-callback" help:"Send a failed (retryable) callback again with its original id and key."`
	Task          TaskCmd          `cmd:"" help:"Show a Watch's or managed Turn's state and callbacks."`
}

// errUsage marks a usage error (exit 2).
var errUsage = errors.New("usage")

// exitError ends a command with a code and no message of its own: what the
// person needs to know is printed already (an action's outcome, doctor's
// checks).
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func exitWith(code int) error { return &exitError{code} }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the command; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) (code int) {
	var cli CLI
	// kong exits only after printing help (or --version): note the code,
	// and let Parse return.
	exited := -1
	parser, err := kong.New(&cli, kong.Name("akk"),
		kong.Description("akk supervises coding agents ("+registry.Displays(nil)+") running in tmux panes."),
		kong.Writers(stdout, stderr),
		kong.Help(helpWithExitCodes),
		kong.Vars{"terminal": "a term_… id, or a selector: only, " + registry.Names("|") + ", @REF (an id's prefix), %PANE or session:window.pane",
			"agents":          registry.Names(", "),
			"agent_selectors": registry.Names("|"),
			"thread_agents":   registry.Displays(func(a agents.Agent) bool { return a.Threads() != nil }),
			"identify_agents": registry.Displays(func(a agents.Agent) bool { return a.Traits().Identifies }),
		},
		kong.Exit(func(c int) {
			if exited < 0 {
				exited = c
			}
		}))
	if err != nil {
		fmt.Fprintln(stderr, "akk:", err)
		return exitFailure
	}
	kctx, err := parser.Parse(args)
	if exited >= 0 {
		return exited
	}
	if err != nil {
		fmt.Fprintln(stderr, "akk:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var level slog.Level
	_ = level.UnmarshalText([]byte(cli.LogLevel))
	lg := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	kctx.BindTo(ctx, (*context.Context)(nil))
	kctx.BindTo(stdout, (*io.Writer)(nil))
	kctx.Bind(lg, &cli.Globals)
	// A command with DaemonFlags gets its API client injected.
	if df, ok := daemonFlagsOf(kctx); ok {
		cl := api.NewClient(df.socket())
		if len(df.Host) > 0 {
			if kctx.Selected().Name == "attach" {
				return exitCode(fmt.Errorf("%w: --host is for the clients of a daemon; akk attach runs one here", errUsage), stderr)
			}
			rc, closeTunnels, err := remoteClient(ctx, df.Host)
			if err != nil {
				return exitCode(err, stderr)
			}
			defer closeTunnels()
			cl = rc
		}
		defer cl.Close()
		cl.SetTimeout(df.Timeout)
		kctx.Bind(cl)
	}
	return exitCode(kctx.Run(), stderr)
}

// daemonFlagsOf finds the DaemonFlags the selected command embeds.
func daemonFlagsOf(kctx *kong.Context) (DaemonFlags, bool) {
	sel := kctx.Selected()
	if sel == nil || !sel.Target.IsValid() || sel.Target.Kind() != reflect.Struct {
		return DaemonFlags{}, false
	}
	f := sel.Target.FieldByName("DaemonFlags")
	if !f.IsValid() {
		return DaemonFlags{}, false
	}
	df, ok := f.Interface().(DaemonFlags)
	return df, ok
}

// helpWithExitCodes is kong's help, and the exit code table after akk's
// own (`akk --help`).
func helpWithExitCodes(options kong.HelpOptions, kctx *kong.Context) error {
	if err := kong.DefaultHelpPrinter(options, kctx); err != nil {
		return err
	}
	if kctx.Selected() == nil {
		_, err := fmt.Fprint(kctx.Stdout, "\n"+exitCodesText())
		return err
	}
	return nil
}
