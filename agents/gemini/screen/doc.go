// Package screen is akk's screen grammar of Gemini CLI: for each recorded
// version, how its composer, working row, tool confirmations and footer
// are drawn in each palette it uses, proven from styled cells
// (recognizers.Grammar). It registers them with the recognizers registry
// from init (versions.go), so whatever links it, akk through
// agents/registry, gets Gemini CLI's profiles.
//
// It is pure like recognizers: no I/O, no clock. It does not recognize
// on its own (recognizers.Recognize does, with the fingerprint, ids and
// the public projection) and sends no input; everything it knows is a
// fact of the recordings in recordings/testdata.
package screen
