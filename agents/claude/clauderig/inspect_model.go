package clauderig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Claude Code's /model picker (inspect.go records it with the
// status surfaces): its rows, the model tuple a request carries, and the
// model-menu and model-abandon scenarios.

var pickerRowRE = regexp.MustCompile(`^\s*(❯)?\s*(\d)\. (.+?)( ✔)?\s{2,}(\S.*)$`)

// parsePicker reads the model picker's rows (a description wrapped onto a
// second row joined with a space) and its effort row.
func parsePicker(text string) (rows []pickerRow, effort string) {
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch m := pickerRowRE.FindStringSubmatch(l); {
		case strings.Contains(l, "Select model"):
			in, rows = true, nil
		case !in:
		case m != nil:
			rows = append(rows, pickerRow{n: int(m[2][0] - '0'), label: m[3], desc: strings.TrimSpace(m[5]),
				current: m[4] != "", highlighted: m[1] != ""})
		case strings.Contains(l, "to adjust"):
			effort = strings.TrimSpace(l)
			in = false
		case len(rows) > 0 && strings.TrimSpace(l) != "" && strings.HasPrefix(l, strings.Repeat(" ", 20)):
			rows[len(rows)-1].desc += " " + strings.TrimSpace(l)
		}
	}
	return rows, effort
}

// picker waits for the model picker with rows (as they should read) and
// the effort row, and marks it.
func (s steps) picker(rows []pickerRow, effort string) {
	ci := claudeInspects[s.d.Version]
	s.Screen("Select model", ci.pickerHint)
	s.noComposer()
	var got []pickerRow
	var gotEffort string
	s.Do(func() error {
		err := s.d.ScreenFunc("the model picker's rows", func(text string) bool {
			got, gotEffort = parsePicker(text)
			return fmt.Sprint(got) == fmt.Sprint(rows) && gotEffort == effort
		})
		s.d.Logger().Info("rig: model picker", "rows", fmt.Sprintf("%+v", got), "effort", gotEffort)
		return err
	})
	s.Mark("menu_or_viewer", rig.ComposerAbsent)
}

// highlight returns rows with the row labelled label alone highlighted.
func highlight(rows []pickerRow, label string) []pickerRow {
	out := append([]pickerRow(nil), rows...)
	for i := range out {
		out[i].highlighted = out[i].label == label
	}
	return out
}

// lastModelTuple is the model and effort of the newest main request whose
// prompt holds prompt.
func lastModelTuple(reqs []fakemodel.Request, prompt string) (modelTuple, error) {
	for i := len(reqs) - 1; i >= 0; i-- {
		r := reqs[i]
		if !fakemodel.Main(r) || !strings.Contains(r.Prompt, prompt) {
			continue
		}
		var b struct {
			Model        string `json:"model"`
			OutputConfig struct {
				Effort string `json:"effort"`
			} `json:"output_config"`
		}
		if err := json.Unmarshal(r.Body, &b); err != nil {
			return modelTuple{}, fmt.Errorf("rig: request %d: %w", r.Seq, err)
		}
		return modelTuple{b.Model, b.OutputConfig.Effort}, nil
	}
	return modelTuple{}, fmt.Errorf("rig: no model request for %q", prompt)
}

// noModelList fails if any request to the fake server was not a Messages
// call (or count_tokens, or Claude's HEAD probe): the picker reads no
// models endpoint.
func noModelList(reqs []fakemodel.Request) error {
	for _, r := range reqs {
		switch {
		case r.Method == "HEAD", r.Method == "POST" && strings.HasPrefix(r.Path, "/v1/messages"):
		default:
			return fmt.Errorf("rig: request %d %s %s to the fake server", r.Seq, r.Method, r.Path)
		}
	}
	return nil
}

