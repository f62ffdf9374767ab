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

// The question's keyword, its text, and the made-up answer.
const (
	SecretWord     = "ask-secret"
	SecretQuestion = "What is the database password?"
	SecretTyped    = "not-a-real-password"
)

// SecretOptions are the question's two options, as the model sends them.
var SecretOptions = []any{
	map[string]any{"label": "Type it now", "description": "Enter the password in the terminal"},
	map[string]any{"label": "Skip for now", "description": "Continue without the database"},
}

// SecretScript is an agent's script that also answers SecretWord with
// call, its tool asking for a password.
func SecretScript(script func(string) fakemodel.Script, call *fakemodel.ToolCall) func(string) fakemodel.Script {
	return WithKeywords(script, fakemodel.Keyword{Word: SecretWord, Reply: fakemodel.Reply{Tool: call}})
}

// SecretMarker is a marker of the question (never actionable).
func SecretMarker(header string, options []string, highlighted int) recordings.MarkerState {
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"),
		Questions:   []recordings.Question{{Header: header, Prompt: SecretQuestion, Options: options}},
		Highlighted: recordings.Index(highlighted)}
}

// SecretTextMarker is a marker of the free-text step (never actionable).
func SecretTextMarker(header, composer string) recordings.MarkerState {
	return recordings.MarkerState{Composer: contract.Composer(composer), Kind: recordings.Kind("free_text"),
		Questions: []recordings.Question{{Header: header, Prompt: SecretQuestion}}}
}

// TypedOrMasked waits until the placeholder is replaced by what was
// typed, drawn as typed or masked, and logs which.
func (s *Steps) TypedOrMasked(placeholder string) {
	s.ScreenFunc("typed answer replacing "+placeholder, func(text string) bool {
		return !strings.Contains(text, placeholder)
	})
	s.Log("rig: typed secret answer", "shown_as_typed", strings.Contains(s.d.ScreenText(), SecretTyped))
}
