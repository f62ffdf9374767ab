package codexrig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// /model (inspect.go): the popup, its effort popup, a session-only switch
// and the ways a person leaves it.

// popup waits for a popup drawn as rows (what names it) and marks it.
func (s steps) popup(what string, rows []string) {
	s.RowBlock(what, rows)
	s.Mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
}

// openModel types /model, marks it over its completion row, and Enter
// opens the popup with the configured model current.
func (s steps) openModel(a rig.Threads, in codexInspect) {
	s.slash(a, "/model", "/model", codexModelCmds)
	s.Key("Enter")
	s.popup("the /model popup", in.models)
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
			s.popup("the model above the current one highlighted", in.modelsUp)
			s.Key("Enter")
			s.popup("its effort popup", in.efforts)
			s.Key("Down")
			s.popup("the next effort highlighted", in.effortsDown)
			s.Key("Enter")
			s.Screen(in.changed, "  "+in.line)
			s.idleEmpty(a)
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
			s.popup("the next effort highlighted", in.effortsDown)
			s.Key("s")
			s.Screen(in.changed+" for this session only", "  "+in.line)
			s.idleEmpty(a)
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
			s.idleEmpty(a)
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
			s.idleEmpty(a)
			// The popup left open: Esc closes it.
			s.openModel(a, in)
			s.Key("Escape")
			s.Gone(line)
			s.idleEmpty(a)
			// Left in the effort popup: Esc goes back to the model popup
			// (the other model still highlighted), Esc again closes it.
			s.openModel(a, in)
			s.Key("Up")
			s.RowBlock("the model above the current one highlighted", in.modelsUp)
			s.Key("Enter")
			s.popup("its effort popup", in.efforts)
			s.Key("Escape")
			s.popup("back in the model popup", in.modelsUp)
			s.Key("Escape")
			s.Gone(line)
			s.idleEmpty(a)
			// Nothing changed.
			s.Do(func() error { return codexConfigHas(d.Home.Home, fmt.Sprintf("model = %q", Model(d.Version))) })
			s.Gone(in.changed)
		})}
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
