package clauderig

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
	"github.com/agent-knock-knock/akk/vt"
	"github.com/gdamore/tcell/v2"
)

// Claude Code's own status panel and model picker (issue 22: native
// inspection and model control), typed by a person into the idle
// composer:
//
//   - status: one answered prompt, then "/status" typed (the composer
//     over its completion list), Enter (the modal Status panel), Esc
//     (back to the idle empty composer).
//   - status-completion: "/status" typed, then Down, which highlights
//     /statusline while the composer still reads "/status" (Enter would
//     run /statusline: the refusal surface); no Enter: Esc closes the
//     list, Esc Esc clears the composer.
//   - status-policy-error: status in a fresh session whose organization
//     policy fails to load (claudePolicyEnv), so the panel's
//     "Organization policy" row says so.
//   - model-menu: one answered prompt, "/model" Enter (the picker), Down
//     to Sonnet, the effort changed with ←/→, Enter, the confirmation,
//     Enter, and one more prompt, whose request carries the new model and
//     effort.
//   - model-abandon: "/model" Enter in a fresh session, then Esc.
//
// Every screen is marked: the composer holding the command over its list
// idle with a draft (the list only decides what Enter runs), the panel,
// the picker and the confirmation menu_or_viewer with the composer
// absent (they own every key), the composer afterwards idle and empty.
//
// What the agents really do (Claude Code 2.1.267 and 2.1.332), measured
// with these scenarios (the exact rows are claudeInspects'):
//
//   - The completion list of "/status" is drawn above the composer, the
//     typed command first and highlighted (colour 153; 2.1.332 also "❯"
//     in front of it), /statusline second, then other commands whose
//     descriptions match. Down moves the highlight to /statusline and
//     leaves the composer's text "/status" (drawn in the highlight
//     colour): the text alone does not say what Enter runs. The first
//     Esc closes the list and keeps the text; the second draws "Esc
//     again to clear" (2.1.332 "esc again to clear") for 1 s; a third
//     within 800 ms empties the composer. Nothing is written or asked.
//   - Enter on "/status" opens a modal panel under the history in place
//     of the composer: the tabs "Settings  Status  Config  Usage  Stats"
//     (Status lit: background 153), "Label:  value" rows (a long value
//     wrapped onto rows under the value column), then the key hint:
//     2.1.267 "Esc to cancel", 2.1.332 "←/→ to switch · Esc to close".
//     With a custom ANTHROPIC_BASE_URL the "Organization policy" row is
//     always drawn: "not fetched with a custom ANTHROPIC_BASE_URL". Esc
//     closes it and leaves nothing: no "/status" row in the history, no
//     transcript line, no request, the same idle empty composer.
//   - The policy fetched and failing (status-policy-error) adds a "Proxy"
//     row and turns "Organization policy" into a three- to five-row
//     "Couldn't load[ yet, still retrying] · features that must check it
//     first ... · Couldn't complete the request to api.anthropic.com; ...
//     · Fix: check your network or proxy[ · Retried hourly ...]";
//     2.1.267 drops its "Managed settings (remote)" row, 2.1.332 shows
//     "fetch failed — no policy applied (unexpected error)" there and,
//     after waiting up to ~30 s at its start, "⚠ Remote managed settings
//     failed to load ..." above the composer.
//   - "/model" opens the picker under the history in place of the
//     composer: "Select model", a line of explanation, five built-in
//     models (the current one marked "✔", the highlighted one "❯"), an
//     effort row ("←/→ to adjust") and the key hints. The list is built
//     in: no request reaches the fake server for it (no GET of a models
//     endpoint). Enter sets the model and effort; in a conversation that
//     has a turn it first asks "Switch model?" ("❯ 1. Yes, switch to
//     <name>", "2. No, go back"; 2.1.332 with "Enter to confirm · Esc to
//     cancel"), a fresh session is not asked. Then "❯ /model" and "⎿  Set
//     model to <name> and saved as your default for new sessions with
//     <effort> effort" over the idle composer; ~/.claude/settings.json
//     gets "model" and "modelSettings.<id>.effortLevel"; the transcript
//     the /model command as local-command lines; the next request
//     carries the new model id and output_config.effort. ("s" instead of
//     Enter: "Set model to <name> for this session only", settings.json
//     unchanged; not recorded.)
//   - Esc in the picker prints "❯ /model" and "⎿  Kept model as <name>
//     (default)" over the empty idle composer; in a fresh session the
//     transcript is created with those two rows as system local_command
//     lines.

// claudeInspectVersions are the versions these scenarios were measured on.
var claudeInspectVersions = []string{"2.1.267", "2.1.332"}

