package terminal

import (
	"crypto/hmac"
	"crypto/sha256"
	"log/slog"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// Recognition is what a pane keeps of one recognizer pass.
type Recognition struct {
	Screen      contract.ScreenState
	Composer    contract.Composer
	Profile     string // "exact", "generic", or "" for no agent
	DraftLen    int
	Interaction *contract.Interaction
	// PromptTop/PromptRows locate the prompt region (rows 0 when none).
	PromptTop, PromptRows int
	Warnings              []string
	Recognizer            string // which profile made it, for status
	// QualifiedAs is the pinned version whose profile reads this binary
	// under a qualification ("" for a pinned or unknown version), and
	// Surface what the screen shows at the grain a qualification passes
	// (recognizers.Surface): off a passed surface the reading is not
	// Exact, and a refusal says unqualified_surface.
	QualifiedAs string
	Surface     recognizers.Surface
	// Qualification summarizes it for the faces (nil: none).
	Qualification *api.Qualification

	// Private: never in a row, a status or a log (DESIGN invariant 8;
	// LogValue and String leave them out). They feed offers and the
	// dispatch transaction.
	Exact       bool
	ProfileID   string
	Fingerprint [32]byte // the prompt region's styled fingerprint
	Plan        *recognizers.Plan
	Highlighted int // the highlighted option row, -1 when none
	// DraftSum is the SHA-256 of the draft the composer or editor shows
	// (zero when none): what a typed answer is verified against.
	DraftSum [32]byte
	// Blocked: why a blocked screen is blocked (placeBlock reads its
	// reset time once, when the block is first seen).
	Blocked *api.Blocked
	// Clear is the profile's native clear of the composer's draft, nil
	// unless the screen proves the draft's shape; Stashed: Claude Code
	// shows a stashed draft waiting to come back.
	Clear   *recognizers.Clear
	Stashed bool
	// Checked are a multi-select question's boxes (Prompt.Boxes).
	Checked []bool
	// Completion is the slash command the composer's completion list
	// highlights (what Enter would run), "" unless an exact profile
	// proves the list whole with the draft's command highlighted
	// (recognizers.Recognition.Completion).
	Completion string
	// NoCompletion: an exact profile proves that no completion list is
	// drawn over the one-row slash draft, so Enter runs the line as typed
	// (recognizers.Recognition.NoCompletion); never with Completion.
	NoCompletion bool
	// Picker is a resume picker's rows and its highlighted row, nil
	// unless an exact profile proves every row (recognizers.Picker:
	// titles are screen text). Read-only: it may be shared with the
	// recognizer's cache.
	Picker *recognizers.Picker
	// InterruptArmed: the agent shows an interrupt half given (OpenCode's
	// "esc again to interrupt"): the next Esc completes it.
	InterruptArmed bool
	// Status is the agent's own status result, nil unless an exact
	// profile proves it whole (recognizers.Recognition.Status: screen
	// text, credentials withheld, bounded). Read-only: it may be shared
	// with the recognizer's cache.
	Status *recognizers.StatusPanel
	// ModelMenu is one of the agent's /model menus, nil unless an exact
	// profile proves every row (recognizers.ModelMenu: screen text).
	// Read-only: it may be shared with the recognizer's cache.
	ModelMenu *recognizers.ModelMenu
	// ModelNotice is what /model last printed over the composer
	// (recognizers.Recognition.ModelNotice: screen text, private).
	ModelNotice string
}

// InteractionKey derives the key of public interaction ids from the
// store's secret (never the secret itself).
func InteractionKey(secret []byte) recognizers.Key {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("akk interaction ids"))
	return recognizers.Key(m.Sum(nil))
}

// paneRecognizer is one pane's incremental recognizer for its current
// profile: it re-reads only the screen's dirty rows.
type paneRecognizer struct {
	profile string // the recognizer's profile id
	r       *recognizers.Recognizer
}

// Profiles picks the profile that reads a pane's agent: its pinned one, a
// qualification's of that exact binary (recognizers.Qualified), or the
// agent's generic reading. The root implements it over the store; nil in
// Env reads with recognizers.Lookup alone.
type Profiles interface {
	Profile(ident procid.Identity) recognizers.Profile
	// Generation changes whenever a qualification is stored, so that a
	// pane reading the binary asks again.
	Generation() uint64
}

// recognize is the one place the supervisor calls the recognizers (pure:
// a profile and a screen in, a recognition out). A pane whose process is no
// agent is not recognized.
func (pr *paneRecognizer) recognize(key recognizers.Key, p recognizers.Profile, scr *vt.Screen) Recognition {
	if p.Agent == api.AgentNone || p.Agent == "" {
		pr.r = nil
		return Recognition{Screen: contract.ScreenUnknown, Composer: contract.ComposerAbsent, Recognizer: "none"}
	}
	if id := p.ID(); pr.r == nil || pr.profile != id {
		pr.profile = id
		pr.r = recognizers.NewRecognizer(p, key)
	}
	return FromRecognition(pr.r.Recognize(scr))
}

