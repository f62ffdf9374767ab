package codexrig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recordings"
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

// codexInspect is what the inspect scenarios know of one Codex version:
// the screens, row by row as drawn (spaces at a row's end trimmed).
type codexInspect struct {
	// models is the /model popup as it opens (the configured model
	// current and highlighted), modelsUp after Up (the model above it
	// highlighted): the title row to the key hints.
	models, modelsUp []string
	// efforts is the chosen model's effort popup as it opens (its
	// default highlighted), effortsDown after Down.
	efforts, effortsDown []string
	// changed is the history row Enter on the effort leaves; line the
	// status line after it; model and effort what config.toml and the
	// next request carry. The status line reads "<line> · ~/project"
	// (0.171.0 after a turn "<line> fast · ~/project · <thread title>").
	changed, line, model, effort string
	// status is /status's block on a fresh session, session its id;
	// statusTurn after one answered turn of the conversation titled
	// by its first prompt.
	status     func(session string) []string
	statusTurn func(session, title string) []string
}

var codexInspects = map[string]codexInspect{
	"0.155.1": {
		models: []string{
			"  Select Model and Effort",
			"  Access legacy models by running codex -m <model_name> or in your config.toml",
			"",
			"  1. gpt-6-astra (default)  Our most capable model for complex, demanding work.",
			"  2. gpt-5.6-sol            Latest frontier agentic coding model.",
			"  3. gpt-5.6-terra          Balanced agentic coding model for everyday work.",
			"  4. gpt-5.6-luna           Fast and affordable agentic coding model.",
			"› 5. gpt-5.5 (current)      Frontier model for complex coding, research, and real-world work.",
			"",
			"  Press enter to confirm or esc to go back",
		},
		modelsUp: []string{
			"  Select Model and Effort",
			"  Access legacy models by running codex -m <model_name> or in your config.toml",
			"",
			"  1. gpt-6-astra (default)  Our most capable model for complex, demanding work.",
			"  2. gpt-5.6-sol            Latest frontier agentic coding model.",
			"  3. gpt-5.6-terra          Balanced agentic coding model for everyday work.",
			"› 4. gpt-5.6-luna           Fast and affordable agentic coding model.",
			"  5. gpt-5.5 (current)      Frontier model for complex coding, research, and real-world work.",
			"",
			"  Press enter to confirm or esc to go back",
		},
		efforts: []string{
			"  Select Reasoning Level for gpt-5.6-luna",
			"",
			"  1. Low               Fast responses with lighter reasoning",
			"› 2. Medium (default)  Balances speed and reasoning depth for everyday tasks",
			"  3. High              Greater reasoning depth for complex problems",
			"  4. Extra high        Extra high reasoning depth for complex problems",
			"  5. More reasoning…   Max consumes usage limits faster",
			"",
			"  Press enter to confirm or esc to go back",
		},
		effortsDown: []string{
			"  Select Reasoning Level for gpt-5.6-luna",
			"",
			"  1. Low               Fast responses with lighter reasoning",
			"  2. Medium (default)  Balances speed and reasoning depth for everyday tasks",
			"› 3. High              Greater reasoning depth for complex problems",
			"  4. Extra high        Extra high reasoning depth for complex problems",
			"  5. More reasoning…   Max consumes usage limits faster",
			"",
			"  Press enter to confirm or esc to go back",
		},
		changed: "• Model changed to gpt-5.6-luna high",
		line:    "gpt-5.6-luna high",
		model:   "gpt-5.6-luna", effort: "high",
		status: func(id string) []string {
			return append([]string{"/status", ""}, codexBox(
				">_ OpenAI Codex (v0.155.1)",
				"",
				"Model:                gpt-5.5 (reasoning medium, summaries auto)",
				"Model provider:       fake",
				"Directory:            ~/project",
				"Permissions:          Read Only (Ask for approval)",
				"Agents.md:            <none>",
				"Collaboration mode:   Default",
				"Session:              "+id,
				"",
				"Token usage:          0 total  (0 input + 0 output)",
				"Limits:               data not available yet",
			)...)
		},
		// No thread name row.
		statusTurn: func(id, _ string) []string {
			return append([]string{"/status", ""}, codexBox(
				">_ OpenAI Codex (v0.155.1)",
				"",
				"Model:                gpt-5.5 (reasoning medium, summaries auto)",
				"Model provider:       fake",
				"Directory:            ~/project",
				"Permissions:          Read Only (Ask for approval)",
				"Agents.md:            <none>",
				"Collaboration mode:   Default",
				"Session:              "+id,
				"",
				"Token usage:          120 total  (100 input + 20 output)",
				"Context window:       100% left (120 used / 258K)",
				"Limits:               data not available yet",
			)...)
		},
	},
	"0.171.0": {
		models: []string{
			"  Select Model and Effort",
			"",
			"",
			"  1. GPT-6.2-Sol          Fast, go-to model for coding and everyday work.",
			"  2. GPT-6.2-Astra        Our most capable model for complex coding and professional work.",
			"  3. GPT-6.1 Terra        Efficient model that excels at visual understanding and computer use.",
			"  4. GPT-6.1-Sol          Previous generation model for coding and everyday work.",
			"  5. GPT-6-Astra          Previous generation model for complex coding and professional work.",
			"› 6. GPT-6-Sol (current)  Legacy model for coding and everyday work.",
			"  7. GPT-6-Luna           Fast and affordable model for easier tasks.",
			"  8. GPT-5.6-Sol          Legacy model for coding and everyday work.",
			"↓",
			"  enter select · esc back",
		},
		modelsUp: []string{
			"  Select Model and Effort",
			"",
			"",
			"  1. GPT-6.2-Sol          Fast, go-to model for coding and everyday work.",
			"  2. GPT-6.2-Astra        Our most capable model for complex coding and professional work.",
			"  3. GPT-6.1 Terra        Efficient model that excels at visual understanding and computer use.",
			"  4. GPT-6.1-Sol          Previous generation model for coding and everyday work.",
			"› 5. GPT-6-Astra          Previous generation model for complex coding and professional work.",
			"  6. GPT-6-Sol (current)  Legacy model for coding and everyday work.",
			"  7. GPT-6-Luna           Fast and affordable model for easier tasks.",
			"  8. GPT-5.6-Sol          Legacy model for coding and everyday work.",
			"↓",
			"  enter select · esc back",
		},
		efforts: []string{
			"  Select Reasoning Level for GPT-6-Astra",
			"",
			"",
			"› 1. Low (default)    Fast responses with lighter reasoning",
			"  2. Medium           Balances speed and reasoning depth for everyday tasks",
			"  3. High             Greater reasoning depth for complex problems",
			"  4. Extra high       Extra high reasoning depth for complex problems",
			"  5. More reasoning…  Max and Ultra consume usage limits faster",
			"",
			"  enter default · s session · esc back",
		},
		effortsDown: []string{
			"  Select Reasoning Level for GPT-6-Astra",
			"",
			"",
			"  1. Low (default)    Fast responses with lighter reasoning",
			"› 2. Medium           Balances speed and reasoning depth for everyday tasks",
			"  3. High             Greater reasoning depth for complex problems",
			"  4. Extra high       Extra high reasoning depth for complex problems",
			"  5. More reasoning…  Max and Ultra consume usage limits faster",
			"",
			"  enter default · s session · esc back",
		},
		changed: "• Model changed to gpt-6-astra medium",
		line:    "GPT-6-Astra medium",
		model:   "gpt-6-astra", effort: "medium",
		status: func(id string) []string {
			return []string{
				"/status",
				"",
				"  >_ OpenAI Codex (v0.171.0)",
				"",
				"  Model:               GPT-6-Sol (reasoning medium, summaries auto)",
				"  Model provider:      fake",
				"  Directory:           ~/project",
				"  Permissions:         Read Only (Ask for approval)",
				"  Agents.md:           <none>",
				"  Collaboration mode:  Default",
				"  Session:             " + id,
				"",
				"  Token usage:         0 total  (0 input + 0 output)",
				"  Limits:              data not available yet",
			}
		},
		statusTurn: func(id, title string) []string {
			return []string{
				"/status",
				"",
				"  >_ OpenAI Codex (v0.171.0)",
				"",
				"  Model:               GPT-6-Sol (reasoning medium, summaries auto)",
				"  Model provider:      fake",
				"  Directory:           ~/project",
				"  Permissions:         Read Only (Ask for approval)",
				"  Agents.md:           <none>",
				"  Thread name:         " + title,
				"  Collaboration mode:  Default",
				"  Session:             " + id,
				"",
				"  Token usage:         120 total  (100 input + 20 output)",
				"  Context window:      100% left (120 used / 258K)",
				"  Limits:              data not available yet",
			}
		},
	},
}

