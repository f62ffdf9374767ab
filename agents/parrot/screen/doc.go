// Package screen is akk's screen grammar of Parrot, its test agent: how
// its composer and its permission dialog are drawn, proven from styled
// cells (recognizers.Grammar). It registers its profile with the
// recognizers registry from init (versions.go), so whatever links it,
// akk through agents/registry, gets Parrot's profile.
//
// It is pure like recognizers: no I/O, no clock. It does not recognize
// on its own (recognizers.Recognize does, with the fingerprint, ids and
// the public projection) and sends no input; everything it knows is a
// fact of the recordings in agents/parrot/testdata and of the program in
// agents/parrot/parrotagent. A screen of any other shape is unknown, or a
// permission that is manual_required.
package screen
