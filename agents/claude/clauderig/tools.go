package clauderig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Claude Code's permission dialogs for its tools other than Bash (Edit,
// Write, NotebookEdit, WebFetch, an MCP tool, Read outside the project,
// ExitPlanMode) and a Bash command long enough to wrap, recorded as the
// evidence for their screen profiles. The fake model plays them with
// Rules: it Reads a file before it Edits it (Claude Code refuses an Edit
// of a file not read first), and on 2.1.332 it loads a deferred tool
// (NotebookEdit, WebFetch, ExitPlanMode, MCP tools) with ToolSearch
// before calling it, as that version's system prompt tells a model to.

// toolsHome is the Home of the run in progress, set by the scenarios'
// Setup: the tools take absolute paths, and a run's directory is made per
// run after its script.
var toolsHome atomic.Pointer[rig.Home]

// runPath is a path of the run in progress, resolved when the fake model
// sends it: relative to the project (h.Work), or to HOME with "~/".
type runPath string

func (p runPath) abs() string {
	h := toolsHome.Load()
	if h == nil {
		return string(p)
	}
	if rest, ok := strings.CutPrefix(string(p), "~/"); ok {
		return filepath.Join(h.Home, rest)
	}
	return filepath.Join(h.Work, string(p))
}

func (p runPath) MarshalJSON() ([]byte, error) { return json.Marshal(p.abs()) }

// planFile is the plan file Claude Code names in its plan-mode reminder
// ("You should create your plan at <path> using the Write tool"; the
// name is random per session): the fake model reads it, as a model does,
// from the request the agent sent before, in the run's request log
// (h.Root/requests.jsonl, a request's line is written once answered).
type planFile struct{}

var rePlanFile = regexp.MustCompile(`create your plan at (/[^ "\\]+?\.md)`)

func (planFile) MarshalJSON() ([]byte, error) {
	h := toolsHome.Load()
	if h == nil {
		return nil, fmt.Errorf("rig: no run")
	}
	b, err := os.ReadFile(filepath.Join(h.Root, "requests.jsonl"))
	if err != nil {
		return nil, err
	}
	m := rePlanFile.FindAllSubmatch(b, -1)
	if m == nil {
		return nil, fmt.Errorf("rig: no plan file named in the requests so far")
	}
	return json.Marshal(string(m[len(m)-1][1]))
}

const (
	toolsNotes    = "alpha\nbeta\ngamma\n"
	toolsNotesNew = "alpha\nbeta, edited by the fake model\ngamma\n"
	toolsCreated  = "A new file\nwritten by the fake model.\n"
	toolsOverOld  = "old line one\nold line two\n"
	toolsOverNew  = "new content\nwritten over the old file.\n"
	toolsOutside  = "notes kept outside the project\n"
	// toolsOutsidePath is under HOME, outside the project.
	toolsOutsidePath = "~/elsewhere/outside-notes.txt"
	toolsCellNew     = "print(\"hello, notebook\")"
	toolsMCPTool     = "mcp__fakemcp__echo"
	toolsPlan        = "# Add a line to notes.txt\n\n1. Append the line delta to notes.txt.\n2. Read the file back to check it.\n"
	toolsLongText    = "This line is long on purpose: it must wrap inside the permission dialog of Claude Code at 120 and at 80 columns, so that its wrapped rows can be read"
	toolsNotebook    = `{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": null,
   "id": "c1",
   "metadata": {},
   "outputs": [],
   "source": [
    "print(\"hello\")"
   ]
  }
 ],
 "metadata": {
  "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
  "language_info": {"name": "python"}
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`
)

var toolsLongCommand = `echo "` + toolsLongText + `" > long-line.txt`

// toolsDeferred reports whether version defers its less used tools
// (NotebookEdit, WebFetch, ExitPlanMode, MCP tools) behind ToolSearch.
func toolsDeferred(version string) bool { return rig.VersionAtLeast(version, "2.1.332") }

// toolsRules is a script of rules.
func toolsRules(rules func(version string) []fakemodel.Rule) func(string) fakemodel.Script {
	return func(version string) fakemodel.Script { return fakemodel.Script{Rules: rules(version)} }
}

