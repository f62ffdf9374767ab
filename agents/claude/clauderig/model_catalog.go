package clauderig

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Claude Code's /model picker read in full (issue 22: native model
// control), after one answered prompt:
//
//   - model-catalog: "/model" Enter, then every model row top to bottom
//     (the first as the picker opens, Down onto each next one), and on
//     each the effort row walked with ←/→ through every level and back
//     to the level it showed; Esc.
//   - model-session: "/model" Enter, Down to Sonnet, the effort changed
//     (as model-menu: 2.1.267 Left, 2.1.332 Right), "s" (this session
//     only), the confirmation, Enter on Yes, and one more prompt.
//
// Every picker screen is marked menu_or_viewer with the composer absent,
// so is the confirmation; the composer after them idle and empty.
//
// What the agents really do (Claude Code 2.1.267 and 2.1.332), measured
// with these scenarios (the exact rows are claudeInspects' pickerRows and
// claudeCatalogs'):
//
//   - The catalog is the picker's five rows, built in (no request reaches
//     the fake server for it), "Default (recommended) ✔" current and
//     highlighted as it opens. 2.1.267: Default (recommended) (Opus 5
//     (1M context)), Opus (1M context), Sonnet (Sonnet 5), Sonnet 5 (1M
//     context), Haiku (Haiku 4.5). 2.1.332: Default (recommended) (Opus
//     5.5), Opus (Opus 5.5), Fable (Fable 5.2), Sonnet (Sonnet 5.5),
//     Haiku (Haiku 5.5).
//   - Up and Down move the highlight and wrap at both ends (Up on the
//     first row highlights Haiku, Down on Haiku the first row). The
//     effort row is the picker's, not the model's: it keeps the level
//     ←/→ gave it when the highlight moves to another model (both
//     versions).
//   - 2.1.267's effort levels are a ring: "○ Low effort", "◐ Medium
//     effort", "● High effort (default)", "◉ xHigh effort", "◈ Max
//     effort", "✦ Ultracode effort", each followed by "←/→ to adjust";
//     Right from High goes xHigh, Max, Ultracode, Low, Medium and High
//     again (six presses), Left the other way. The four Opus and Sonnet
//     rows share that ring and that default. Haiku has no effort: the
//     row reads "○ Effort not supported for Haiku" (no "←/→ to adjust")
//     and ←/→ change nothing.
//   - 2.1.332's levels are a line, not a ring: "○ Low effort", "◐ Medium
//     effort (default)", "● High effort", "◉ xHigh effort", "◈ Max
//     effort"; Right on Max and Left on Low change nothing (no wrap, no
//     Ultracode). All five models have them, Haiku too, with the same
//     default.
//   - Max draws a row under the effort row on both versions: "May use
//     excessive tokens resulting in long response times or overthinking.
//     Use sparingly for the hardest tasks." The picker grows a row for it
//     (its upper rule one row higher) and keeps that row, blank, on every
//     later screen until it closes: from the first Max on, two blank rows
//     separate the effort row from the key hints, not one.
//   - Esc after the walk prints "❯ /model" and "⎿  Kept model as <name>
//     (default)" over the idle empty composer, the same as model-abandon
//     in a fresh session: settings.json is not written, no request is
//     made.
//   - "s" in the picker asks the same "Switch model?" confirmation Enter
//     does in a conversation with a turn ("❯ 1. Yes, switch to <name>",
//     "2. No, go back"); Enter on Yes prints "❯ /model" and "⎿  Set model
//     to <name> for this session only with <effort> effort" (2.1.267
//     "Sonnet 5 ... medium", 2.1.332 "Sonnet 5.5 ... high"); the header
//     reads "<name> with <effort> effort", the footer's effort chip the
//     new effort; settings.json is not written; the transcript gets the
//     /model command and "Set model to `<name>` for this session only
//     with `<effort>` effort" as local-command lines; the next request
//     carries the model id and output_config.effort (claude-sonnet-5 /
//     medium, claude-sonnet-5-5 / high), as Enter's does.

// claudeCatalog is the effort row of one version's picker.
type claudeCatalog struct {
	// levels are the effort levels as the row draws them (before " ←/→
	// to adjust"), Left to Right; start is the one the picker opens on.
	levels []string
	start  int
	// ring: Right on the last level goes to the first (Left the other
	// way); else both ends stay put.
	ring bool
	// noEffort are the rows of models without effort levels: the row
	// drawn instead, ←/→ doing nothing.
	noEffort map[string]string
	// maxNote is the row drawn under the "Max" level.
	maxNote string
	// sessionSet is the history row of "s" and Yes.
	sessionSet string
}

