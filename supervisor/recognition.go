package supervisor

import (
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/vt"
)

// recognition is what the supervisor keeps of one recognizer pass.
type recognition struct {
	Screen      string
	Composer    string
	Profile     string // "exact", "generic", or "" for no agent
	DraftLen    int
	Interaction *api.Interaction
	// PromptTop/PromptRows locate the prompt region (rows 0 when none).
	PromptTop, PromptRows int
	Warnings              []string
	Recognizer            string // which recognizer made it, for status
}

// recognizerIntegrated says whether recognize runs the recognizers
// package. Until issue 5 lands it does not, and every agent screen is
// reported "unknown" with a warning; tests that need real states check it.
const recognizerIntegrated = false

// recognize is the one place the supervisor calls the recognizers (pure:
// a profile and a screen in, a recognition out).
func recognize(agent, version string, scr *vt.Screen) recognition {
	if agent == api.AgentNone || agent == "" {
		return recognition{Screen: api.ScreenUnknown, Composer: "absent", Recognizer: "none"}
	}
	return recognition{
		Screen: api.ScreenUnknown, Composer: "absent", Profile: "generic",
		Warnings:   []string{"recognizer_not_integrated: screen states need the recognizers package (issue 5)"},
		Recognizer: "none (recognizers not integrated)",
	}
}
