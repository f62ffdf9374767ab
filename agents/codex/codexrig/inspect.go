package codexrig

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// Native inspection and model control on Codex (issue 22): /status, the
// /model popup and its residues, and /status as the probe of which
// thread a pane runs. status types /status into the idle empty composer
// of a fresh session and Enter; status-completion leaves /statusline
// highlighted under a composer that holds "/status" (no Enter);
// model-menu answers a prompt, switches to another model and effort
// through the popup and asks a second prompt; model-menu-session
// (0.171.0) does it for the session alone, then /new; model-abandon
// leaves /model the ways a person does and cleans up; status-ambiguous
// runs /status with two rollouts open (a prompt, /new, the same prompt
// again).
//
// What Codex 0.155.1 and 0.171.0 really do, measured with these
// scenarios (the screens row by row are codexInspects):
//
//   - The catalog: /model lists the catalog bundled in the binary
//     (codex-rs models-manager's models.json). With an API-key provider
//     (env_key; no ChatGPT login, no command auth) Codex never refreshes
//     it: no GET /v1/models reaches the fake model, no models_cache.json
//     is written under CODEX_HOME. 0.155.1 lists five models by slug,
//     gpt-6-astra "(default)" first, the configured gpt-5.5 last and
//     "(current)", under "Access legacy models by running codex -m
//     <model_name> or in your config.toml"; 0.171.0 eleven by display
//     name (GPT-6.2-Sol ... GPT-5.5; nine numbered, the last two not),
//     eight rows at a time with "↓" / "↑" at the edges, the configured
//     GPT-6-Sol "(current)", none "(default)". The popup opens with the
//     current model highlighted ("› "); Up highlights the one above.
//   - Enter on a model opens its effort popup ("Select Reasoning Level
//     for <model>"): Low, Medium, High, Extra high and "More
//     reasoning…" (seen by hand: a submenu "Advanced Reasoning", Max, and
//     Ultra where the model has it), the model's default "(default)" and
//     highlighted. Enter on an effort closes both and prints "• Model
//     changed to <slug> <effort>" above the idle empty composer; the
//     status line reads the new model (0.171.0 its display name) and
//     effort; config.toml gets model and model_reasoning_effort, so
//     later sessions start with them. 0.171.0's hint row
//     "enter default · s session · esc back" offers "s": "• Model
//     changed to <slug> <effort> for this session only", config.toml
//     untouched, and /new goes back to the configured model. The next
//     request carries "model" and "reasoning": {"effort"} as chosen (the
//     one before, the configured model and "medium").
//   - /status prints a block into the history (0.155.1 boxed, 0.171.0
//     not) and leaves the idle empty composer: Model (with "reasoning
//     <effort>, summaries auto"; "medium" where the status line says
//     "default"), Model provider, Directory, Permissions, Agents.md,
//     Thread name (0.171.0, once the thread has a prompt), Collaboration
//     mode, Session (the thread id: its writer lock's name on a fresh
//     session, the rollout its prompts are written to), Token usage,
//     Context window (after a turn), Limits
//     ("data not available yet": no account, no rate limits offline).
//     No model request is made.
//   - Typing "/status" lists /status (highlighted: the whole row bold,
//     0.155.1 cyan, 0.171.0 reverse with "›") and /statusline under it
//     (0.171.0: above the composer); "/statu" the same. Down highlights
//     /statusline and leaves the composer's "/status" as it is: Enter
//     would run /statusline. C-u empties the composer and closes the
//     list.
//   - The residues of a failed /model (repair_model_control): the popup
//     left open: Esc closes it, back to the idle empty composer (from
//     the effort popup, Esc goes back to the model popup first, the
//     model highlighted there kept; a second Esc closes it); a bare
//     "/model" in the composer (its completion row open): C-u empties
//     it; Esc only closes the completion row and leaves "/model" over
//     the status line, which C-u then empties. Nothing is changed by
//     any of these.
//   - Two rollouts open: after /new and a prompt the process holds both
//     threads' rollouts open (its file descriptors); /status's Session
//     row names the current (second) thread, the one the next prompt
//     goes to. 0.155.1 also keeps "To continue this session, run codex
//     resume <first id>" on the screen above.
//
// Markers: the composer with the typed command over its completion list
// is idle with a draft (as in threads.go); the model and effort popups
// are menu_or_viewer with the composer absent and nothing to act on;
// the screens after are idle and empty (the /status block is history).

var codexInspectVersions = []string{"0.155.1", "0.171.0"}

