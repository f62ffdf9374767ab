package codexrig

import (
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The question-secret scenario (rig.SecretQuestion). Codex's protocol
// question has isSecret (not in its request_user_input tool schema): the
// fake model sets it, so the recording shows what the TUI does with it.
var codexSecretCall = &fakemodel.ToolCall{Name: "request_user_input", Input: map[string]any{"questions": []any{
	map[string]any{"id": "db_password", "header": "Password", "question": rig.SecretQuestion, "isSecret": true,
		"options": rig.SecretOptions}}}}

// codexSecretNote is how Codex returns the typed answer from Notes.
const codexSecretNote = "user_note: " + rig.SecretTyped

func secretScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	codexOpts := []string{"Type it now", "Skip for now", "None of the above"}
	out = append(out,
		&rig.Scenario{Name: "question-secret", Agent: "codex", Script: rig.SecretScript(codexScript, codexSecretCall), Drive: drive(func(s steps) {
			s.ask(rig.SecretWord, "request_user_input")
			s.Screen(rig.SecretQuestion, "None of the above", codexQuestionEnd)
			s.Mark("questionnaire", rig.SecretMarker("", codexOpts, 0))
			s.Key("Down")
			s.Key("Down")
			s.Screen("› 3. None of the above")
			s.Mark("questionnaire", rig.SecretMarker("", codexOpts, 2))
			s.Key("Tab")
			s.Screen("Add notes")
			s.Mark("free_text", rig.SecretTextMarker("", "empty"))
			s.Type(rig.SecretTyped)
			s.TypedOrMasked("Add notes")
			s.Mark("free_text", rig.SecretTextMarker("", "draft"))
			s.Pause(codexEnterGap)
			s.Key("Enter")
			s.toolOutput(codexSecretNote)
			s.turnEnd(false)
			s.MarkIdle()
		})},
	)
	return out
}
