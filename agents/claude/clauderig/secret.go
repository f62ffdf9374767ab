package clauderig

import (
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The question-secret scenario (rig.SecretQuestion). Claude Code's
// AskUserQuestion has no secret field.
var claudeSecretCall = &fakemodel.ToolCall{Name: "AskUserQuestion", Input: map[string]any{"questions": []any{
	map[string]any{"question": rig.SecretQuestion, "header": "Password", "multiSelect": false, "options": rig.SecretOptions}}}}

func secretScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	claudeOpts := []string{"Type it now", "Skip for now", "Type something.", "Chat about this"}
	out = append(out,
		&rig.Scenario{Name: "question-secret", Agent: "claude", Script: rig.SecretScript(claudeScript, claudeSecretCall), Drive: drive(func(s steps) {
			s.ask(rig.SecretWord, "AskUserQuestion")
			s.Screen(rig.SecretQuestion, claudeSelectHint, "Chat about this")
			s.Mark("questionnaire", rig.SecretMarker("Password", claudeOpts, 0))
			// "Type something." is the editor: current, it is the free-text
			// row (still not actionable).
			s.Key("Down")
			s.Key("Down")
			s.Screen("ctrl+g to edit in Vim")
			s.Mark("questionnaire", rig.SecretMarker("Password", claudeOpts, 2))
			s.Type(rig.SecretTyped)
			s.TypedOrMasked("Type something.")
			s.Mark("free_text", rig.SecretTextMarker("Password", "draft"))
			s.Key("Enter")
			s.toolResult(false)
			s.turnEnd(1)
			s.MarkIdle()
		})},
	)
	return out
}
