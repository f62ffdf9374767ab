package recognizers

// Gemini CLI's exact versions, each its own value (so its own Profile).
// Add a version only with its recordings in recordings/testdata.
var gemini0_61_0 = gemini0xBase

// An unknown version is read with the exact grammar.
func init() {
	Register(Grammars{Agent: "gemini", Versions: []Version{{Version: "0.61.0", Grammar: &gemini0_61_0}},
		Generic: []Grammar{&gemini0_61_0}})
}