const claudeAdjust = " ←/→ to adjust"

var claudeCatalogs = map[string]claudeCatalog{
	"2.1.267": {
		levels: []string{"○ Low effort", "◐ Medium effort", "● High effort (default)", "◉ xHigh effort", "◈ Max effort", "✦ Ultracode effort"},
		start:  2, ring: true,
		noEffort:   map[string]string{"Haiku": "○ Effort not supported for Haiku"},
		maxNote:    "May use excessive tokens resulting in long response times or overthinking. Use sparingly for the hardest tasks.",
		sessionSet: "Set model to Sonnet 5 for this session only with medium effort",
	},
	"2.1.332": {
		levels:     []string{"○ Low effort", "◐ Medium effort (default)", "● High effort", "◉ xHigh effort", "◈ Max effort"},
		start:      1,
		maxNote:    "May use excessive tokens resulting in long response times or overthinking. Use sparingly for the hardest tasks.",
		sessionSet: "Set model to Sonnet 5.5 for this session only with high effort",
	},
}

// claudeRingCap is the most Right presses a ring may take to come back.
const claudeRingCap = 8

// claudeKeyQuiet is how long the picker must stay still after a key that
// should change nothing.
const claudeKeyQuiet = 300 * time.Millisecond

// pickerEffort reads the picker's effort row (the row after "Select
// model" that starts with an effort glyph) and the row under it, both
// trimmed.
func pickerEffort(text string) (row, under string) {
	lines := strings.Split(text, "\n")
	in := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.Contains(l, "Select model"):
			in = true
		case !in:
		case strings.ContainsAny(firstRune(t), "○◐●◉◈✦"):
			if i+1 < len(lines) {
				under = strings.TrimSpace(lines[i+1])
			}
			return t, under
		}
	}
	return "", ""
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

// catalogPicker waits for the picker with rows and the effort row
// reading effort, the row under it under, logs it and marks it.
func (s steps) catalogPicker(rows []pickerRow, effort, under string) {
	var got []pickerRow
	var gotEffort, gotUnder string
	s.Do(func() error {
		err := s.d.ScreenFunc(fmt.Sprintf("the picker, effort %q over %q", effort, under), func(text string) bool {
			got, _ = parsePicker(text)
			gotEffort, gotUnder = pickerEffort(text)
			return fmt.Sprint(got) == fmt.Sprint(rows) && gotEffort == effort && gotUnder == under
		})
		s.d.Logger().Info("rig: catalog picker", "highlighted", highlighted(got), "effort", gotEffort, "under", gotUnder)
		return err
	})
	s.Mark("menu_or_viewer", rig.ComposerAbsent)
}

func highlighted(rows []pickerRow) string {
	for _, r := range rows {
		if r.highlighted {
			return r.label
		}
	}
	return ""
}

// stillAfter presses key and proves it changed nothing: the screen
// after claudeKeyQuiet of stillness is the one before.
func (s steps) stillAfter(key string) {
	var before string
	s.Do(func() error { before = s.d.ScreenText(); return nil })
	s.Key(key)
	s.Quiet(claudeKeyQuiet)
	s.Do(func() error {
		if after := s.d.ScreenText(); after != before {
			return fmt.Errorf("rig: %s changed the picker:\n%s", key, after)
		}
		return nil
	})
}

// effortRow is the effort row of level i.
func (c claudeCatalog) effortRow(i int) (row, under string) {
	if strings.HasPrefix(c.levels[i], "◈ Max") {
		under = c.maxNote
	}
	return c.levels[i] + claudeAdjust, under
}

// walkEffort walks the effort row of the highlighted model (rows) through
// every level and back to the one it started on, marking every screen:
// a ring all the way round with Right; a line Right to its end, once
// more (nothing moves), Left to its start, once more, and Right back.
func (s steps) walkEffort(c claudeCatalog, rows []pickerRow) {
	n := len(c.levels)
	step := func(key string, i int) {
		s.Key(key)
		row, under := c.effortRow(i)
		s.catalogPicker(rows, row, under)
	}
	if c.ring {
		if n > claudeRingCap {
			s.Do(func() error { return fmt.Errorf("rig: %d effort levels, more than %d presses round", n, claudeRingCap) })
		}
		for k := 1; k <= n; k++ {
			step("Right", (c.start+k)%n)
		}
		return
	}
	for i := c.start + 1; i < n; i++ {
		step("Right", i)
	}
	s.stillAfter("Right")
	s.MarkNow("menu_or_viewer", rig.ComposerAbsent)
	for i := n - 2; i >= 0; i-- {
		step("Left", i)
	}
	s.stillAfter("Left")
	s.MarkNow("menu_or_viewer", rig.ComposerAbsent)
	for i := 1; i <= c.start; i++ {
		step("Right", i)
	}
}