// codexBox draws rows as 0.155.1's /status does: in a rounded box two
// columns in, as wide as its widest row and one column more.
func codexBox(rows ...string) []string {
	w := 0
	for _, r := range rows {
		w = max(w, utf8.RuneCountInString(r))
	}
	out := []string{"╭" + strings.Repeat("─", w+3) + "╮"}
	for _, r := range rows {
		out = append(out, "│  "+r+strings.Repeat(" ", w-utf8.RuneCountInString(r))+" │")
	}
	return append(out, "╰"+strings.Repeat("─", w+3)+"╯")
}

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

// codexCompletion waits until the completion list shows exactly the commands
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

// codexStatusSession waits for /status's Session row and returns its id
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

// codexComposerEmpty waits for the idle composer, empty: its placeholder
// over the status line.
func (s steps) composerEmpty(a rig.Threads) {
	a.Idle(s.Steps)
	a.ComposerRow(s.Steps, "Ask Codex to do anything")
}

// codexOpenRollouts lists the rollout files the run's processes hold open.
func codexOpenRollouts(home string) []string {
	var out []string
	var table procid.Table
	for _, pid := range rig.ProcessesOf(home) {
		files, _ := table.Files(pid, func(base string) bool { return strings.HasPrefix(base, "rollout-") })
		for _, f := range files {
			if !slices.Contains(out, f.Target) {
				out = append(out, f.Target)
			}
		}
	}
	slices.Sort(out)
	return out
}

