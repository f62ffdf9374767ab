package supervisor

import (
	"crypto/hmac"
	"crypto/sha256"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/recognizers"
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
	Recognizer            string // which profile made it, for status

	// Private: never in a row, a status or a log (DESIGN invariant 8).
	// They feed offers and the dispatch transaction.
	exact       bool
	profileID   string
	fp          [32]byte // the prompt region's styled fingerprint
	plan        *recognizers.Plan
	highlighted int // the highlighted option row, -1 when none
}

// recognizerIntegrated says whether passes run the recognizers package
// (issue 5); tests that check real screen states depend on it.
const recognizerIntegrated = true

// interactionKey derives the key of public interaction ids from the
// store's secret (never the secret itself).
func interactionKey(secret []byte) recognizers.Key {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("akk interaction ids"))
	return recognizers.Key(m.Sum(nil))
}

// paneRecognizer is one pane's incremental recognizer for its current
// agent and version: it re-reads only the screen's dirty rows.
type paneRecognizer struct {
	agent, version string
	r              *recognizers.Recognizer
}

// recognize is the one place the supervisor calls the recognizers (pure:
// a profile and a screen in, a recognition out). A pane whose process is no
// agent is not recognized.
func (pr *paneRecognizer) recognize(key recognizers.Key, agent, version string, scr *vt.Screen) recognition {
	if agent == api.AgentNone || agent == "" {
		pr.r = nil
		return recognition{Screen: api.ScreenUnknown, Composer: string(recognizers.ComposerAbsent), Recognizer: "none"}
	}
	if pr.r == nil || pr.agent != agent || pr.version != version {
		pr.agent, pr.version = agent, version
		pr.r = recognizers.NewRecognizer(recognizers.Lookup(agent, version), key)
	}
	return fromRecognition(pr.r.Recognize(scr))
}

// fromRecognition keeps what the contract shows of a recognition: never
// the draft's text, the fingerprint or the key plan.
func fromRecognition(r recognizers.Recognition) recognition {
	out := recognition{Screen: string(r.ScreenState), Composer: string(r.Composer), DraftLen: r.DraftLen,
		Profile: "generic", Recognizer: r.Profile, Warnings: append([]string(nil), r.Warnings...),
		exact: r.Exact, profileID: r.Profile, fp: r.Fingerprint, plan: r.Plan, highlighted: -1}
	if r.Prompt != nil {
		out.highlighted = r.Prompt.Highlighted
	}
	if r.Exact {
		out.Profile = "exact"
	}
	if !r.Region.Empty() {
		out.PromptTop, out.PromptRows = r.Region.Top, r.Region.Rows
	}
	if r.Interaction != nil {
		out.Interaction = r.Interaction.Clone() // kept past the recognition that made it
	}
	return out
}