// toolsLoad is the rule chain that calls tool after the result of after:
// after a ToolSearch that loads it where the version defers it.
func toolsLoad(version, after, tool string, input any) []fakemodel.Rule {
	if !toolsDeferred(version) {
		return []fakemodel.Rule{{Name: strings.ToLower(tool), After: after, Call: tool, Input: input}}
	}
	return []fakemodel.Rule{
		{Name: "search", After: after, Call: "ToolSearch", Input: map[string]any{"query": "select:" + tool}},
		{Name: strings.ToLower(tool), After: "ToolSearch", Call: tool, Input: input},
	}
}

// toolsEnd are the rules after tool's result: a short text either way.
func toolsEnd(tool, done, refused string) []fakemodel.Rule {
	return []fakemodel.Rule{
		{Name: "done", After: tool, Text: done},
		{Name: "refused", After: tool, Error: true, Text: refused},
	}
}

// toolsSetup writes the project's files and remembers the run's Home.
func toolsSetup(files map[string]string, more func(h *rig.Home) error) func(*rig.Home, string, string, []string) ([]string, error) {
	return func(h *rig.Home, version, url string, env []string) ([]string, error) {
		toolsHome.Store(h)
		for p, content := range files {
			if err := rig.WriteFile(runPath(p).abs(), content); err != nil {
				return nil, err
			}
		}
		if more != nil {
			if err := more(h); err != nil {
				return nil, err
			}
		}
		return env, nil
	}
}

// toolResultOf waits for the result of the newest call of tool in the
// transcript, an error or not.
func (s steps) toolResultOf(tool string, isError bool) {
	ids := map[string]bool{}
	s.Journal(tool+" tool_result", func(m map[string]any) bool {
		msg, _ := m["message"].(map[string]any)
		content, _ := msg["content"].([]any)
		for _, c := range content {
			b, _ := c.(map[string]any)
			switch b["type"] {
			case "tool_use":
				if b["name"] == tool {
					id, _ := b["id"].(string)
					ids[id] = true
				}
			case "tool_result":
				id, _ := b["tool_use_id"].(string)
				if ids[id] && (b["is_error"] == true) == isError {
					return true
				}
			}
		}
		return false
	})
}

// fileIs checks a file of the run after the tool ran: it holds want, or
// (absent) it does not exist.
func fileIs(path runPath, want string, absent bool) func(s steps) {
	return func(s steps) { s.Do(func() error { return checkFile(path, want, absent) }) }
}

func checkFile(path runPath, want string, absent bool) error {
	b, err := os.ReadFile(path.abs())
	switch {
	case absent && err == nil:
		return fmt.Errorf("rig: %s exists after the refusal: %q", path, b)
	case absent && os.IsNotExist(err):
		return nil
	case err != nil:
		return fmt.Errorf("rig: %w", err)
	case string(b) != want:
		return fmt.Errorf("rig: %s is %q, want %q", path, b, want)
	}
	return nil
}

// toolDialog is one scenario: a prompt, the tool whose dialog shows, its
// anchors and marker, the key pressed and what follows.
type toolDialog struct {
	name, prompt, tool string
	// interrupted: the screen after the key ends in Claude's
	// "Interrupted · What should Claude do instead?" (marked blocked).
	interrupted   bool
	width, height int
	rules         func(version string) []fakemodel.Rule
	files         map[string]string // written in Setup (runPath names)
	more          func(h *rig.Home) error
	settings      string // ~/.claude/settings.json; "" keeps the rig's
	// idle are the anchors of the first idle screen (nil: idle's).
	idle []string
	// anchors are all on the dialog's screen once it is drawn in full.
	anchors []string
	marker  func(d *rig.Driver) recordings.MarkerState
	key     string        // pressed at the dialog once the screen is quiet
	isError bool          // the tool's result after the key is an error
	turnEnd bool          // the model answers the result: a turn end follows
	check   func(s steps) // a check of what the tool did, after the idle marker
}

