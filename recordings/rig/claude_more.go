package rig

import (
	"github.com/agent-knock-knock/akk/recordings"
)

// Claude Code questionnaires beyond one single-select question: a
// multi-select, several questions with the final review, and "Type
// something".

// claudeReviewMarker is the final review. 2.1.332 dropped its prompt line
// ("Ready to submit your answers?"): the review shows its header, the
// answers and the two options only.
func claudeReviewMarker(version string) recordings.MarkerState {
	prompt := "Ready to submit your answers?"
	if versionAtLeast(version, "2.1.332") {
		prompt = ""
	}
	return recordings.MarkerState{Composer: "absent", Kind: recordings.Kind("confirmation"), Actionable: true,
		Questions: []recordings.Question{{Header: "Review your answers", Prompt: prompt,
			Options: []string{"Submit answers", "Cancel"}}},
		Highlighted: recordings.Index(0)}
}

func claudeSubmitReview(d *Driver) error {
	return then(
		func() error { return d.Screen("Submit answers", "Cancel") },
		func() error { return d.Quiet(claudeQuiet) },
		func() error { return d.Mark("confirmation", claudeReviewMarker(d.Version)) },
		func() error { return d.Key("Enter") },
		func() error { return claudeToolResult(d, false) },
		func() error { return claudeTurnEnd(d, 1) },
		func() error { return markIdle(d) },
	)
}

func init() {
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
	register(
		&Scenario{Name: "multi-select", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeAsk(d, "ask-multi", "AskUserQuestion") },
				func() error { return d.Screen("Which toppings do you want on the pizza?", "Olives") },
				func() error { return d.Quiet(claudeQuiet) },
				func() error { return d.Mark("questionnaire", multi()) },
				func() error { return d.Key("1") },
				func() error { return d.Screen("[✔] Cheese") },
				func() error { return d.Key("3") },
				func() error { return d.Screen("[✔] Olives") },
				func() error { return d.Quiet(claudeQuiet) },
				func() error { return d.Mark("questionnaire", multi()) },
				func() error { return d.Key("Tab") },
				func() error { return claudeSubmitReview(d) },
			)
		}},
		&Scenario{Name: "several-questions", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeAsk(d, "ask-many", "AskUserQuestion") },
				func() error { return d.Screen("Which language should the service use?", claudeSelectHint) },
				func() error { return d.Quiet(claudeQuiet) },
				func() error { return d.Mark("questionnaire", many(0)) },
				func() error { return d.Key("1") },
				func() error { return d.Screen("Which database should it use?") },
				func() error { return d.Quiet(claudeQuiet) },
				func() error { return d.Mark("questionnaire", many(1)) },
				func() error { return d.Key("2") },
				func() error { return claudeSubmitReview(d) },
			)
		}},
		&Scenario{Name: "type-something", Agent: "claude", Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeColor(d) },
				func() error { return d.Key("Down") },
				func() error { return d.Key("Down") },
				func() error { return d.Key("Down") },
				func() error { return d.Quiet(claudeQuiet) },
				func() error { return d.Mark("questionnaire", claudeColorMarker(3)) },
				func() error { return d.Type("Purple") },
				func() error { return d.Screen("Purple") },
				func() error { return d.Quiet(claudeQuiet) },
				func() error {
					return d.Mark("free_text", recordings.MarkerState{Composer: "draft", Kind: recordings.Kind("free_text"),
						Actionable: true, Questions: []recordings.Question{{Header: "Color", Prompt: "Which color should the button be?"}}})
				},
				func() error { return d.Key("Enter") },
				func() error { return claudeToolResult(d, false) },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
	)
}

// Claude Code 2.1.332 in its own default permission mode, auto mode: the
// footer reads "⏵⏵ auto mode on (shift+tab to cycle)" with no "? for
// shortcuts", a notice says auto mode is now the default, and a writing
// Bash command runs without a permission prompt. Not in the corpus yet: see
// record-corpus.sh (the notice's OSC 8 link id fails the final-screen
// compare in controlmode).
func init() {
	only := []string{"2.1.332"}
	register(
		&Scenario{Name: "idle-auto", Agent: "claude", Only: only, AgentMode: true, Script: claudeScript, Drive: func(d *Driver) error {
			return then(func() error { return claudeIdle(d) }, func() error { return markIdle(d) })
		}},
		&Scenario{Name: "working-auto", Agent: "claude", Only: only, AgentMode: true, Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeIdle(d) },
				func() error { return claudePrompt(d, "slow-work please") },
				func() error { _, err := d.Started("slow-work"); return err },
				func() error { return d.Screen(claudeAutoFooter, claudeBusyFooter) },
				func() error { return d.Mark("working", recordings.MarkerState{Composer: "empty"}) },
			)
		}},
		&Scenario{Name: "bash-auto", Agent: "claude", Only: only, AgentMode: true, Script: claudeScript, Drive: func(d *Driver) error {
			return then(
				func() error { return claudeAsk(d, "run-touch", "Bash") },
				func() error { return claudeToolResult(d, false) },
				func() error { return claudeTurnEnd(d, 1) },
				func() error { return markIdle(d) },
			)
		}},
	)
}