// maxFailedRules bounds a status's failed rules (a scan is one).
const maxFailedRules = 24

// failedRules explains scr with the profile for agent@version: the
// failed rule steps of its first reading, the outer ones (depth 2 at
// most: the profile's entry, its surfaces and their parts), without
// screen text.
func failedRules(agent, version string, scr *vt.Screen) []api.FailedRule {
	if agent == api.AgentNone || agent == "" {
		return nil
	}
	ex := recognizers.Explain(recognizers.Lookup(agent, version), scr, recognizers.TestKey)
	if len(ex.Sections) == 0 {
		return nil
	}
	var out []api.FailedRule
	for _, st := range ex.Sections[0].Steps {
		if st.Checks == 0 || st.Pass || st.Depth > 2 || len(out) == maxFailedRules {
			continue
		}
		r := api.FailedRule{Rule: st.Rule, Check: st.Kind, Row: st.Row}
		if st.Rows != st.Row {
			r.LastRow = st.Rows
		}
		if st.Diff != nil {
			col := st.Diff.Col
			r.Col = &col
		}
		out = append(out, r)
	}
	return out
}

// FromRecognition keeps what the contract shows of a recognition: never
// the draft's text, the fingerprint or the key plan.
func FromRecognition(r recognizers.Recognition) Recognition {
	out := Recognition{Screen: r.ScreenState, Composer: r.Composer, DraftLen: r.DraftLen,
		Profile: "generic", Recognizer: r.Profile, Warnings: append([]string(nil), r.Warnings...),
		QualifiedAs: r.QualifiedAs, Surface: r.Surface,
		Exact: r.Exact, ProfileID: r.Profile, Fingerprint: r.Fingerprint, Plan: r.Plan, Highlighted: -1,
		Clear: r.Clear, Stashed: r.Stashed, Completion: r.Completion, NoCompletion: r.NoCompletion, Picker: r.Picker,
		Status: r.Status, ModelMenu: r.ModelMenu, ModelNotice: r.ModelNotice, InterruptArmed: r.Activity.InterruptArmed}
	if r.Prompt != nil {
		out.Highlighted, out.Checked = r.Prompt.Highlighted, r.Prompt.Boxes()
	}
	if r.Exact {
		out.Profile = "exact"
	}
	if q := r.Qualification; q != nil {
		out.Qualification = &api.Qualification{Base: q.Base, Passed: len(q.Passed), Judged: q.Judged}
	}
	if r.Draft != "" {
		out.DraftSum = sha256.Sum256([]byte(r.Draft))
	}
	if !r.Region.Empty() {
		out.PromptTop, out.PromptRows = r.Region.Top, r.Region.Rows
	}
	if r.Interaction != nil {
		out.Interaction = r.Interaction.Clone() // kept past the recognition that made it
	}
	if b := r.Blocked; b != nil && r.ScreenState == contract.ScreenBlocked {
		out.Blocked = &api.Blocked{Reason: b.Reason, HTTPStatus: b.Status, ResetsAtShown: b.ResetsAt, AutoContinue: b.AutoContinue}
	}
	return out
}

// placeBlock keeps the instant of a block's printed reset time from when
// it was first seen ("7pm" read at 6:50 pm is today's, and stays so when
// it is read again at 7:01 pm): a block with the same facts as prev takes
// its instant; a new one is read against now, in the daemon's time zone
// (the agent's, on the same machine).
func placeBlock(prev, b *api.Blocked, now time.Time) *api.Blocked {
	if b == nil || b.ResetsAtShown == "" {
		return b
	}
	if prev != nil && prev.Reason == b.Reason && prev.ResetsAtShown == b.ResetsAtShown {
		b.ResetsAt = prev.ResetsAt
		return b
	}
	if at, ok := ResetTime(b.ResetsAtShown, now, time.Local); ok {
		b.ResetsAt = at
	}
	return b
}

// LogValue of a recognition: its public states only.
func (r Recognition) LogValue() slog.Value {
	kind := ""
	if r.Interaction != nil {
		kind = string(r.Interaction.Kind)
	}
	return slog.GroupValue(slog.String("screen", string(r.Screen)), slog.String("composer", string(r.Composer)),
		slog.Int("draft_len", r.DraftLen), slog.String("interaction", kind), slog.String("recognizer", r.Recognizer))
}

// String is LogValue as text.
func (r Recognition) String() string { return r.LogValue().String() }

// Fixed is an Env.Recognize that reads every screen with one agent's
// profile, whatever runs in the pane (benchmarks of the pipeline on a
// plain process). Each call makes its own incremental recognizer: one
// per pane.
func Fixed(key recognizers.Key, agent, version string) func(agent, version string, scr *vt.Screen) Recognition {
	pr := &paneRecognizer{}
	p := recognizers.Lookup(agent, version)
	return func(_, _ string, scr *vt.Screen) Recognition { return pr.recognize(key, p, scr) }
}
