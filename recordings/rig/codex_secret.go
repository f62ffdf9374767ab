package rig

import "github.com/agent-knock-knock/akk/recordings/fakemodel"

// The question-secret scenario (question_secret.go). Codex's protocol
// question has isSecret (not in its request_user_input tool schema): the
// fake model sets it, so the recording shows what the TUI does with it.
var codexSecretCall = &fakemodel.ToolCall{Name: "request_user_input", Input: map[string]any{"questions": []any{
	map[string]any{"id": "db_password", "header": "Password", "question": SecretQuestion, "isSecret": true,
		"options": SecretOptions}}}}

// codexSecretNote is how Codex returns the typed answer from Notes.
const codexSecretNote = "user_note: " + SecretTyped

func init() {
	codexOpts := []string{"Type it now", "Skip for now", "None of the above"}
	register(
		&Scenario{Name: "question-secret", Agent: "codex", Script: SecretScript(codexScript, codexSecretCall), Drive: func(s *Steps) {
			s.codexAsk(SecretWord, "request_user_input")
			s.Screen(SecretQuestion, "None of the above", codexQuestionEnd)
			s.Mark("questionnaire", SecretMarker("", codexOpts, 0))
			s.Key("Down")
			s.Key("Down")
			s.Screen("› 3. None of the above")
			s.Mark("questionnaire", SecretMarker("", codexOpts, 2))
			s.Key("Tab")
			s.Screen("Add notes")
			s.Mark("free_text", SecretTextMarker("", "empty"))
			s.Type(SecretTyped)
			s.TypedOrMasked("Add notes")
			s.Mark("free_text", SecretTextMarker("", "draft"))
			s.Pause(codexEnterGap)
			s.Key("Enter")
			s.codexToolOutput(codexSecretNote)
			s.codexTurnEnd(false)
			s.MarkIdle()
		}},
	)
}
