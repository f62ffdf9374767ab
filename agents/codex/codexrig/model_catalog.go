package codexrig

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Codex's /model catalog read in full (issue 22: native model control):
// model-catalog answers one prompt, opens /model, moves the highlight
// from the current model Up to the first row, then for every model top
// to bottom: the highlight on it (Down), Enter (its effort popup), Esc
// (back to the model popup); a last Esc closes it.
//
// Markers: the model popup with each model highlighted, its effort popup
// and the model popup again after Esc, menu_or_viewer with the composer
// absent; the composer before and after idle and empty.
//
// What Codex 0.155.1 and 0.171.0 really do, measured with this scenario
// (the rows exactly are codexCatalogs'):
//
//   - Every model's Enter opens its effort popup ("Select Reasoning Level
//     for <model>"); none applies a model directly, none has a single
//     effort. Esc there goes back to the model popup with the same model
//     highlighted and the same rows scrolled into view.
//   - 0.155.1 lists five models by slug: gpt-6-astra "(default)",
//     gpt-5.6-sol, gpt-5.6-terra, gpt-5.6-luna, gpt-5.5 "(current)" (the
//     configured one, highlighted as it opens). Up on the first row
//     wraps to the last, Down on the last to the first.
//   - 0.171.0 lists eleven by display name: GPT-6.2-Sol, GPT-6.2-Astra,
//     GPT-6.1 Terra, GPT-6.1-Sol, GPT-6-Astra, GPT-6-Sol "(current)",
//     GPT-6-Luna, GPT-5.6-Sol, GPT-5.6-Terra (numbered 1 to 9), then
//     GPT-5.6-Luna and GPT-5.5 without numbers; none "(default)". Eight
//     rows are drawn at a time: "↓" under them while rows follow, "↑"
//     over them (in the blank row under the title) while rows precede;
//     Down past the eighth row scrolls one row a press (the highlighted
//     row is the last drawn). Down on GPT-5.5 wraps to GPT-6.2-Sol (the
//     first eight rows again), Up on the first row to GPT-5.5.
//   - The effort popups list Low, Medium, High, Extra high and, on every
//     model but gpt-5.5 (GPT-5.5), "More reasoning…" ("Max and Ultra
//     consume usage limits faster"; gpt-5.6-luna / GPT-6-Luna and
//     GPT-5.6-Luna "Max consumes usage limits faster": no Ultra). The
//     model's default is marked "(default)" and highlighted as the popup
//     opens: Low on gpt-6-astra and gpt-5.6-sol (0.155.1), on
//     GPT-6.2-Sol, GPT-6.2-Astra, GPT-6.1 Terra, GPT-6.1-Sol, GPT-6-Astra
//     and GPT-5.6-Sol (0.171.0); Medium on the others. gpt-5.5 has four
//     levels only. (The "More reasoning…" submenu is not walked.)
//   - Walking the whole catalog writes nothing: config.toml is the same
//     bytes after the last Esc, no request reaches the fake model (no GET
//     /v1/models either, no models_cache.json), no history row is
//     printed; the idle empty composer comes back.

// codexCatalog is one version's /model popup and effort popups.
type codexCatalog struct {
	// head are the popup's rows over the up-arrow slot (its title and
	// the row under it), hint its key hint row; visible how many model
	// rows it draws at once, current the row highlighted as it opens.
	head    []string
	hint    string
	visible int
	current int
	models  []codexCatalogModel
	// effortHead are the effort popup's rows between its title and its
	// rows, effortHint its key hint row.
	effortHead []string
	effortHint string
}

// codexCatalogModel is one model: its row as drawn after the highlight
// column, the name its effort popup's title gives it, the index of its
// default effort and the description of its "More reasoning…" row (""
// for none).
type codexCatalogModel struct {
	row, name string
	def       int
	more      string
}

const (
	codexMaxUltra = "Max and Ultra consume usage limits faster"
	codexMaxOnly  = "Max consumes usage limits faster"
)

