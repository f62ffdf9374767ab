package screen

import "github.com/agent-knock-knock/akk/recognizers"

// Gemini CLI's exact versions, each its own value (so its own Profile).
// Add a version only with its recordings in recordings/testdata.
var gemini0_61_0 = gemini0xBase

// An unknown version is read with the exact grammar.
func init() {
	recognizers.Register(recognizers.Grammars{Agent: "gemini", Versions: []recognizers.Version{{Version: "0.61.0", Grammar: &gemini0_61_0}},
		Generic: []recognizers.Grammar{&gemini0_61_0}})
}
