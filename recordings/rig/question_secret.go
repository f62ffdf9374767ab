package rig

import (
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// The question-secret scenario: the fake model asks "What is the database
// password?" with two options. akk must never relay a secret (seed 000),
// so every marker with an interaction is not actionable: the question,
// its free-text row or Notes, and the typed answer. The rig, playing the
// person, then answers it with a made-up value so the recording also
// shows whether the agent masks what is typed.
//
// Claude Code's AskUserQuestion has no secret field. Codex's protocol
// question has isSecret (not in its request_user_input tool schema): the
// fake model sets it, so the recording shows what the TUI does with it.

const (
	secretWord     = "ask-secret"
	secretQuestion = "What is the database password?"
	// secretTyped is the made-up answer; secretTypedNote is how Codex
	// returns it from Notes.
	secretTyped     = "not-a-real-password"
	secretTypedNote = "user_note: " + secretTyped
)

var secretOptions = []any{
	map[string]any{"label": "Type it now", "description": "Enter the password in the terminal"},
	map[string]any{"label": "Skip for now", "description": "Continue without the database"},
}

// withSecret is an agent's script that also answers secretWord with a
// question asking for a password.
func withSecret(script func(string) fakemodel.Script, call *fakemodel.ToolCall) func(string) fakemodel.Script {
	return func(version string) fakemodel.Script {
		s := script(version)
		s.Keywords = append([]fakemodel.Keyword{{Word: secretWord, Reply: fakemodel.Reply{Tool: call}}}, s.Keywords...)
		return s
	}
}

var (
	claudeSecretCall = &fakemodel.ToolCall{Name: "AskUserQuestion", Input: map[string]any{"questions": []any{
		map[string]any{"question": secretQuestion, "header": "Password", "multiSelect": false, "options": secretOptions}}}}
	codexSecretCall = &fakemodel.ToolCall{Name: "request_user_input", Input: map[string]any{"questions": []any{
		map[string]any{"id": "db_password", "header": "Password", "question": secretQuestion, "isSecret": true,
			"options": secretOptions}}}}
)

// secretMarker is a marker of the question (never actionable).
func secretMarker(header string, options []string, highlighted int) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"),
		Questions:   []recordings.Question{{Header: header, Prompt: secretQuestion, Options: options}},
		Highlighted: recordings.Index(highlighted)}
}

// secretTextMarker is a marker of the free-text step (never actionable).
func secretTextMarker(header, composer string) recordings.MarkerState {
	return recordings.MarkerState{Composer: contract.Composer(composer), Kind: recordings.Kind("free_text"),
		Questions: []recordings.Question{{Header: header, Prompt: secretQuestion}}}
}

// typedOrMasked waits until the placeholder is replaced by what was typed,
// drawn as typed or masked, and logs which.
func (s *sticky) typedOrMasked(placeholder string) {
	s.screenFunc("typed answer replacing "+placeholder, func(text string) bool {
		return !strings.Contains(text, placeholder)
	})
	s.do(func() error {
		s.d.lg.Info("rig: typed secret answer", "shown_as_typed", strings.Contains(s.d.rec.ScreenText(), secretTyped))
		return nil
	})
}

func init() {
	claudeOpts := []string{"Type it now", "Skip for now", "Type something.", "Chat about this"}
	codexOpts := []string{"Type it now", "Skip for now", "None of the above"}
	register(
		&Scenario{Name: "question-secret", Agent: "claude", Script: withSecret(claudeScript, claudeSecretCall), Drive: func(d *Driver) error {
			s := &sticky{d: d}
			s.claudeAsk(secretWord, "AskUserQuestion")
			s.screen(secretQuestion, claudeSelectHint, "Chat about this")
			s.mark("questionnaire", secretMarker("Password", claudeOpts, 0))
			// "Type something." is the editor: current, it is the free-text
			// row (still not actionable).
			s.key("Down")
			s.key("Down")
			s.screen("ctrl+g to edit in Vim")
			s.mark("questionnaire", secretMarker("Password", claudeOpts, 2))
			s.typ(secretTyped)
			s.typedOrMasked("Type something.")
			s.mark("free_text", secretTextMarker("Password", "draft"))
			s.key("Enter")
			s.claudeToolResult(false)
			s.claudeTurnEnd(1)
			s.markIdle()
			return s.err
		}},
		&Scenario{Name: "question-secret", Agent: "codex", Script: withSecret(codexScript, codexSecretCall), Drive: func(d *Driver) error {
			s := &sticky{d: d}
			s.codexAsk(secretWord, "request_user_input")
			s.screen(secretQuestion, "None of the above", codexQuestionEnd)
			s.mark("questionnaire", secretMarker("", codexOpts, 0))
			s.key("Down")
			s.key("Down")
			s.screen("› 3. None of the above")
			s.mark("questionnaire", secretMarker("", codexOpts, 2))
			s.key("Tab")
			s.screen("Add notes")
			s.mark("free_text", secretTextMarker("", "empty"))
			s.typ(secretTyped)
			s.typedOrMasked("Add notes")
			s.mark("free_text", secretTextMarker("", "draft"))
			s.pause(codexEnterGap)
			s.key("Enter")
			s.codexToolOutput(secretTypedNote)
			s.codexTurnEnd(false)
			s.markIdle()
			return s.err
		}},
	)
}