var codexCatalogs = map[string]codexCatalog{
	"0.155.1": {
		head:    []string{"  Select Model and Effort", "  Access legacy models by running codex -m <model_name> or in your config.toml"},
		hint:    "  Press enter to confirm or esc to go back",
		visible: 8, current: 4,
		models: []codexCatalogModel{
			{"1. gpt-6-astra (default)  Our most capable model for complex, demanding work.", "gpt-6-astra", 0, codexMaxUltra},
			{"2. gpt-5.6-sol            Latest frontier agentic coding model.", "gpt-5.6-sol", 0, codexMaxUltra},
			{"3. gpt-5.6-terra          Balanced agentic coding model for everyday work.", "gpt-5.6-terra", 1, codexMaxUltra},
			{"4. gpt-5.6-luna           Fast and affordable agentic coding model.", "gpt-5.6-luna", 1, codexMaxOnly},
			{"5. gpt-5.5 (current)      Frontier model for complex coding, research, and real-world work.", "gpt-5.5", 1, ""},
		},
		effortHead: []string{""},
		effortHint: "  Press enter to confirm or esc to go back",
	},
	"0.171.0": {
		head:    []string{"  Select Model and Effort", ""},
		hint:    "  enter select · esc back",
		visible: 8, current: 5,
		models: []codexCatalogModel{
			{"1. GPT-6.2-Sol          Fast, go-to model for coding and everyday work.", "GPT-6.2-Sol", 0, codexMaxUltra},
			{"2. GPT-6.2-Astra        Our most capable model for complex coding and professional work.", "GPT-6.2-Astra", 0, codexMaxUltra},
			{"3. GPT-6.1 Terra        Efficient model that excels at visual understanding and computer use.", "GPT-6.1 Terra", 0, codexMaxUltra},
			{"4. GPT-6.1-Sol          Previous generation model for coding and everyday work.", "GPT-6.1-Sol", 0, codexMaxUltra},
			{"5. GPT-6-Astra          Previous generation model for complex coding and professional work.", "GPT-6-Astra", 0, codexMaxUltra},
			{"6. GPT-6-Sol (current)  Legacy model for coding and everyday work.", "GPT-6-Sol", 1, codexMaxUltra},
			{"7. GPT-6-Luna           Fast and affordable model for easier tasks.", "GPT-6-Luna", 1, codexMaxOnly},
			{"8. GPT-5.6-Sol          Legacy model for coding and everyday work.", "GPT-5.6-Sol", 0, codexMaxUltra},
			{"9. GPT-5.6-Terra        Legacy balanced model for agentic coding.", "GPT-5.6-Terra", 1, codexMaxUltra},
			{"    GPT-5.6-Luna        Legacy fast model for simpler tasks.", "GPT-5.6-Luna", 1, codexMaxOnly},
			{"    GPT-5.5             Legacy coding model.", "GPT-5.5", 1, ""},
		},
		effortHead: []string{"", ""},
		effortHint: "  enter default · s session · esc back",
	},
}

// codexEfforts are the effort popup's levels and descriptions.
var codexEfforts = [][2]string{
	{"Low", "Fast responses with lighter reasoning"},
	{"Medium", "Balances speed and reasoning depth for everyday tasks"},
	{"High", "Greater reasoning depth for complex problems"},
	{"Extra high", "Extra high reasoning depth for complex problems"},
}

// modelRows is the model popup with model i highlighted, rows first..
// first+visible drawn.
func (c codexCatalog) modelRows(i, first int) []string {
	last := min(first+c.visible, len(c.models))
	up, down := "", ""
	if first > 0 {
		up = "↑"
	}
	if last < len(c.models) {
		down = "↓"
	}
	out := append(append([]string(nil), c.head...), up)
	for j := first; j < last; j++ {
		out = append(out, codexLit(j == i)+c.models[j].row)
	}
	return append(out, down, c.hint)
}