// codexConfigHas reports whether config.toml holds every line of want.
func codexConfigHas(home string, want ...string) error {
	b, err := os.ReadFile(filepath.Join(home, ".codex", "config.toml"))
	if err != nil {
		return fmt.Errorf("rig: %w", err)
	}
	lines := strings.Split(string(b), "\n")
	for _, w := range want {
		if !slices.Contains(lines, w) {
			return fmt.Errorf("rig: config.toml lacks %q:\n%s", w, b)
		}
	}
	return nil
}

// codexBundledCatalog checks that the popup came from the bundled
// catalog: no request for /models, no models cache written.
func codexBundledCatalog(d *rig.Driver) error {
	for _, r := range d.Log.Requests() {
		if strings.HasSuffix(r.Path, "/models") {
			return fmt.Errorf("rig: Codex asked the fake model for its models: %s %s", r.Method, r.Path)
		}
	}
	if _, err := os.Stat(filepath.Join(d.Home.Home, ".codex", "models_cache.json")); err == nil {
		return fmt.Errorf("rig: Codex wrote a models cache")
	}
	return nil
}

// codexRequestCarries checks the main request of prompt: its "model" and
// "reasoning": {"effort"}.
func codexRequestCarries(d *rig.Driver, prompt, model, effort string) error {
	reqs := d.Log.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		r := reqs[i]
		if r.Kind != "main" || !strings.Contains(r.Prompt, prompt) {
			continue
		}
		var body struct {
			Model     string `json:"model"`
			Reasoning struct {
				Effort string `json:"effort"`
			} `json:"reasoning"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			return fmt.Errorf("rig: request %d: %w", r.Seq, err)
		}
		if body.Model != model || body.Reasoning.Effort != effort {
			return fmt.Errorf("rig: the request of %q carries model %q effort %q, want %q %q", prompt, body.Model, body.Reasoning.Effort, model, effort)
		}
		d.Logger().Info("rig: request carries", "model", body.Model, "effort", body.Reasoning.Effort)
		return nil
	}
	return fmt.Errorf("rig: no model request for %q", prompt)
}

var (
	codexStatusCmds = map[string]string{"/status": codexStatusHint, "/statusline": codexStatuslineHint}
	codexModelCmds  = map[string]string{"/model": codexModelHint}
)

// codexSlash types text into the idle empty composer and marks the
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

func codexInspectStatus() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "status", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) { s.statusRun(a, codexInspects[s.d.Version].status) })}
}

// codexStatusRun is the status scenario: /status typed into the idle
// empty composer of a fresh session, Enter, the block (rows, given the
// Session id) and the idle empty composer under it.
func (s steps) statusRun(a rig.Threads, rows func(id string) []string) {
	d := s.d
	s.slash(a, "/status", "/status", codexStatusCmds)
	s.Key("Enter")
	id := s.statusSession()
	s.ScreenFunc("the /status block", func(text string) bool { return rig.HasRowBlock(text, rows(id)) })
	s.Gone(codexStatuslineHint)
	s.composerEmpty(a)
	s.Mark("idle", rig.ComposerEmpty)
	// The Session row names the thread: its writer lock (its
	// rollout is written at the first prompt; status-ambiguous
	// shows the Session is that rollout's id).
	s.Do(func() error {
		all, _ := filepath.Glob(filepath.Join(d.Home.Home, ".codex", "thread-writer-locks", "*.lock"))
		var locks []string // .coordination.lock aside
		for _, l := range all {
			if !strings.HasPrefix(filepath.Base(l), ".") {
				locks = append(locks, l)
			}
		}
		if len(locks) != 1 || strings.TrimSuffix(filepath.Base(locks[0]), ".lock") != id {
			return fmt.Errorf("rig: /status showed session %s, the thread locks are %v", id, locks)
		}
		return nil
	})
}

func codexInspectStatusCompletion() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "status-completion", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) {
			d := s.d
			// "/statu": both rows, /status first and highlighted; the
			// composer does not hold the command.
			s.slash(a, "/statu", "/status", codexStatusCmds)
			s.Type("s")
			a.ComposerRow(s.Steps, "/status")
			s.completion("/status", codexStatusCmds)
			// Down highlights /statusline; the composer keeps "/status".
			s.Key("Down")
			s.completion("/statusline", codexStatusCmds)
			a.ComposerRow(s.Steps, "/status")
			s.Mark("idle", rig.ComposerDraft)
			s.Do(func() error { d.Logger().Info("rig: status-completion", "screen", d.ScreenText()); return nil })
			s.Key("C-u")
			s.composerEmpty(a)
			s.Gone(codexStatuslineHint)
			s.Mark("idle", rig.ComposerEmpty)
		})}
}

// codexOpenModel types /model, marks it over its completion row, and Enter
// opens the popup with the configured model current.
func (s steps) openModel(a rig.Threads, in codexInspect) {
	s.slash(a, "/model", "/model", codexModelCmds)
	s.Key("Enter")
	s.RowBlock("the /model popup", in.models)
	s.Mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
}

func codexInspectModelMenu() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "model-menu", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) {
			d := s.d
			in := codexInspects[d.Version]
			a.Ask(s.Steps, codexInspectPrompt, codexInspectPrompt, 1)
			s.Do(func() error { return codexRequestCarries(d, codexInspectPrompt, Model(d.Version), "medium") })
			s.openModel(a, in)
			s.Do(func() error { return codexBundledCatalog(d) })
			s.Key("Up")
			s.RowBlock("the model above the current one highlighted", in.modelsUp)
			s.Mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
			s.Key("Enter")
			s.RowBlock("its effort popup", in.efforts)
			s.Mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
			s.Key("Down")
			s.RowBlock("the next effort highlighted", in.effortsDown)
			s.Mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
			s.Key("Enter")
			s.Screen(in.changed, "  "+in.line)
			s.composerEmpty(a)
			s.Mark("idle", rig.ComposerEmpty)
			s.Do(func() error {
				return codexConfigHas(d.Home.Home, fmt.Sprintf("model = %q", in.model), fmt.Sprintf("model_reasoning_effort = %q", in.effort))
			})
			a.Ask(s.Steps, codexInspectAfter, codexInspectPrompt, 2)
			s.Do(func() error { return codexRequestCarries(d, codexInspectAfter, in.model, in.effort) })
		})}
}

// codexInspectModelSession: 0.171.0's effort popup sets the tuple for the
// session alone with "s" (its hint row "enter default · s session · esc
// back"); config.toml keeps the configured model, and /new goes back to
// it.
func codexInspectModelSession() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "model-menu-session", Agent: "codex", Only: []string{"0.171.0"}, Script: codexScript,
		Drive: drive(func(s steps) {
			d := s.d
			in := codexInspects[d.Version]
			a.Ask(s.Steps, codexInspectPrompt, codexInspectPrompt, 1)
			s.openModel(a, in)
			s.Key("Up")
			s.RowBlock("the model above the current one highlighted", in.modelsUp)
			s.Key("Enter")
			s.RowBlock("its effort popup", in.efforts)
			s.Key("Down")
			s.RowBlock("the next effort highlighted", in.effortsDown)
			s.Mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
			s.Key("s")
			s.Screen(in.changed+" for this session only", "  "+in.line)
			s.composerEmpty(a)
			s.Mark("idle", rig.ComposerEmpty)
			s.Do(func() error {
				b, err := os.ReadFile(filepath.Join(d.Home.Home, ".codex", "config.toml"))
				if err != nil || strings.Contains(string(b), "model_reasoning_effort") || !strings.HasPrefix(string(b), fmt.Sprintf("model = %q\n", Model(d.Version))) {
					return fmt.Errorf("rig: config.toml changed by a session-only switch (%v):\n%s", err, b)
				}
				return nil
			})
			a.Ask(s.Steps, codexInspectAfter, codexInspectPrompt, 2)
			s.Do(func() error { return codexRequestCarries(d, codexInspectAfter, in.model, in.effort) })
			// A new conversation starts from the configured model again
			// (its rollout is not written: no prompt there).
			s.slash(a, "/new", "/new", map[string]string{"/new": codexThreads.NewHint})
			s.Key("Enter")
			s.Screen("  GPT-6-Sol default", codexStatus) // "GPT-6-Sol default fast · ~/project"
			s.Gone(in.line)
			s.composerEmpty(a)
			s.Mark("idle", rig.ComposerEmpty)
		})}
}

func codexInspectModelAbandon() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "model-abandon", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) {
			d := s.d
			in := codexInspects[d.Version]
			line := in.models[0] // only to keep the title in the gone checks
			// A bare /model over its completion row: C-u empties it.
			s.slash(a, "/model", "/model", codexModelCmds)
			s.Key("C-u")
			s.composerEmpty(a)
			s.Gone(codexModelHint)
			s.Mark("idle", rig.ComposerEmpty)
			// Esc closes the completion row and leaves "/model" in the
			// composer over the status line; C-u empties it.
			s.slash(a, "/model", "/model", codexModelCmds)
			s.Key("Escape")
			s.Gone(codexModelHint)
			a.ComposerRow(s.Steps, "/model")
			s.Screen(codexStatus)
			s.Mark("idle", rig.ComposerDraft)
			s.Key("C-u")
			s.composerEmpty(a)
			s.Mark("idle", rig.ComposerEmpty)
			// The popup left open: Esc closes it.
			s.openModel(a, in)
			s.Key("Escape")
			s.Gone(line)
			s.composerEmpty(a)
			s.Mark("idle", rig.ComposerEmpty)
			// Left in the effort popup: Esc goes back to the model popup
			// (the other model still highlighted), Esc again closes it.
			s.openModel(a, in)
			s.Key("Up")
			s.RowBlock("the model above the current one highlighted", in.modelsUp)
			s.Key("Enter")
			s.RowBlock("its effort popup", in.efforts)
			s.Mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
			s.Key("Escape")
			s.RowBlock("back in the model popup", in.modelsUp)
			s.Mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
			s.Key("Escape")
			s.Gone(line)
			s.composerEmpty(a)
			s.Mark("idle", rig.ComposerEmpty)
			// Nothing changed.
			s.Do(func() error { return codexConfigHas(d.Home.Home, fmt.Sprintf("model = %q", Model(d.Version))) })
			s.Gone(in.changed)
		})}
}

func codexInspectStatusAmbiguous() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "status-ambiguous", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) {
			d := s.d
			first := a.Ask(s.Steps, codexTwice, codexTwice, 1)
			a.NewThread(s.Steps)
			// The same prompt again, in the new conversation: its own
			// rollout, not the first.
			a.Idle(s.Steps)
			a.Prompt(s.Steps, codexTwice)
			s.Request("prompt "+codexTwice, nil)
			second := s.JournalFile("the second conversation's rollout", func(p string) bool {
				return p != first && rig.CountLines(p, codexThreads.PromptLine(codexTwice)) > 0 && rig.CountLines(p, codexThreads.TurnEnd) >= 1
			})
			s.composerEmpty(a)
			s.Mark("idle", rig.ComposerEmpty)
			s.Do(func() error {
				open := codexOpenRollouts(d.Home.Home)
				if first == second || len(open) != 2 || !slices.Contains(open, first) || !slices.Contains(open, second) {
					return fmt.Errorf("rig: want both rollouts open, %s and %s; open: %v", first, second, open)
				}
				d.Logger().Info("rig: rollouts open", "first", codexThreadID(first), "second", codexThreadID(second))
				return nil
			})
			s.slash(a, "/status", "/status", codexStatusCmds)
			s.Key("Enter")
			id := s.statusSession()
			s.Do(func() error {
				if id != codexThreadID(second) {
					return fmt.Errorf("rig: /status shows session %s, want the second conversation's %s", id, codexThreadID(second))
				}
				return nil
			})
			s.RowBlock("the /status block", codexInspects[d.Version].statusTurn(codexThreadID(second), codexTwice))
			if !rig.VersionAtLeast(d.Version, "0.171.0") {
				// The first conversation's id stays on the screen, above.
				s.Screen("To continue this session, run codex resume " + codexThreadID(first))
			}
			s.composerEmpty(a)
			s.Mark("idle", rig.ComposerEmpty)
			s.Do(func() error { d.Logger().Info("rig: status-ambiguous", "screen", d.ScreenText()); return nil })
		})}
}

func inspectScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out, codexInspectStatus(), codexInspectStatusCompletion(), codexInspectModelMenu(), codexInspectModelSession(), codexInspectModelAbandon(), codexInspectStatusAmbiguous(),
		codexModelCatalog(), codexStatusCwd())
	return out
}