func (t toolDialog) scenario() *rig.Scenario {
	return &rig.Scenario{Name: t.name, Agent: "claude", Width: t.width, Height: t.height, Script: toolsRules(t.rules),
		Setup: func(h *rig.Home, version, url string, env []string) ([]string, error) {
			env, err := toolsSetup(t.files, t.more)(h, version, url, env)
			if err == nil && t.settings != "" {
				err = rig.WriteFile(filepath.Join(h.Home, ".claude", "settings.json"), t.settings+"\n")
			}
			return env, err
		},
		Drive: drive(t.drive)}
}

// drive: the prompt, the tool's call, its dialog drawn and still (a digit
// sent within ms of a dialog's first frame moves the highlight instead),
// the marker, the key, the tool's result in the transcript, the idle
// screen and its marker, then the file check.
func (t toolDialog) drive(s steps) {
	s.toolsAsk(t.prompt, t.tool, t.idle)
	s.Screen(t.anchors...)
	s.Mark("awaiting_approval", t.marker(s.d))
	s.Key(t.key)
	s.toolResultOf(t.tool, t.isError)
	if t.turnEnd {
		s.turnEnd(1)
	} else {
		s.idle()
	}
	if t.interrupted {
		s.MarkInterrupted()
	} else {
		s.MarkIdle()
	}
	if t.check != nil {
		t.check(s)
	}
}

// toolsMarker is a permission dialog's marker: its title, its question and
// its option rows (labels without the number and without a hint after
// " · "), the first row highlighted.
func toolsMarker(header, prompt string, options ...string) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("permission"), Actionable: true,
		Questions: []recordings.Question{{Header: header, Prompt: prompt, Options: options}}, Highlighted: recordings.Index(0)}
}

func planExitMarker(*rig.Driver) recordings.MarkerState {
	m := toolsMarker("Exit plan mode?", "Claude wants to exit plan mode",
		"Yes, and switch to default (ask each time) for this session", "No")
	m.Actionable = false
	return m
}

// toolsAcceptEdits is the second row of the file dialogs (Edit, Write,
// NotebookEdit) on both versions.
const toolsAcceptEdits = "Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)"

func toolsFileMarker(header, prompt string) func(*rig.Driver) recordings.MarkerState {
	return func(*rig.Driver) recordings.MarkerState {
		return toolsMarker(header, prompt, "Yes", toolsAcceptEdits, "No")
	}
}

// toolsAsk is ask with the first idle screen's anchors given
// (plan mode's footer has no "? for shortcuts").
func (s steps) toolsAsk(prompt, tool string, idle []string) {
	if idle == nil {
		s.ask(prompt, tool)
		return
	}
	s.Screen(idle...)
	s.Quiet(claudeQuiet)
	s.prompt(prompt)
	s.toolUse(tool)
}

// notebookEdited checks that the notebook's one cell holds the new source.
func notebookEdited(s steps) { s.Do(checkNotebook) }