// claudeSettingsBytes reads ~/.claude/settings.json as it is.
func claudeSettingsBytes(h *rig.Home) ([]byte, error) {
	return os.ReadFile(filepath.Join(h.Home, ".claude", "settings.json"))
}

// settingsKept fails if settings.json is not before.
func settingsKept(h *rig.Home, before []byte) error {
	after, err := claudeSettingsBytes(h)
	if err == nil && !bytes.Equal(after, before) {
		err = fmt.Errorf("rig: settings.json changed:\n%s\nbefore:\n%s", after, before)
	}
	return err
}

func claudeModelCatalog() *rig.Scenario {
	return &rig.Scenario{Name: "model-catalog", Agent: "claude", Only: claudeInspectVersions, Script: claudeScript,
		Drive: drive(func(s steps) {
			d := s.d
			ci, c := claudeInspects[d.Version], claudeCatalogs[d.Version]
			s.answer(inspectPrompt, 1)
			var settings []byte
			var seen int
			s.Do(func() (err error) {
				settings, err = claudeSettingsBytes(d.Home)
				seen = messagesRequests(d.Log.Requests())
				return err
			})
			s.openPicker() // the first row highlighted, marked
			for i, r := range ci.pickerRows {
				rows := highlight(ci.pickerRows, r.label)
				row, under := c.effortRow(c.start)
				if none, ok := c.noEffort[r.label]; ok {
					row, under = none, ""
				}
				if i > 0 {
					s.Key("Down")
					s.catalogPicker(rows, row, under)
				}
				if _, ok := c.noEffort[r.label]; ok {
					for _, k := range []string{"Right", "Left"} {
						s.stillAfter(k)
						s.MarkNow("menu_or_viewer", rig.ComposerAbsent)
					}
					continue
				}
				s.walkEffort(c, rows)
			}
			s.escapePicker(ci)
			s.Do(func() error {
				if n := messagesRequests(d.Log.Requests()); n != seen {
					return fmt.Errorf("rig: the walk made %d model requests", n-seen)
				}
				if err := settingsKept(d.Home, settings); err != nil {
					return err
				}
				return noModelList(d.Log.Requests())
			})
		})}
}

func claudeModelSession() *rig.Scenario {
	return &rig.Scenario{Name: "model-session", Agent: "claude", Only: claudeInspectVersions, Script: claudeScript,
		Drive: drive(func(s steps) {
			d := s.d
			ci, c := claudeInspects[d.Version], claudeCatalogs[d.Version]
			s.answer(inspectPrompt, 1)
			s.Do(func() error { return requestCarries(d, inspectPrompt, "before the switch", ci.requestBefore) })
			var settings []byte
			s.Do(func() (err error) { settings, err = claudeSettingsBytes(d.Home); return err })
			s.openPicker()
			s.pickTarget(ci)
			// "s": the same confirmation as Enter's, Yes highlighted.
			s.Key("s")
			s.Screen(ci.switchAsk...)
			s.noComposer()
			s.Mark("menu_or_viewer", rig.ComposerAbsent)
			s.Key("Enter")
			s.Screen("❯ /model", "⎿  "+c.sessionSet)
			s.Gone("Switch model?")
			s.idleEmpty()
			s.Do(func() error { return settingsKept(d.Home, settings) })
			s.Journal("the session-only switch", func(m map[string]any) bool {
				msg, _ := m["message"].(map[string]any)
				text, _ := msg["content"].(string)
				return strings.Contains(text, "for this session only")
			})
			s.answer(inspectAfter, 2)
			s.Do(func() error {
				err := requestCarries(d, inspectAfter, "after the session switch", ci.requestAfter)
				if err == nil {
					err = settingsKept(d.Home, settings)
				}
				if err == nil {
					err = noModelList(d.Log.Requests())
				}
				return err
			})
		})}
}
