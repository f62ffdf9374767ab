package recognizers

// OpenCode's exact versions, each its own value (so its own Profile). Add
// a version only with its recordings in recordings/testdata.
var openCode1_18_33 = openCode1xBase

// An unknown version is read with the exact grammar.
func init() {
	Register(Grammars{Agent: "opencode", Versions: []Version{{Version: "1.18.33", Grammar: &openCode1_18_33}},
		Generic: []Grammar{&openCode1_18_33}})
}
