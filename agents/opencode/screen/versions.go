package screen

import "github.com/agent-knock-knock/akk/recognizers"

// OpenCode's exact versions, each its own value (so its own Profile). Add
// a version only with its recordings in recordings/testdata.
var openCode1_18_33 = openCode1xBase

// An unknown version is read with the exact grammar.
func init() {
	recognizers.Register(recognizers.Grammars{Agent: "opencode", Versions: []recognizers.Version{{Version: "1.18.33", Grammar: &openCode1_18_33}},
		Generic: []recognizers.Grammar{&openCode1_18_33}})
}