// effortRows is model m's effort popup as it opens: its levels, labels
// padded to the widest and two spaces, the default highlighted.
func (c codexCatalog) effortRows(m codexCatalogModel) []string {
	labels := [][2]string{}
	for k, e := range codexEfforts {
		if k == m.def {
			e[0] += " (default)"
		}
		labels = append(labels, e)
	}
	if m.more != "" {
		labels = append(labels, [2]string{"More reasoning…", m.more})
	}
	w := 0
	for _, l := range labels {
		w = max(w, utf8.RuneCountInString(l[0]))
	}
	out := append([]string{"  Select Reasoning Level for " + m.name}, c.effortHead...)
	for k, l := range labels {
		pad := strings.Repeat(" ", w+2-utf8.RuneCountInString(l[0]))
		out = append(out, fmt.Sprintf("%s%d. %s%s%s", codexLit(k == m.def), k+1, l[0], pad, l[1]))
	}
	return append(out, "", c.effortHint)
}

// codexLit is the highlight column: "› " on the highlighted row.
func codexLit(on bool) string {
	if on {
		return "› "
	}
	return "  "
}

// codexConfigBytes reads $CODEX_HOME/config.toml as it is.
func codexConfigBytes(h *rig.Home) ([]byte, error) {
	return os.ReadFile(filepath.Join(h.Home, ".codex", "config.toml"))
}

// catalogWalk visits every model of the open popup top to bottom:
// highlighted (marked), Enter (its effort popup, marked), Esc (the model
// popup again, marked).
func (s steps) catalogWalk(c codexCatalog) {
	absent := recordings.MarkerState{Composer: "absent"}
	// Up from the current model to the first: the window does not move.
	for i := c.current - 1; i >= 0; i-- {
		s.Key("Up")
		s.RowBlock(fmt.Sprintf("model %d highlighted", i+1), c.modelRows(i, 0))
	}
	first := 0
	for i, m := range c.models {
		if i >= first+c.visible {
			first = i - c.visible + 1 // Down scrolls one row
		}
		if i > 0 {
			s.Key("Down")
		}
		s.RowBlock(fmt.Sprintf("model %d highlighted", i+1), c.modelRows(i, first))
		s.Mark("menu_or_viewer", absent)
		s.Key("Enter")
		s.RowBlock(m.name+"'s effort popup", c.effortRows(m))
		s.Mark("menu_or_viewer", absent)
		s.Do(func() error {
			s.d.Logger().Info("rig: effort popup", "model", m.name, "rows", fmt.Sprintf("%q", c.effortRows(m)))
			return nil
		})
		s.Key("Escape")
		s.RowBlock(fmt.Sprintf("back at model %d", i+1), c.modelRows(i, first))
		s.Mark("menu_or_viewer", absent)
	}
}

func codexModelCatalog() *rig.Scenario {
	a := codexThreads
	return &rig.Scenario{Name: "model-catalog", Agent: "codex", Only: codexInspectVersions, Script: codexScript,
		Drive: drive(func(s steps) {
			d := s.d
			in, c := codexInspects[d.Version], codexCatalogs[d.Version]
			a.Ask(s.Steps, codexInspectPrompt, codexInspectPrompt, 1)
			var config []byte
			var seen int
			s.Do(func() (err error) {
				config, err = codexConfigBytes(d.Home)
				seen = len(d.Log.Requests())
				return err
			})
			s.openModel(a, in)
			s.RowBlock("the popup as it opens", c.modelRows(c.current, 0))
			s.catalogWalk(c)
			s.Key("Escape")
			s.Gone(c.head[0])
			s.idleEmpty(a)
			s.Gone("Model changed")
			s.Do(func() error {
				after, err := codexConfigBytes(d.Home)
				switch {
				case err != nil:
					return err
				case !bytes.Equal(after, config):
					return fmt.Errorf("rig: config.toml changed by the walk:\n%s\nbefore:\n%s", after, config)
				case len(d.Log.Requests()) != seen:
					return fmt.Errorf("rig: the walk made %d requests to the fake model", len(d.Log.Requests())-seen)
				}
				return codexBundledCatalog(d)
			})
		})}
}
