// Package screen is akk's screen grammar of Codex (OpenAI's terminal
// agent): for each recorded version, how its composer, approval menus,
// questions (request_user_input, async questions), elicitations, session
// picker, /status card, model popups, startup and error screens are
// drawn, proven from styled cells (recognizers.Grammar), and which of its
// native surfaces (thread commands, status inspection, model control) are
// recorded the whole way. It registers them with the recognizers registry
// from init (versions.go), so whatever links it, akk through
// agents/registry, gets Codex's profiles.
//
// It is pure like recognizers: no I/O, no clock. It does not recognize
// on its own (recognizers.Recognize does, with the fingerprint, ids and
// the public projection) and sends no input; everything it knows is a
// fact of the recordings in recordings/testdata.
package screen
