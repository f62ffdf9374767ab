package rig

import "github.com/agent-knock-knock/akk/recordings/fakemodel"

// The question-secret scenario (question_secret.go). Claude Code's
// AskUserQuestion has no secret field.
var claudeSecretCall = &fakemodel.ToolCall{Name: "AskUserQuestion", Input: map[string]any{"questions": []any{
	map[string]any{"question": SecretQuestion, "header": "Password", "multiSelect": false, "options": SecretOptions}}}}

func init() {
	claudeOpts := []string{"Type it now", "Skip for now", "Type something.", "Chat about this"}
	register(
		&Scenario{Name: "question-secret", Agent: "claude", Script: SecretScript(claudeScript, claudeSecretCall), Drive: func(s *Steps) {
			s.claudeAsk(SecretWord, "AskUserQuestion")
			s.Screen(SecretQuestion, claudeSelectHint, "Chat about this")
			s.Mark("questionnaire", SecretMarker("Password", claudeOpts, 0))
			// "Type something." is the editor: current, it is the free-text
			// row (still not actionable).
			s.Key("Down")
			s.Key("Down")
			s.Screen("ctrl+g to edit in Vim")
			s.Mark("questionnaire", SecretMarker("Password", claudeOpts, 2))
			s.Type(SecretTyped)
			s.TypedOrMasked("Type something.")
			s.Mark("free_text", SecretTextMarker("Password", "draft"))
			s.Key("Enter")
			s.claudeToolResult(false)
			s.claudeTurnEnd(1)
			s.MarkIdle()
		}},
	)
}