const (
	codexStatusHint     = "show current session configuration and token usage"
	codexStatuslineHint = "configure which items appear in the status line"
	codexModelHint      = "choose what model and reasoning effort to use"
	// The prompts, answered by the corpus script's "hello". Each
	// recording's journal starts with the first prompt typed (watchers'
	// TestFixturesAcceptTypedPrompt): a prompt comes before /model.
	codexInspectPrompt = "hello before the switch"
	codexInspectAfter  = "hello after the switch"
	// codexTwice is asked in both conversations of status-ambiguous:
	// the rollout kept (the second) starts with the first prompt typed.
	codexTwice = "hello there"
)

// codexCompletionRow matches a row of the slash-command completion list:
// the command at its start (after 0.171.0's highlight glyph), spaces,
// its description.
func codexCompletionRow(text, cmd, hint string) bool {
	t := strings.TrimPrefix(strings.TrimLeft(text, " "), "› ")
	rest, ok := strings.CutPrefix(t, cmd+"  ")
	return ok && strings.TrimSpace(rest) == hint
}

// codexHighlighted reports which rows of the completion list (by
// command) are drawn highlighted: the whole row bold (0.155.1 bold cyan,
// 0.171.0 bold reverse with a "›"), where another row draws only the
// typed letters bold and its "/" plain. listed says which commands are on
// the screen at all.
func codexHighlighted(sc *vt.Screen, cmds map[string]string) (listed, lit map[string]bool) {
	listed, lit = map[string]bool{}, map[string]bool{}
	_, h := sc.Size()
	for y := 0; y < h; y++ {
		var b strings.Builder
		var cells []vt.Cell
		for _, c := range sc.Row(y) {
			if c.Width == 0 {
				continue
			}
			b.WriteString(c.Text)
			cells = append(cells, c)
		}
		text := strings.ReplaceAll(b.String(), "\u00a0", " ")
		for cmd, hint := range cmds {
			if !codexCompletionRow(text, cmd, hint) {
				continue
			}
			listed[cmd] = true
			x := slices.IndexFunc(cells, func(c vt.Cell) bool { return c.Text == "/" })
			if x >= 0 {
				_, _, attrs := cells[x].Style.Decompose()
				lit[cmd] = attrs&tcell.AttrBold != 0
			}
		}
	}
	return listed, lit
}

// completion waits until the completion list shows exactly the commands
// of cmds (command: description) with the one named highlighted.
func (s steps) completion(highlighted string, cmds map[string]string) {
	s.Do(func() error {
		return s.d.ScreenCells(fmt.Sprintf("completion list %v, %s highlighted", cmds, highlighted), func(sc *vt.Screen) bool {
			listed, lit := codexHighlighted(sc, cmds)
			if len(listed) != len(cmds) {
				return false
			}
			for cmd := range cmds {
				if lit[cmd] != (cmd == highlighted) {
					return false
				}
			}
			return true
		})
	})
}

var codexSessionRow = regexp.MustCompile(`Session: +([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`)

// statusSession waits for /status's Session row and returns its id
// (the last one on the screen).
func (s steps) statusSession() string {
	var id string
	s.ScreenFunc("/status's Session row", func(text string) bool {
		m := codexSessionRow.FindAllStringSubmatch(text, -1)
		if len(m) == 0 {
			return false
		}
		id = m[len(m)-1][1]
		return true
	})
	return id
}

// composerEmpty waits for the idle composer, empty: its placeholder
// over the status line.
func (s steps) composerEmpty(a rig.Threads) {
	a.Idle(s.Steps)
	a.ComposerRow(s.Steps, "Ask Codex to do anything")
}

// idleEmpty waits for the idle screen with its composer empty and marks it.
func (s steps) idleEmpty(a rig.Threads) {
	s.composerEmpty(a)
	s.Mark("idle", rig.ComposerEmpty)
}

var (
	codexStatusCmds = map[string]string{"/status": codexStatusHint, "/statusline": codexStatuslineHint}
	codexModelCmds  = map[string]string{"/model": codexModelHint}
)

// slash types text into the idle empty composer and marks the
// composer holding it over its completion list (idle, draft): the list
// shows cmds with highlighted highlighted.
func (s steps) slash(a rig.Threads, text, highlighted string, cmds map[string]string) {
	s.composerEmpty(a)
	s.Type(text)
	a.ComposerRow(s.Steps, text)
	s.completion(highlighted, cmds)
	s.Pause(codexEnterGap) // out of the paste-burst window
	s.Mark("idle", rig.ComposerDraft)
}

func inspectScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out, codexInspectStatus(), codexInspectStatusCompletion(), codexInspectModelMenu(), codexInspectModelSession(), codexInspectModelAbandon(), codexInspectStatusAmbiguous(),
		codexModelCatalog(), codexStatusCwd())
	return out
}