// The prompts of these scenarios: the corpus script answers "hello".
const (
	inspectPrompt = "hello before inspecting"
	inspectAfter  = "hello after the switch"
)

var (
	// claudeLit is the completion list's highlight colour (dark theme).
	claudeLit = tcell.PaletteColor(153)
)

// completionEntry is one command of the completion list.
type completionEntry struct {
	cmd string
	lit bool // drawn in the highlight colour
}

// completionList reads the list drawn above the composer: the rows from
// the blank row over it down to the composer's upper rule, one entry per
// row that starts with a command (a description's second row starts with
// none). The composer is the last row that starts with "❯".
func completionList(s *vt.Screen) []completionEntry {
	_, h := s.Size()
	composer := -1
	for y := 0; y < h; y++ {
		if strings.HasPrefix(rowText(s, y), "❯") {
			composer = y
		}
	}
	top := composer - 2 // the row over the upper rule
	for top >= 0 && strings.TrimSpace(rowText(s, top)) != "" {
		top--
	}
	var out []completionEntry
	for y := top + 1; y >= 0 && y < composer-1; y++ {
		cells := s.Row(y)
		x := 0
		for x < len(cells) && (cells[x].Text == " " || cells[x].Text == "❯") {
			x++
		}
		if x >= len(cells) || cells[x].Text != "/" {
			continue
		}
		var b strings.Builder
		for i := x; i < len(cells) && cells[i].Text != " "; i++ {
			b.WriteString(cells[i].Text)
		}
		fg, _, _ := cells[x].Style.Decompose()
		out = append(out, completionEntry{cmd: b.String(), lit: fg == claudeLit})
	}
	return out
}

// rowText is row y's text, no-break spaces read as spaces, trailing
// spaces trimmed.
func rowText(s *vt.Screen, y int) string {
	var b strings.Builder
	for _, c := range s.Row(y) {
		b.WriteString(c.Text)
	}
	return strings.TrimRight(strings.ReplaceAll(b.String(), "\u00a0", " "), " ")
}

// completion waits until the composer reads draft over a completion list
// whose commands are want, in order, with exactly lit highlighted, and
// logs the list.
func (s steps) completion(draft string, want []string, lit string) {
	s.composerReads(draft)
	var got []completionEntry
	s.Do(func() error {
		return s.d.ScreenCells(fmt.Sprintf("completion list %v, %s highlighted", want, lit), func(sc *vt.Screen) bool {
			got = completionList(sc)
			if len(got) != len(want) {
				return false
			}
			for i, e := range got {
				if e.cmd != want[i] || e.lit != (e.cmd == lit) {
					return false
				}
			}
			return true
		})
	})
	s.Do(func() error {
		s.d.Logger().Info("rig: completion list", "draft", draft, "entries", fmt.Sprint(got))
		return nil
	})
}

// statusPanel waits for the Status panel with exactly the rows of the
// version (want), each value as expected, and logs them.
func (s steps) statusPanel(want []statusRow, hint string) {
	s.Screen("Settings  Status   Config   Usage   Stats", hint)
	s.noComposer()
	var got []statusRow
	s.Do(func() error {
		err := s.d.ScreenFunc("the Status panel's rows", func(text string) bool {
			got = parseStatusPanel(text, hint)
			return len(got) == len(want)
		})
		s.d.Logger().Info("rig: status panel", "rows", fmt.Sprintf("%q", got))
		if err != nil {
			return err
		}
		// {session}: the transcript's sessionId, or any id before the
		// first prompt (no transcript yet).
		session := ""
		if j := s.d.NewestJournal(); j != "" {
			session = claudeSessionID(j)
		}
		vars := strings.NewReplacer("{version}", s.d.Version, "{work}", s.d.Home.Work, "{tmp}", s.d.Home.Tmp)
		for i, w := range want {
			v := vars.Replace(w.value)
			ok := got[i].value == v
			switch p, prefix := strings.CutSuffix(v, "*"); {
			case prefix:
				ok = strings.HasPrefix(got[i].value, p)
			case v == "{session}" && session == "":
				ok = uuidRE.MatchString(got[i].value)
			case v == "{session}":
				ok = got[i].value == session
			}
			if got[i].label != w.label || !ok {
				return fmt.Errorf("rig: Status panel row %d is %q: %q, want %q: %q", i, got[i].label, got[i].value, w.label, v)
			}
		}
		return nil
	})
}