// claudeSettings reads ~/.claude/settings.json.
func claudeSettings(h *rig.Home) (map[string]any, error) {
	b, err := os.ReadFile(filepath.Join(h.Home, ".claude", "settings.json"))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

// openPicker types /model and Enter at the idle composer and marks the
// picker as first drawn.
func (s steps) openPicker() {
	ci := claudeInspects[s.d.Version]
	s.slash("/model", ci.modelList)
	s.Key("Enter")
	s.picker(ci.pickerRows, ci.effortBefore)
}

// pickTarget moves the open picker down to the target row and changes its
// effort, each its own screen.
func (s steps) pickTarget(ci claudeInspect) {
	for _, r := range ci.pickerRows {
		if r.label == ci.target {
			for range r.n - 1 {
				s.Key("Down")
			}
		}
	}
	s.picker(highlight(ci.pickerRows, ci.target), ci.effortBefore)
	s.Key(ci.effortKey)
	s.picker(highlight(ci.pickerRows, ci.target), ci.effortAfter)
}

// escapePicker leaves the open picker with Esc: the model kept, the idle
// screen back.
func (s steps) escapePicker(ci claudeInspect) {
	s.Key("Escape")
	s.Screen("❯ /model", ci.keptAs)
	s.Gone("Select model")
	s.idleEmpty()
}

// requestCarries fails unless the newest main request for prompt (the
// request what, for the log and the error) carried want.
func requestCarries(d *rig.Driver, prompt, what string, want modelTuple) error {
	got, err := lastModelTuple(d.Log.Requests(), prompt)
	d.Logger().Info("rig: model request "+what, "model", got.Model, "effort", got.Effort)
	if err == nil && got != want {
		err = fmt.Errorf("rig: the request %s carries %+v, want %+v", what, got, want)
	}
	return err
}

// settingsModel is settings.json's "model" and the effortLevel of its
// modelSettings[id].
func settingsModel(h *rig.Home, id string) (model, effort string, err error) {
	m, err := claudeSettings(h)
	if err != nil {
		return "", "", err
	}
	model, _ = m["model"].(string)
	if ms, ok := m["modelSettings"].(map[string]any); ok {
		if e, ok := ms[id].(map[string]any); ok {
			effort, _ = e["effortLevel"].(string)
		}
	}
	return model, effort, nil
}

func claudeModelMenu() *rig.Scenario {
	return &rig.Scenario{Name: "model-menu", Agent: "claude", Only: claudeInspectVersions, Script: claudeScript,
		Drive: drive(func(s steps) {
			d := s.d
			ci := claudeInspects[d.Version]
			s.answer(inspectPrompt, 1)
			s.Do(func() error { return requestCarries(d, inspectPrompt, "before the switch", ci.requestBefore) })
			s.openPicker()
			s.pickTarget(ci)
			s.Key("Enter")
			// In a conversation: the confirmation, Yes highlighted.
			s.Screen(ci.switchAsk...)
			s.noComposer()
			s.Do(func() error {
				d.Logger().Info("rig: switch confirmation", "screen", d.ScreenText())
				return nil
			})
			s.Mark("menu_or_viewer", rig.ComposerAbsent)
			s.Key("Enter")
			s.Screen("❯ /model", ci.savedAs)
			s.idleEmpty()
			s.Do(func() error {
				model, effort, err := settingsModel(d.Home, ci.requestAfter.Model)
				if err == nil && (model != ci.settingsModel || effort != ci.settingsEffort) {
					err = fmt.Errorf("rig: settings.json holds model %q effort %q, want %q %q", model, effort, ci.settingsModel, ci.settingsEffort)
				}
				return err
			})
			s.answer(inspectAfter, 2)
			s.Do(func() error {
				err := requestCarries(d, inspectAfter, "after the switch", ci.requestAfter)
				if err == nil {
					err = noModelList(d.Log.Requests())
				}
				return err
			})
		})}
}

func claudeModelAbandon() *rig.Scenario {
	return &rig.Scenario{Name: "model-abandon", Agent: "claude", Only: claudeInspectVersions, Script: claudeScript,
		Drive: drive(func(s steps) {
			d := s.d
			ci := claudeInspects[d.Version]
			s.idle()
			s.Mark("idle", rig.ComposerEmpty)
			s.openPicker()
			s.escapePicker(ci)
			s.Do(func() error {
				model, _, err := settingsModel(d.Home, "")
				switch {
				case err != nil:
					return err
				case model != "":
					return fmt.Errorf("rig: Esc saved model %q", model)
				case messagesRequests(d.Log.Requests()) > 0:
					return fmt.Errorf("rig: model requests after Esc")
				}
				return noModelList(d.Log.Requests())
			})
		})}
}
