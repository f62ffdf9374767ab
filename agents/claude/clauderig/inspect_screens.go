package clauderig

// What each version of Claude Code draws in its Status panel and model
// picker (inspect.go), row by row as measured.

// claudeInspect is what one version draws in the panel and the picker.
type claudeInspect struct {
	// statusRows are the Status panel's rows, label and value, in order
	// ("*" at the end of a value: a prefix; {work}, {tmp}, {version},
	// {session}: the run's). A row's value wrapped onto more screen rows
	// is joined with single spaces.
	statusRows     []statusRow
	statusHint     string
	listAfter      []string // the completion list of "/status" after /statusline
	pickerHint     string
	pickerRows     []pickerRow // as first drawn
	effortBefore   string
	effortKey      string // the key that changes the effort
	effortAfter    string
	target         string // the picker row chosen
	requestBefore  modelTuple
	requestAfter   modelTuple
	savedAs        string   // the confirmation printed after Enter
	keptAs         string   // printed after Esc
	settingsModel  string   // settings.json "model" after Enter
	settingsEffort string   // its modelSettings[requestAfter.Model].effortLevel
	modelList      []string // the completion list of "/model"
	escAgain       string   // the hint after the second Esc on a draft
	// switchAsk is the confirmation Enter in the picker asks for in a
	// conversation that has a turn.
	switchAsk []string
	// policyRows are the panel's rows when the organization policy fails
	// to load (status-policy-error); policyWarning the notice the idle
	// screen shows then ("": none).
	policyRows    []statusRow
	policyWarning string
}

type statusRow struct{ label, value string }

type pickerRow struct {
	n           int
	label, desc string
	current     bool // "✔"
	highlighted bool // "❯"
}

// modelTuple is what a model request carries: its "model" and
// "output_config"."effort".
type modelTuple struct{ Model, Effort string }

const claudeOrgPolicy = "not fetched with a custom ANTHROPIC_BASE_URL"

