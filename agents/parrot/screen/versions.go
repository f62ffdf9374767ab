package screen

import "github.com/agent-knock-knock/akk/recognizers"

// Parrot's exact versions, each its own value (so its own Profile). Add
// a version only with its recordings in agents/parrot/testdata.
var parrot1_0_0 = parrot1xBase

// An unknown version is read with the exact grammar.
func init() {
	recognizers.Register(recognizers.Grammars{Agent: "parrot", Versions: []recognizers.Version{{Version: "1.0.0", Grammar: &parrot1_0_0}},
		Generic: []recognizers.Grammar{&parrot1_0_0}})
}
