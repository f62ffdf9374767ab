package contract

// ScreenState is what an agent's screen shows (DESIGN "Contract details").
type ScreenState string

// Screen states.
const (
	ScreenIdle             ScreenState = "idle"
	ScreenWorking          ScreenState = "working"
	ScreenAwaitingApproval ScreenState = "awaiting_approval"
	ScreenQuestionnaire    ScreenState = "questionnaire"
	ScreenFreeText         ScreenState = "free_text"
	ScreenConfirmation     ScreenState = "confirmation"
	// ScreenAsyncQuestion only while an agent's expanded async editor
	// owns input (Codex); a collapsed summary is idle or working with an
	// async_question interaction.
	ScreenAsyncQuestion ScreenState = "async_question"
	// ScreenBlocked: the agent stopped on something only time or a person
	// can clear, and it gets zero input: an API error it gave up on (a
	// rate or usage limit, an overload, a 5xx), or a platform's user
	// verification.
	ScreenBlocked      ScreenState = "blocked"
	ScreenMenuOrViewer ScreenState = "menu_or_viewer"
	ScreenStarting     ScreenState = "starting"
	ScreenExited       ScreenState = "exited"
	ScreenUnknown      ScreenState = "unknown"
)

// Prompting reports whether the screen waits on a person's answer to a
// native prompt (a permission, a question, a confirmation, an editor).
func (s ScreenState) Prompting() bool {
	switch s {
	case ScreenAwaitingApproval, ScreenQuestionnaire, ScreenFreeText, ScreenConfirmation, ScreenAsyncQuestion:
		return true
	}
	return false
}

// Composer is the state of the agent's input line. The text of a draft
// never crosses the contract: only ComposerDraft and its length.
type Composer string

// Composer states.
const (
	ComposerEmpty  Composer = "empty"
	ComposerDraft  Composer = "draft"
	ComposerAbsent Composer = "absent"
)
