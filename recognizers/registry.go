package recognizers

// Each exact version is its own value (so its own Profile): an offer made
// under one version can never be taken under another, and a version whose
// screens drift gets its own fields without touching its neighbours.
// Add a version only with its recordings in recordings/testdata.
var (
	claude2_1_263 = claude21Base
	claude2_1_266 = claude21Base
	claude2_1_267 = claude21Base
	codex0_155_1  = codex0xBase
)

// registry is the registration table: agent@exact-version -> profile.
var registry = map[string]Profile{
	"claude@2.1.263": {Agent: "claude", Version: "2.1.263", Exact: true, grammar: &claude2_1_263},
	"claude@2.1.266": {Agent: "claude", Version: "2.1.266", Exact: true, grammar: &claude2_1_266},
	"claude@2.1.267": {Agent: "claude", Version: "2.1.267", Exact: true, grammar: &claude2_1_267},
	"codex@0.155.1":  {Agent: "codex", Version: "0.155.1", Exact: true, grammar: &codex0_155_1},
}

// generic is the grammar an unknown version of an agent is read with: the
// newest exact one. Its interactions are all manual_required.
var generic = map[string]grammar{
	"claude": &claude2_1_267,
	"codex":  &codex0_155_1,
}
