package recognizers

import "github.com/agent-knock-knock/akk/contract"

// Surface names the kind of screen a reading proved, at the grain akk acts
// on: the idle composer a task is typed into, a shell permission dialog,
// a single-select question. It is what qualification proves a new agent
// binary draws exactly as its pinned base does (issue 41): a surface
// passes or not as a whole, and a qualified binary is acted on only where
// its screen shows a passed surface.
//
// The engine derives it from the reading (SurfaceOf), so every grammar of
// every agent names its surfaces the same way and none can forget to;
// what tells two surfaces apart is what their key plans differ by (the
// prompt's kind, the permission's tool, a question's selection), never
// screen text. The ids are stable: they are stored in qualification
// records and shown to people.
type Surface string

// Surfaces. A reading that proves none of them (unknown, starting, a
// menu or viewer no profile reads whole) has SurfaceNone: nothing acts
// on it anyway.
const (
	SurfaceNone Surface = ""
	// The main composer, idle: a task is typed and submitted.
	SurfaceComposerIdle Surface = "composer.idle"
	// The main composer while the agent works: a person's message steers
	// or queues, an interrupt stops the turn.
	SurfaceComposerWorking Surface = "composer.working"
	// The completion list a slash command typed in the composer opens.
	SurfaceCompletion Surface = "composer.completion"
	// A permission dialog: "permission.shell", "permission.edit", ... by
	// the tool the profile names (contract.Tool); "permission" alone when
	// it names none.
	SurfacePermission Surface = "permission"
	// Questionnaires, by what one answer is.
	SurfaceQuestionSingle Surface = "question.single"
	SurfaceQuestionMulti  Surface = "question.multi"
	// Several questions on tabs, one answered at a time, then a review.
	SurfaceQuestionSteps Surface = "question.steps"
	SurfaceFreeText      Surface = "free_text"
	SurfaceConfirmation  Surface = "confirmation"
	SurfaceAsyncQuestion Surface = "async_question"
	// The agent stopped on an API error or a verification.
	SurfaceBlocked Surface = "blocked"
	// The agent's own panels: its session picker, status and model menu.
	SurfacePicker    Surface = "picker"
	SurfaceStatus    Surface = "status"
	SurfaceModelMenu Surface = "model_menu"
)

// Name is the surface's id, or "no surface" for SurfaceNone, for a
// person to read.
func (s Surface) Name() string {
	if s == SurfaceNone {
		return "no surface"
	}
	return string(s)
}

// SurfaceOf names the surface a reading proved. It is pure: it reads the
// recognition's state, prompt and panels, never the screen.
func SurfaceOf(r *Recognition) Surface {
	switch {
	case r.Picker != nil:
		return SurfacePicker
	case r.Status != nil && r.Composer == contract.ComposerAbsent:
		// A status printed into the history above an idle composer
		// (Codex) is the composer's surface: it owns the input.
		return SurfaceStatus
	case r.ModelMenu != nil:
		return SurfaceModelMenu
	case r.ScreenState == contract.ScreenBlocked:
		return SurfaceBlocked
	}
	if p := r.Prompt; p != nil && !composerOwns(r) {
		return promptSurface(p)
	}
	switch r.ScreenState {
	case contract.ScreenIdle:
		if r.Completion != "" {
			return SurfaceCompletion
		}
		return SurfaceComposerIdle
	case contract.ScreenWorking:
		return SurfaceComposerWorking
	}
	return SurfaceNone
}

// composerOwns: a collapsed async-question summary sits above the main
// composer, which owns the input (the prompt is only counted).
func composerOwns(r *Recognition) bool {
	return r.Prompt.Kind == contract.KindAsyncQuestion && r.Composer != contract.ComposerAbsent &&
		(r.ScreenState == contract.ScreenIdle || r.ScreenState == contract.ScreenWorking)
}

func promptSurface(p *Prompt) Surface {
	switch p.Kind {
	case contract.KindPermission:
		if p.Tool == "" {
			return SurfacePermission
		}
		return SurfacePermission + "." + Surface(p.Tool)
	case contract.KindQuestionnaire:
		switch {
		case p.MultiSelect:
			return SurfaceQuestionMulti
		case p.Step.Total > 1:
			return SurfaceQuestionSteps
		}
		return SurfaceQuestionSingle
	case contract.KindFreeText:
		return SurfaceFreeText
	case contract.KindConfirmation:
		return SurfaceConfirmation
	case contract.KindAsyncQuestion:
		return SurfaceAsyncQuestion
	}
	return SurfaceNone
}

// Surfaces lists every surface id, a permission's once per tool the
// contract names.
func Surfaces() []Surface {
	out := []Surface{SurfaceComposerIdle, SurfaceComposerWorking, SurfaceCompletion, SurfacePermission}
	for _, t := range contract.Tools() {
		out = append(out, SurfacePermission+"."+Surface(t))
	}
	return append(out, SurfaceQuestionSingle, SurfaceQuestionMulti, SurfaceQuestionSteps, SurfaceFreeText,
		SurfaceConfirmation, SurfaceAsyncQuestion, SurfaceBlocked, SurfacePicker, SurfaceStatus, SurfaceModelMenu)
}
