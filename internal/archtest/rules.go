package archtest

// Layers lists akk's packages from the top down (DESIGN.md "Layout"): a
// package may import only packages in later layers, and the leaves.
// A path ending in "/..." covers a package and everything below it; a "*"
// stands for one element of a path.
var Layers = [][]string{
	// commands: the CLI, a table generator, the recording rig's
	{"cmd/akk", "vt/internal/widthgen", "recordings/cmd/rig"},
	// Every agent's rig part, linked for the programs that run the rig.
	{"agents/registry/rigs"},
	// Each agent's part in the recording rig (its scenarios, world and
	// fake-model dialect; issue 40): test tooling above the daemon, which
	// never imports it; the rig's command and the live tests do.
	{"agents/*/*rig"},
	{"internal/demo"}, // orchestration the CLI runs
	{"supervisor"},
	{"supervisor/dispatch"},
	{"supervisor/tasks"},
	{"supervisor/outbox"},
	{"supervisor/binding"},
	{"supervisor/terminal"},
	// Each agent's native knowledge, one folder per agent, and the
	// registry that lists them (issue 40): the daemon's engines above call
	// the registry; the pure engines below (recognizers, watchers, procid,
	// the rig's driver) are handed the agents' values and name none.
	{"agents/registry"},
	{"agents/*"}, // one folder per agent (none imports another)
	// An agent's own parts its folder uses: its record format, its screen
	// grammars (pure), its rig scenarios (test tooling).
	{"agents/*/*"},
	{"agents"}, // the interface every folder implements
	{"internal/popup", "internal/web", "internal/remote"},
	{"internal/answer"}, // what a person's face may answer
	{"api/mcpserver"},
	{"api"},
	{"port"},
	// Qualification runs a binary through the rig and reads its
	// recordings with a pinned profile (issue 41); the CLI stores its
	// report.
	{"recordings/qualify"},
	{"recognizers/replaycheck"},
	{"recognizers"},
	{"watchers"},
	// The evidence an agent's record parser gives (agents/<x>'s formats
	// import it, the watchers' engine follows it): values and the parse kit.
	{"watchers/evidence"},
	{"store"},
	{"recordings/cmd/..."},
	{"recordings/hosts"},
	{"recordings/rig"},
	{"recordings/fakemodel"},
	{"recordings"},
	{"internal/procid"},
	{"controlmode"},
	{"vt"},
	{"contract"}, // the public contract's vocabulary: imports nothing of akk
}

// Leaves may be imported from any layer: build-tagged fault points and
// test helpers. A leaf itself may import what the front ends may (LeafAs).
var Leaves = []string{
	"internal/fault", "internal/shot", "internal/benchinput", "internal/streamgen",
	"internal/tmuxtest", "internal/hooktest", "internal/akkbin", "internal/archtest", "internal/dbustest", "internal/uidtest", "internal/disktest",
	"internal/logcap",                // a slog handler that bounds repeated warnings
	"internal/syncbuf",               // a buffer a test reads while its goroutines write it
	"internal/ptyclient",             // a person at a real tmux client, for tests
	"watchers/evidence/evidencetest", // a record parser's invariants, for every format's fuzz targets
	"agents/registry/refusaltest",    // the refusal table both tiers run
	"internal/screentest",            // the corpus replayed, screens changed, recognitions checked: the grammars' tests
}

// LeafAs is the layer whose imports a leaf may make.
const LeafAs = "internal/popup"

// Only names the packages of akk a package may import, when that is
// narrower than its layer allows.
var Only = map[string][]string{
	// The wire contract links no engine: a client (the MCP server, the
	// popup, the web page, an outside Go program) gets the contract's
	// vocabulary and nothing that reads a screen or /proc.
	"api": {"contract"},
	// The MCP server is a second face of the api contract.
	"api/mcpserver": {"api", "contract"},
}