var claudeInspects = map[string]claudeInspect{
	"2.1.267": {
		statusRows: []statusRow{
			{"Version", "{version}"}, {"Session name", "Fake session"}, {"Session ID", "{session}"},
			{"Session kind", "interactive"}, {"Peer address", "uds:{tmp}/cc-socks/*"}, {"cwd", "{work}"},
			{"Auth token", "none"}, {"API key", "ANTHROPIC_API_KEY"}, {"Anthropic base URL", "http://127.0.0.1:*"},
			{"Model", "Default (claude-opus-5[1m])"}, {"Setting sources", "User settings"},
			{"Managed settings (remote)", "not fetched — not available with a custom ANTHROPIC_BASE_URL"},
			{"Organization policy", claudeOrgPolicy},
		},
		statusHint: "Esc to cancel",
		listAfter:  []string{"/ide", "/usage"},
		pickerHint: "Enter to set as default · s to use this session only · Esc to cancel",
		pickerRows: []pickerRow{
			{1, "Default (recommended)", "Use the default model (currently Opus 5 (1M context)) · $5/$25 per Mtok", true, true},
			{2, "Opus (1M context)", "Opus 5 with 1M context · Best for everyday, complex tasks · $5/$25 per Mtok", false, false},
			{3, "Sonnet", "Sonnet 5 · Efficient for routine tasks · $2/$10 per Mtok", false, false},
			{4, "Sonnet 5 (1M context)", "Sonnet 5 for long sessions · $2/$10 per Mtok", false, false},
			{5, "Haiku", "Haiku 4.5 · Fastest for quick answers · $1/$5 per Mtok", false, false},
		},
		effortBefore: "● High effort (default) ←/→ to adjust", effortKey: "Left", effortAfter: "◐ Medium effort ←/→ to adjust",
		target:        "Sonnet",
		requestBefore: modelTuple{"claude-opus-5", "high"}, requestAfter: modelTuple{"claude-sonnet-5", "medium"},
		savedAs:       "Set model to Sonnet 5 and saved as your default for new sessions with medium effort",
		keptAs:        "Kept model as Opus 5 (1M context) (default)",
		settingsModel: "sonnet", settingsEffort: "medium",
		modelList: []string{"/model", "/claude-api", "/loop"},
		escAgain:  "Esc again to clear",
		switchAsk: []string{"Switch model?", "Your next response will be slower and use more tokens",
			"This conversation is cached for the current model. Switching to Sonnet 5 means the full history gets re-read on",
			"❯ 1. Yes, switch to Sonnet 5", "2. No, go back"},
		policyRows: []statusRow{
			{"Version", "{version}"}, {"Session name", "/rename to add a name"}, {"Session ID", "{session}"},
			{"Session kind", "interactive"}, {"Peer address", "uds:{tmp}/cc-socks/*"}, {"cwd", "{work}"},
			{"Auth token", "none"}, {"API key", "ANTHROPIC_API_KEY"}, {"Anthropic base URL", "http://127.0.0.1:*"},
			{"Proxy", "http://127.0.0.1:*"},
			{"Model", "Default (claude-opus-5[1m])"}, {"Setting sources", "User settings"},
			{"Organization policy", "Couldn't load*"},
		},
	},
	"2.1.332": {
		statusRows: []statusRow{
			{"Version", "{version}"}, {"Session name", "/rename to add a name"}, {"Session ID", "{session}"},
			{"Session kind", "interactive"}, {"Peer address", "uds:{tmp}/cc-socks/*"}, {"cwd", "{work}"},
			{"Auth token", "none"}, {"API key", "ANTHROPIC_API_KEY"}, {"Anthropic base URL", "http://127.0.0.1:*"},
			{"Model", "Default (claude-opus-5-5)"}, {"Setting sources", "User settings"},
			{"Managed settings (remote)", "not fetched — not available with a custom ANTHROPIC_BASE_URL"},
			{"Organization policy", claudeOrgPolicy},
			{"Auto mode server", "Disabled"},
			{"Features", "some aren't available while CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is set, such as " +
				"/advisor, /artifact-diagramming, /design, /design-login, /design-sync, /import, " +
				"/skill-doctor: https://code.claude.com/docs/en/env-vars"},
		},
		statusHint: "←/→ to switch · Esc to close",
		listAfter:  []string{"/usage", "/plugin-authoring", "/ide"},
		pickerHint: "s to use this session only · Enter to save · Esc to cancel",
		pickerRows: []pickerRow{
			{1, "Default (recommended)", "Use the default model (currently Opus 5.5) · $4/$20 per Mtok", true, true},
			{2, "Opus", "Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok", false, false},
			{3, "Fable", "Fable 5.2 · Most capable for your hardest and longest-running tasks · $8/$40 per Mtok", false, false},
			{4, "Sonnet", "Sonnet 5.5 · Efficient for routine tasks · $2/$10 per Mtok", false, false},
			{5, "Haiku", "Haiku 5.5 · Fastest for quick answers · $0.10/$0.50 per Mtok ($0.50/$2.50 for prompts over 100k)", false, false},
		},
		effortBefore: "◐ Medium effort (default) ←/→ to adjust", effortKey: "Right", effortAfter: "● High effort ←/→ to adjust",
		target:        "Sonnet",
		requestBefore: modelTuple{"claude-opus-5-5", "medium"}, requestAfter: modelTuple{"claude-sonnet-5-5", "high"},
		savedAs:       "Set model to Sonnet 5.5 and saved as your default for new sessions with high effort",
		keptAs:        "Kept model as Opus 5.5 (default)",
		settingsModel: "sonnet", settingsEffort: "high",
		modelList: []string{"/model", "/auto-mode-setup", "/code-review", "/effort", "/update-config"},
		escAgain:  "esc again to clear",
		switchAsk: []string{"Switch model?", "Your next response will be slower and use more tokens",
			"This conversation is cached for the current model. Switching to Sonnet 5.5 means the full history gets re-read.",
			"❯ 1. Yes, switch to Sonnet 5.5", "2. No, go back", "Enter to confirm · Esc to cancel"},
		policyRows: []statusRow{
			{"Version", "{version}"}, {"Session name", "/rename to add a name"}, {"Session ID", "{session}"},
			{"Session kind", "interactive"}, {"Peer address", "uds:{tmp}/cc-socks/*"}, {"cwd", "{work}"},
			{"Auth token", "none"}, {"API key", "ANTHROPIC_API_KEY"}, {"Anthropic base URL", "http://127.0.0.1:*"},
			{"Proxy", "http://127.0.0.1:*"},
			{"Model", "Default (claude-opus-5-5)"}, {"Setting sources", "User settings"},
			{"Managed settings (remote)", "fetch failed — no policy applied (unexpected error)"},
			{"Organization policy", "Couldn't load*"},
			{"Auto mode server", "Disabled"},
			{"Features", "some aren't available while CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is set, such as " +
				"/advisor, /artifact-diagramming, /design, /design-login, /design-sync, /import, " +
				"/skill-doctor: https://code.claude.com/docs/en/env-vars"},
		},
		policyWarning: "⚠ Remote managed settings failed to load (unexpected error) · no remote policy applied · /status for details",
	},
}
