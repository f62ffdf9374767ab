package recognizers

// Codex's startup screens (recordings startup-trust on 0.155.1,
// startup-login and startup-update on 0.155.1 and 0.171.0): full-screen
// menus under the animated welcome logo, "Press enter to continue" as
// the last row (0.171.0's update prompt: "enter continue · esc skip").
// The highlighted rows are "Yes, continue" and "Update now (runs `npm
// install -g @openai/codex`)": Enter would trust the project or install
// a new Codex, so akk never presses anything there.

var (
	codexStartupFooters = []string{"Press enter to continue", "enter continue · esc skip", "enter/esc confirm · ^c quit"}
	codexStartupShapes  = []startupShape{
		{title: "Do you trust the contents of this directory?", reason: BlockedTrust},
		{title: "Sign in with ChatGPT to use Codex", reason: BlockedLogin},
		{title: "Choose how you want to use Codex.", reason: BlockedLogin}, // 0.171.0
		{title: "✨\u200aUpdate available!", reason: BlockedUpdate},         // a hair space after the sparkles
		{title: "Update available · ", reason: BlockedUpdate},              // 0.171.0
		// 0.171.0 offers its newest model to a user of an older one
		// (startup-model-nudge): Enter switches the model.
		{title: "Meet GPT-6 Sol", reason: BlockedOnboarding},
	}
)

// startup reads a startup screen as blocked; false when it is none.
func (c *codex0x) startup(g *grid, out *Recognition) bool {
	defer g.enter("codex0x.startup")()
	b, bottom, ok := startupScreen(g, codexStartupFooters, 2, codexStartupShapes)
	if !ok {
		return false
	}
	blockDialog(out, b, b.Row, bottom)
	return true
}
