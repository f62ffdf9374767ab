package screen

import "github.com/agent-knock-knock/akk/recognizers"

// Codex's startup screens (recordings startup-trust on 0.155.1,
// startup-login and startup-update on 0.155.1 and 0.171.0): full-screen
// menus under the animated welcome logo, "Press enter to continue" as
// the last row (0.171.0's update prompt: "enter continue · esc skip").
// The highlighted rows are "Yes, continue" and "Update now (runs `npm
// install -g @openai/codex`)": Enter would trust the project or install
// a new Codex, so akk never presses anything there.

var (
	codexStartupFooters = []string{"Press enter to continue", "enter continue · esc skip", "enter/esc confirm · ^c quit"}
	codexStartupShapes  = []recognizers.StartupShape{
		{Title: "Do you trust the contents of this directory?", Reason: recognizers.BlockedTrust},
		{Title: "Sign in with ChatGPT to use Codex", Reason: recognizers.BlockedLogin},
		{Title: "Choose how you want to use Codex.", Reason: recognizers.BlockedLogin}, // 0.171.0
		{Title: "✨\u200aUpdate available!", Reason: recognizers.BlockedUpdate},         // a hair space after the sparkles
		{Title: "Update available · ", Reason: recognizers.BlockedUpdate},              // 0.171.0
		// 0.171.0 offers its newest model to a user of an older one
		// (startup-model-nudge): Enter switches the model.
		{Title: "Meet GPT-6 Sol", Reason: recognizers.BlockedOnboarding},
	}
)

// startup reads a startup screen as blocked; false when it is none.
func (c *codex0x) startup(g *recognizers.Grid, out *recognizers.Recognition) bool {
	defer g.Enter("codex0x.startup")()
	b, bottom, ok := recognizers.StartupScreen(g, codexStartupFooters, 2, codexStartupShapes)
	if !ok {
		return false
	}
	recognizers.BlockDialog(out, b, b.Row, bottom)
	return true
}
