// Package screen is akk's screen grammar of OpenCode: for each recorded
// version, how its full-screen composer, working state, permission
// dialogs and questions are drawn, proven from styled cells
// (recognizers.Grammar). It registers them with the recognizers registry
// from init (versions.go), so whatever links it, akk through
// agents/registry, gets OpenCode's profiles.
//
// It is pure like recognizers: no I/O, no clock. It does not recognize
// on its own (recognizers.Recognize does, with the fingerprint, ids and
// the public projection) and sends no input; everything it knows is a
// fact of the recordings in recordings/testdata.
package screen