func checkNotebook() error {
	b, err := os.ReadFile(runPath("analysis.ipynb").abs())
	if err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	var nb struct {
		Cells []struct {
			Source any `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil || len(nb.Cells) != 1 {
		return fmt.Errorf("rig: notebook after the edit: %v\n%s", err, b)
	}
	src := nb.Cells[0].Source
	if lines, ok := src.([]any); ok {
		var sb strings.Builder
		for _, l := range lines {
			s, _ := l.(string)
			sb.WriteString(s)
		}
		src = sb.String()
	}
	if src != toolsCellNew {
		return fmt.Errorf("rig: the notebook's cell is %q, want %q", src, toolsCellNew)
	}
	return nil
}

// toolsMCP builds recordings/cmd/fakemcp into the run and adds it to
// ~/.claude.json as a user-scope stdio server (loaded without asking).
func toolsMCP(h *rig.Home) error {
	bin, err := rig.BuildFakeMCP(h)
	if err != nil {
		return err
	}
	path := filepath.Join(h.Home, ".claude.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("rig: %s: %w", path, err)
	}
	cfg["mcpServers"] = map[string]any{"fakemcp": map[string]any{"type": "stdio", "command": bin, "args": []any{}, "env": map[string]any{}}}
	b, _ = json.MarshalIndent(cfg, "", "  ")
	return rig.WriteFile(path, string(b)+"\n")
}

// claudeToolRules are the fake model's rules of the tool dialogs, one
// set per scenario family.
type claudeToolRules struct {
	edit, write, overwrite, notebook, webfetch, mcpEcho, readOutside, plan, planNone, bashLong func(string) []fakemodel.Rule
}

func newClaudeToolRules() claudeToolRules {
	readNotes := fakemodel.Rule{Name: "read", After: "", Call: "Read", Input: map[string]any{"file_path": runPath("notes.txt")}}
	edit := func(version string) []fakemodel.Rule {
		return append([]fakemodel.Rule{readNotes,
			{Name: "edit", After: "Read", Call: "Edit", Input: map[string]any{"file_path": runPath("notes.txt"),
				"old_string": "beta", "new_string": "beta, edited by the fake model"}}},
			toolsEnd("Edit", "The edit is made.", "The edit was not made.")...)
	}
	write := func(version string) []fakemodel.Rule {
		return append([]fakemodel.Rule{{Name: "write", After: "", Call: "Write",
			Input: map[string]any{"file_path": runPath("created.txt"), "content": toolsCreated}}},
			toolsEnd("Write", "The file is written.", "The file was not written.")...)
	}
	overwrite := func(version string) []fakemodel.Rule {
		return append([]fakemodel.Rule{
			{Name: "read", After: "", Call: "Read", Input: map[string]any{"file_path": runPath("old.txt")}},
			{Name: "write", After: "Read", Call: "Write", Input: map[string]any{"file_path": runPath("old.txt"), "content": toolsOverNew}}},
			toolsEnd("Write", "The file is written.", "The file was not written.")...)
	}
	notebook := func(version string) []fakemodel.Rule {
		rs := []fakemodel.Rule{{Name: "read", After: "", Call: "Read", Input: map[string]any{"file_path": runPath("analysis.ipynb")}}}
		rs = append(rs, toolsLoad(version, "Read", "NotebookEdit", map[string]any{"notebook_path": runPath("analysis.ipynb"),
			"cell_id": "c1", "new_source": toolsCellNew, "edit_mode": "replace"})...)
		return append(rs, toolsEnd("NotebookEdit", "The cell is edited.", "The cell was not edited.")...)
	}
	webfetch := func(version string) []fakemodel.Rule {
		rs := toolsLoad(version, "", "WebFetch", map[string]any{"url": "https://example.com/notes", "prompt": "Summarize the page"})
		return append(rs, toolsEnd("WebFetch", "The page is fetched.", "The page was not fetched.")...)
	}
	mcpEcho := func(version string) []fakemodel.Rule {
		rs := toolsLoad(version, "", toolsMCPTool, map[string]any{"text": "hello from the fake model"})
		return append(rs, toolsEnd(toolsMCPTool, "The echo came back.", "The echo was refused.")...)
	}
	readOutside := func(version string) []fakemodel.Rule {
		return append([]fakemodel.Rule{{Name: "read", After: "", Call: "Read", Input: map[string]any{"file_path": runPath(toolsOutsidePath)}}},
			toolsEnd("Read", "The file is read.", "The file was not read.")...)
	}
	// The plan: Read notes.txt (read-only), Write the plan file the
	// reminder names (allowed in plan mode, no dialog), then ExitPlanMode.
	plan := func(version string) []fakemodel.Rule {
		rs := []fakemodel.Rule{readNotes,
			{Name: "plan", After: "Read", Call: "Write", Input: map[string]any{"file_path": planFile{}, "content": toolsPlan}}}
		rs = append(rs, toolsLoad(version, "Write", "ExitPlanMode", map[string]any{})...)
		return append(rs, toolsEnd("ExitPlanMode", "The plan is approved.", "The plan was not approved.")...)
	}
	// ExitPlanMode without a plan file: the smaller "Exit plan mode?".
	planNone := func(version string) []fakemodel.Rule {
		rs := toolsLoad(version, "", "ExitPlanMode", map[string]any{})
		return append(rs, toolsEnd("ExitPlanMode", "Plan mode is over.", "Plan mode goes on.")...)
	}
	bashLong := func(version string) []fakemodel.Rule {
		return append([]fakemodel.Rule{{Name: "bash", After: "", Call: "Bash",
			Input: map[string]any{"command": toolsLongCommand, "description": "Write a long line to a file"}}},
			toolsEnd("Bash", "The line is written.", "The line was not written.")...)
	}

	return claudeToolRules{edit: edit, write: write, overwrite: overwrite, notebook: notebook, webfetch: webfetch,
		mcpEcho: mcpEcho, readOutside: readOutside, plan: plan, planNone: planNone, bashLong: bashLong}
}

func toolScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	r := newClaudeToolRules()
	for _, t := range append(fileDialogs(r), otherDialogs(r)...) {
		out = append(out, t.scenario())
	}
	return out
}

// fileDialogs are the dialogs of the file tools: Edit, Write (create,
// overwrite), NotebookEdit.
func fileDialogs(r claudeToolRules) []toolDialog {
	notes := map[string]string{"notes.txt": toolsNotes}
	editQ := "Do you want to make this edit to notes.txt?"
	editAnchors := []string{"Edit file", editQ, "3. No", claudeDialogFooter}
	editMarker := toolsFileMarker("Edit file", editQ)
	createQ := "Do you want to create created.txt?"
	createAnchors := []string{"Create file", createQ, "3. No", claudeDialogFooter}
	overQ := "Do you want to overwrite old.txt?"
	nbQ := "Do you want to make this edit to analysis.ipynb?"
	return []toolDialog{
		{name: "edit-approve", prompt: "edit-notes", tool: "Edit", rules: r.edit, files: notes,
			anchors: editAnchors, marker: editMarker, key: "1", turnEnd: true,
			check: fileIs("notes.txt", toolsNotesNew, false)},
		{name: "edit-reject", prompt: "edit-notes", tool: "Edit", rules: r.edit, files: notes,
			anchors: editAnchors, marker: editMarker, key: "3", isError: true,
			check: fileIs("notes.txt", toolsNotes, false)},
		{name: "edit-escape", prompt: "edit-notes", tool: "Edit", rules: r.edit, files: notes,
			anchors: editAnchors, marker: editMarker, key: "Escape", isError: true,
			check: fileIs("notes.txt", toolsNotes, false)},
		{name: "write-create-approve", prompt: "write-create", tool: "Write", rules: r.write,
			anchors: createAnchors, marker: toolsFileMarker("Create file", createQ), key: "1", turnEnd: true,
			check: fileIs("created.txt", toolsCreated, false)},
		{name: "write-create-reject", prompt: "write-create", tool: "Write", rules: r.write,
			anchors: createAnchors, marker: toolsFileMarker("Create file", createQ), key: "3", isError: true,
			check: fileIs("created.txt", "", true)},
		{name: "write-overwrite-approve", prompt: "write-overwrite", tool: "Write", rules: r.overwrite,
			files:   map[string]string{"old.txt": toolsOverOld},
			anchors: []string{"Overwrite file", overQ, "3. No", claudeDialogFooter}, marker: toolsFileMarker("Overwrite file", overQ),
			key: "1", turnEnd: true, check: fileIs("old.txt", toolsOverNew, false)},
		{name: "notebook-edit-approve", prompt: "notebook-edit", tool: "NotebookEdit", rules: r.notebook,
			files:   map[string]string{"analysis.ipynb": toolsNotebook},
			anchors: []string{"Edit notebook", "Replace cell contents for cell c1", nbQ, "3. No", claudeDialogFooter},
			marker:  toolsFileMarker("Edit notebook", nbQ), key: "1", turnEnd: true, check: notebookEdited},
	}
}

// otherDialogs are the dialogs of WebFetch, an MCP tool, Read outside the
// project, the plan's approval and exit, and a Bash command long enough
// to wrap.
func otherDialogs(r claudeToolRules) []toolDialog {
	notes := map[string]string{"notes.txt": toolsNotes}
	planMode := `{"permissions":{"defaultMode":"plan"}}`
	planIdle := []string{"❯", "plan mode on (shift+tab to cycle)"}
	fetchQ := "Do you want to allow Claude to fetch this content?"
	fetchNo := "No, and tell Claude what to do differently (esc)"
	planQ := "Claude has written up a plan and is ready to execute. Would you like to proceed?"
	bashLongAnchors := []string{claudeProceed, "4. No", claudeDialogFooter, `can be read" > long-line.txt`}
	return []toolDialog{
		// The dialog has no footer; the tool, once approved, checks the
		// domain with claude.ai, which fails offline (an error result).
		{name: "webfetch-approve", prompt: "web-fetch", tool: "WebFetch", rules: r.webfetch,
			anchors: []string{"Fetch", "Claude wants to fetch content from example.com", fetchQ, "3. " + fetchNo},
			marker: func(*rig.Driver) recordings.MarkerState {
				return toolsMarker("Fetch", fetchQ, "Yes", "Yes, and don't ask again for example.com", fetchNo)
			},
			key: "1", isError: true, turnEnd: true},
		{name: "webfetch-reject", prompt: "web-fetch", tool: "WebFetch", rules: r.webfetch,
			anchors: []string{"Fetch", "Claude wants to fetch content from example.com", fetchQ, "3. " + fetchNo},
			marker: func(*rig.Driver) recordings.MarkerState {
				return toolsMarker("Fetch", fetchQ, "Yes", "Yes, and don't ask again for example.com", fetchNo)
			},
			key: "3", isError: true, interrupted: true},
		{name: "mcp-tool-approve", prompt: "mcp-echo", tool: toolsMCPTool, rules: r.mcpEcho, more: toolsMCP,
			anchors: []string{"Tool use", "fakemcp — Echo Tool: (MCP)", claudeProceed, "3. No", claudeDialogFooter},
			marker: func(d *rig.Driver) recordings.MarkerState {
				return toolsMarker("Tool use", claudeProceed, "Yes",
					"Yes, and don't ask again for fakemcp — Echo commands in "+d.Home.Work, "No")
			},
			key: "1", turnEnd: true},
		{name: "read-outside", prompt: "read-outside", tool: "Read", rules: r.readOutside,
			files:   map[string]string{toolsOutsidePath: toolsOutside},
			anchors: []string{"Read file", "outside-notes.txt)", claudeProceed, "3. No", claudeDialogFooter},
			marker: func(d *rig.Driver) recordings.MarkerState {
				return toolsMarker("Read file", claudeProceed, "Yes",
					"Yes, allow reading from "+filepath.Dir(runPath(toolsOutsidePath).abs())+" during this session", "No")
			},
			key: "1", turnEnd: true},
		// The plan's dialog highlights "Yes, and use auto mode": approve
		// only with the digit of "Yes, manually approve edits".
		{name: "plan-approve", prompt: "plan-notes", tool: "ExitPlanMode", rules: r.plan, files: notes, settings: planMode, idle: planIdle,
			anchors: []string{"Ready to code?", "Here is Claude's plan:", planQ, "3. Tell Claude what to change", "ctrl+g to edit in Vim"},
			marker: func(*rig.Driver) recordings.MarkerState {
				return toolsMarker("Ready to code?", planQ, "Yes, and use auto mode", "Yes, manually approve edits", "Tell Claude what to change")
			},
			key: "2", turnEnd: true},
		// Without a plan the only yes switches the session's mode: a
		// person answers it (persistent_permission_only).
		{name: "plan-exit-empty", prompt: "plan-exit", tool: "ExitPlanMode", rules: r.planNone, settings: planMode, idle: planIdle,
			anchors: []string{"Exit plan mode?", "Claude wants to exit plan mode", "2. No"},
			marker:  planExitMarker,
			key:     "1", turnEnd: true},
		{name: "bash-long", prompt: "bash-long", tool: "Bash", rules: r.bashLong,
			anchors: bashLongAnchors, marker: claudePermissionMarker, key: "1", turnEnd: true,
			check: fileIs("long-line.txt", toolsLongText+"\n", false)},
		{name: "bash-long-80", prompt: "bash-long", tool: "Bash", rules: r.bashLong, width: 80, height: 24,
			anchors: bashLongAnchors, marker: claudePermissionMarker, key: "1", turnEnd: true,
			check: fileIs("long-line.txt", toolsLongText+"\n", false)},
	}
}
