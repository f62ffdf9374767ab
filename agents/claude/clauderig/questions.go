package clauderig

import (
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// Claude Code questionnaires beyond one single-select question: a
// multi-select, several questions with the final review, and "Type
// something".

// claudeReviewMarker is the final review. 2.1.332 dropped its prompt line
// ("Ready to submit your answers?"): the review shows its header, the
// answers and the two options only.
func claudeReviewMarker(version string) recordings.MarkerState {
	prompt := "Ready to submit your answers?"
	if rig.VersionAtLeast(version, "2.1.332") {
		prompt = ""
	}
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("confirmation"), Actionable: true,
		Questions: []recordings.Question{{Header: "Review your answers", Prompt: prompt,
			Options: []string{"Submit answers", "Cancel"}}},
		Highlighted: recordings.Index(0)}
}

// submitReview marks the final review and submits it: the tool's
// result, the turn's end and the idle screen, marked.
func (s steps) submitReview() {
	s.Screen("Submit answers", "Cancel")
	s.Mark("confirmation", claudeReviewMarker(s.d.Version))
	s.answered("Enter")
}

func questionScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	// A multi-select is actionable: one answer toggles its options. The
	// recordings made before akk answered them had false here, edited in
	// place when it did (the screens are the same).
	multi := func() recordings.MarkerState {
		return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"), Actionable: true,
			Questions: []recordings.Question{{Header: "Toppings", Prompt: "Which toppings do you want on the pizza?",
				Options: []string{"Cheese", "Mushrooms", "Olives"}}},
			Highlighted: recordings.Index(0)}
	}
	many := func(i int) recordings.MarkerState {
		qs := []recordings.Question{
			{Header: "Language", Prompt: "Which language should the service use?", Options: []string{"Go", "Rust"}},
			{Header: "Database", Prompt: "Which database should it use?", Options: []string{"Postgres", "SQLite"}},
		}
		return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("questionnaire"), Actionable: true,
			Questions: qs[i : i+1], Highlighted: recordings.Index(0)}
	}
	out = append(out,
		&rig.Scenario{Name: "multi-select", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.ask("ask-multi", "AskUserQuestion")
			s.Screen("Which toppings do you want on the pizza?", "Olives")
			s.Mark("questionnaire", multi())
			s.Key("1")
			s.Screen("[✔] Cheese")
			s.Key("3")
			s.Screen("[✔] Olives")
			s.Mark("questionnaire", multi())
			s.Key("Tab")
			s.submitReview()
		})},
		&rig.Scenario{Name: "several-questions", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.ask("ask-many", "AskUserQuestion")
			s.Screen("Which language should the service use?", claudeSelectHint)
			s.Mark("questionnaire", many(0))
			s.Key("1")
			s.Screen("Which database should it use?")
			s.Mark("questionnaire", many(1))
			s.Key("2")
			s.submitReview()
		})},
		&rig.Scenario{Name: "type-something", Agent: "claude", Script: claudeScript, Drive: drive(func(s steps) {
			s.color()
			s.Key("Down")
			s.Key("Down")
			s.Key("Down")
			s.Mark("questionnaire", claudeColorMarker(3))
			s.Type("Purple")
			s.Screen("Purple")
			s.Mark("free_text", recordings.MarkerState{Composer: "draft", Kind: recordings.Kind("free_text"),
				Actionable: true, Questions: []recordings.Question{{Header: "Color", Prompt: "Which color should the button be?"}}})
			s.answered("Enter")
		})},
	)
	return out
}

// Claude Code 2.1.332 in its own default permission mode, auto mode: the
// footer reads "⏵⏵ auto mode on (shift+tab to cycle)" with no "? for
// shortcuts", a notice says auto mode is now the default, and a writing
// Bash command runs without a permission prompt. Not in the corpus yet: see
// record-corpus.sh (the notice's OSC 8 link id fails the final-screen
// compare in controlmode).
func autoModeScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	only := []string{"2.1.332"}
	out = append(out,
		&rig.Scenario{Name: "idle-auto", Agent: "claude", Only: only, AgentMode: true, Script: claudeScript, Drive: drive(func(s steps) {
			s.idle()
			s.MarkIdle()
		})},
		&rig.Scenario{Name: "working-auto", Agent: "claude", Only: only, AgentMode: true, Script: claudeScript, Drive: drive(func(s steps) {
			s.idle()
			s.prompt("slow-work please")
			s.Started("slow-work")
			s.Screen(claudeAutoFooter, claudeBusyFooter)
			s.MarkNow("working", recordings.MarkerState{Composer: "empty"})
		})},
		&rig.Scenario{Name: "bash-auto", Agent: "claude", Only: only, AgentMode: true, Script: claudeScript, Drive: drive(func(s steps) {
			s.ask("run-touch", "Bash")
			s.toolResult(false)
			s.turnEnd(1)
			s.MarkIdle()
		})},
	)
	return out
}