// parseStatusPanel reads the Status panel's rows from the row under its
// tabs down to the hint: "Label:" then the value from a column shared by
// every row; a row with nothing before that column goes on the row above.
func parseStatusPanel(text, hint string) []statusRow {
	lines := strings.Split(text, "\n")
	start, end := -1, -1
	for i, l := range lines {
		switch {
		case strings.Contains(l, "Settings  Status"):
			start = i + 1
		case start >= 0 && strings.Contains(l, hint):
			end = i
		}
	}
	if start < 0 || end < 0 {
		return nil
	}
	col := -1
	var out []statusRow
	for _, l := range lines[start:end] {
		r := []rune(l)
		if strings.TrimSpace(l) == "" {
			continue
		}
		if col < 0 {
			i := strings.Index(l, ":")
			if i < 0 {
				return nil
			}
			col = i + 1
			for col < len(r) && r[col] == ' ' {
				col++
			}
		}
		if len(r) <= col {
			return nil
		}
		head, value := strings.TrimSpace(string(r[:col])), strings.TrimSpace(string(r[col:]))
		if head == "" {
			if len(out) == 0 {
				return nil
			}
			out[len(out)-1].value += " " + value
			continue
		}
		label, ok := strings.CutSuffix(head, ":")
		if !ok {
			return nil
		}
		out = append(out, statusRow{label, value})
	}
	return out
}

// noComposer waits until no composer is drawn: no row that starts with
// "❯" under a rule (prompts in the history have no rule above them).
func (s steps) noComposer() {
	s.ScreenFunc("no composer", func(text string) bool {
		lines := strings.Split(text, "\n")
		for i := 1; i < len(lines); i++ {
			if strings.HasPrefix(lines[i], "❯") && strings.HasPrefix(lines[i-1], "───") {
				return false
			}
		}
		return true
	})
}

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// answer asks prompt at the idle composer, waits for its turn's end and
// the idle composer, and marks it.
func (s steps) answer(prompt string, n int) {
	s.idle()
	s.prompt(prompt)
	s.Request("prompt "+prompt, nil)
	s.turns(n)
	s.idleEmpty()
}

// idleEmpty waits for the idle screen with an empty composer and marks it.
func (s steps) idleEmpty() {
	s.idle()
	s.composerReads("")
	s.Mark("idle", rig.ComposerEmpty)
}

// slash types cmd into the idle empty composer and marks it over
// its completion list (list, cmd highlighted).
func (s steps) slash(cmd string, list []string) {
	s.idle()
	s.Type(cmd)
	s.completion(cmd, list, cmd)
	s.Gone(claudeIdleFooter)
	s.Mark("idle", rig.ComposerDraft)
}

// statusList is the completion list of "/status".
func statusList(version string) []string {
	return append([]string{"/status", "/statusline"}, claudeInspects[version].listAfter...)
}

// statusInspect runs /status from the idle composer: the panel (rows;
// then the checks also, before it is marked), Esc, and the same idle
// empty composer, nothing left of /status and no model request made.
func (s steps) statusInspect(rows []statusRow, also ...func()) {
	ci := claudeInspects[s.d.Version]
	var before string
	var seen int
	s.Do(func() error { before, seen = s.d.ScreenText(), messagesRequests(s.d.Log.Requests()); return nil })
	s.slash("/status", statusList(s.d.Version))
	s.Key("Enter")
	s.statusPanel(rows, ci.statusHint)
	for _, f := range also {
		f()
	}
	s.Mark("menu_or_viewer", rig.ComposerAbsent)
	s.Key("Escape")
	s.Gone(ci.statusHint, "Session ID:")
	s.idle()
	s.composerReads("")
	s.Do(func() error {
		after := s.d.ScreenText()
		switch n := messagesRequests(s.d.Log.Requests()); {
		case strings.Contains(after, "❯ /status"):
			return fmt.Errorf("rig: /status left a row:\n%s", after)
		case withoutEffortChip(after) != withoutEffortChip(before):
			return fmt.Errorf("rig: the screen after Esc differs from the one before /status:\n%s\nbefore:\n%s", after, before)
		case n != seen:
			return fmt.Errorf("rig: /status made %d model requests", n-seen)
		}
		return nil
	})
	s.Mark("idle", rig.ComposerEmpty)
}

// messagesRequests counts the Messages requests (any kind) so far.
func messagesRequests(reqs []fakemodel.Request) int {
	n := 0
	for _, r := range reqs {
		if r.Method == "POST" && r.Path == "/v1/messages" {
			n++
		}
	}
	return n
}

// withoutEffortChip is the screen's rows that are not blank, without the
// row of Claude's effort chip ("◐ medium · /effort"), which 2.1.332 draws
// for a while after its start only (the rows under the history close up
// when it goes).
func withoutEffortChip(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasSuffix(t, "· /effort") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func inspectScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	out = append(out, claudeStatus(), claudeStatusCompletion(), claudeStatusPolicyError(), claudeModelMenu(), claudeModelAbandon(),
		claudeModelCatalog(), claudeModelSession(), claudeStatusCwd())
	return out
}
