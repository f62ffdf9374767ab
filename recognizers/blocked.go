package recognizers

import (
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
)

// Block is what a blocked screen says about why the agent stopped: the
// machine-readable reason and the facts the screen prints. It is set only
// with ScreenState Blocked from an API error the profile knows
// (each agent's screen package, blocked.go); a blocked screen offers no
// interaction, no plan and no clear: it gets zero input.
type Block struct {
	// Reason is one of the Blocked* reasons.
	Reason string
	// Status is the HTTP status the screen prints (429, 529, 503), or 0.
	Status int
	// ResetsAt is the reset or retry time exactly as printed ("7:01 AM"),
	// "" when the screen prints none. akk reads no clock: turning it into
	// an instant is the caller's, with the pane's clock and time zone.
	ResetsAt string
	// AutoContinue: the agent continues by itself at the reset (Claude
	// Code's usage limit: "Continuing automatically at 9:36pm · esc to
	// cancel", blocked_usage.go). Typing there cancels that, so a send is
	// not the way on: the block is not resumable, it waits for the reset.
	AutoContinue bool
	// Row is the screen row of the error's first line.
	Row int
}

// Blocked reasons.
const (
	// A rate limit of the API (429: requests or tokens per minute).
	BlockedRateLimited = "rate_limited"
	// A plan's usage limit (429 with a reset time): it clears at the reset.
	BlockedUsageLimit = "usage_limit"
	// The API is overloaded (Anthropic 529, OpenAI server_is_overloaded).
	BlockedOverloaded = "overloaded"
	// Another API error the agent gave up on (a 5xx).
	BlockedAPIError = "api_error"
	// A person pressed Esc in the running turn: the agent stopped it and
	// waits at its composer.
	BlockedInterrupted = "interrupted"
	// The agent asks whether the project may be trusted (a startup dialog).
	BlockedTrust = "trust_required"
	// The agent has no usable login: its login menu, its question whether
	// to use the API key it found, or "Not logged in" at its composer.
	BlockedLogin = "login_required"
	// The agent's first-run setup (Claude Code's theme picker).
	BlockedOnboarding = "onboarding"
	// The agent offers to update itself (Codex: Enter runs npm install).
	BlockedUpdate = "update_available"
)

// StartupShape is a startup screen a profile knows: its footer is the
// screen's last row, and a row above it starts with title.
type StartupShape struct {
	Title  string
	Reason string
}

// StartupScreen reads the screen as one of shapes: the last non-blank row
// b must read one of footers, and a row of the dozen above it start with
// the shape's title at column x (x < 0: any column). The block's row is
// the title's.
func StartupScreen(g *Grid, footers []string, x int, shapes []StartupShape) (Block, int, bool) {
	b := g.LastRow()
	if b < 0 {
		return Block{}, 0, false
	}
	if foot := g.Trimmed(b); !slices.Contains(footers, foot) {
		return Block{}, 0, false
	}
	for y := b - 1; y >= max(0, b-14); y-- {
		if g.Blank(y) {
			continue
		}
		at := g.First(y)
		if x >= 0 && at != x {
			continue
		}
		for _, s := range shapes {
			if g.HasAt(y, at, s.Title) {
				return Block{Reason: s.Reason, Row: y}, b, true
			}
		}
	}
	return Block{}, 0, false
}

// BlockDialog makes a startup dialog's recognition: blocked, no composer,
// the region from its title to its footer.
func BlockDialog(out *Recognition, b Block, top, bottom int) {
	out.ScreenState, out.Composer = contract.ScreenBlocked, contract.ComposerAbsent
	out.Blocked = &b
	out.Region = Region{Top: top, Rows: bottom - top + 1}
}

// APIErrorShape is one API error an agent prints when it gives up on a
// request, as its recordings show it. The error's text (its rows joined
// by single spaces) starts with prefix and contains every one of has.
type APIErrorShape struct {
	Prefix string
	Has    []string
	Reason string
	Status int
	// resets, when set, is the text right before a printed reset time;
	// the time runs to the first of resetsEnd (or the text's end).
	Resets    string
	ResetsEnd []string
}

// Match reads text as the shape; ok false if it is not this shape (or
// its reset time is missing).
func (s *APIErrorShape) Match(text string) (Block, bool) {
	if !strings.HasPrefix(text, s.Prefix) {
		return Block{}, false
	}
	for _, h := range s.Has {
		if !strings.Contains(text, h) {
			return Block{}, false
		}
	}
	b := Block{Reason: s.Reason, Status: s.Status}
	if s.Resets != "" {
		_, rest, ok := strings.Cut(text, s.Resets)
		if !ok {
			return Block{}, false
		}
		end := len(rest)
		for _, e := range s.ResetsEnd {
			if i := strings.Index(rest, e); i >= 0 && i < end {
				end = i
			}
		}
		if b.ResetsAt = strings.TrimSpace(rest[:end]); b.ResetsAt == "" {
			return Block{}, false
		}
	}
	return b, true
}

// MatchShapes reads text as the first shape that holds.
func MatchShapes(shapes []APIErrorShape, text string) (Block, bool) {
	for i := range shapes {
		if b, ok := shapes[i].Match(text); ok {
			return b, true
		}
	}
	return Block{}, false
}

// BlockComposer turns a recognized composer screen into a blocked one: the
// composer stays as read (a person may type there), but nothing is
// offered.
func BlockComposer(out *Recognition, b Block) {
	out.ScreenState = contract.ScreenBlocked
	out.Blocked = &b
	out.Clear = nil
}