// Exclusive names third-party (or standard) imports that only the listed
// packages may use.
var Exclusive = map[string][]string{
	"github.com/cockroachdb/pebble/v2": {"store"},
	"github.com/cockroachdb/pebble":    {"store"},
	"github.com/fsnotify/fsnotify":     {"watchers"},
	// An agent's SQLite store (OpenCode's) is read in its folder's
	// session database package alone, read-only.
	"modernc.org/sqlite":        {"agents/*/sessiondb"},
	"github.com/godbus/dbus/v5": {"supervisor/outbox", "internal/dbustest"},
}

// Forbidden names imports a package (or the packages a pattern covers, as
// in Layers) must not use at all.
var Forbidden = map[string][]string{
	// Pure: no I/O, no clock, no network (a recognizer is a function of a
	// screen), and neither are the grammars it reads with.
	"recognizers":     {"os", "time", "net", "net/http", "context", "io/fs", "os/exec"},
	"agents/*/screen": {"os", "time", "net", "net/http", "context", "io/fs", "os/exec"},
	// The contract is values: no I/O and no clock either.
	"contract": {"os", "time", "net", "net/http", "context", "io/fs", "os/exec"},
}

// AgentHome is where the agents' names belong (an agent's own folder and
// the registry). The names are not listed here: an agent is one folder,
// so they are read from the folders (AgentNames). MaxAgentMentions is the
// ratchet: the count of names outside, lowered as each agent moved into
// its folder (issue 40), to 0.
var AgentHome = []string{"agents/..."}

// MaxAgentMentions: 3409 when the rule came (after 59a9dd6); 3365 with the
// process identity rules in the agents' folders; 3356 with their interrupt
// keys and the registry's Known; 3303 with their record roots, formats and
// session resolution (the binder names no agent); 3270 with their thread
// candidates and traits (api names no agent); 3258 with dispatch's model
// walks named for their mechanism (the effort row, the effort popup); 3242
// with the CLI's help and checks built from the registry; 3210 with the
// daemon's roots and keymaps by agent (supervisor names no agent); 2824
// with every agent's records (parsers, formats, resolution, threads,
// keymaps) in its folder (watchers names no agent); 1859 with every
// agent's screen grammars in agents/<x>/screen (recognizers names none);
// 1742 with the refusal table beside the registry, the demo's scenes as
// data, and the MCP and CLI texts speaking of capabilities; 40 with each
// agent's rig part (scenarios, world, fake-model dialect) in its folder;
// 0 with the agents' names read from their folders, the corpus finding
// each journal by its file, and the fake model servers named for their
// protocols: any name outside the agents' folders now fails.
const MaxAgentMentions = 0

// Places: the process file system is read in one package, so that every
// reading of it is one parser with its fuzz target and its fake root; akk
// runs tmux in one package, its control clients and its one-shot commands
// (controlmode.Command: -u, the socket, the errors).
var Places = []Place{
	{Does: "names /proc", Verb: "reads", Only: []string{"internal/procid"}, Find: procLiterals,
		Allowed: map[string]string{
			// procid's own tests use it: it cannot import procid.
			"internal/tmuxtest": "the test servers' end: a test helper procid's tests import",
			"internal/archtest": "the rule itself",
		}},
	{Does: "execs tmux", Verb: "does", Only: []string{"controlmode"}, Find: tmuxExecs,
		Allowed: map[string]string{
			// controlmode's own tests use it: it cannot import controlmode.
			"internal/tmuxtest": "the test servers: a test helper controlmode's tests import",
		}},
}

// MaxFileLines and MaxFuncLines are the health budget; generated files
// ("Code generated ... DO NOT EDIT.") are exempt from the first.
const (
	MaxFileLines = 600
	MaxFuncLines = 100
)

// LongFuncs are the functions allowed past MaxFuncLines, each with its
// reason (at most five; an entry no longer needed fails the check).
var LongFuncs = map[string]string{
	"vt/csi.go:Screen.csiDispatch": "a flat switch on the CSI final byte, one call per case (tmux's input.c does the same)",
}
