package rig

import (
	"fmt"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
)

// The keys of a user-explicit send on Claude Code (user_explicit.go),
// measured on the real binaries.
//
// Claude Code (2.1.267, 2.1.332) binds ctrl+s to chat:stash (context
// "Chat", rebound in ~/.claude/keybindings.json):
//   - on a composer with text it stashes the text (replacing any earlier
//     stash) and empties the composer; a chip "› stashed" (2.1.332: "draft
//     stashed") shows on the row above it;
//   - on an empty composer with a stash it restores the stash;
//   - the next submit that is not a slash command puts the stash back into
//     the composer at once (before the reply) with "Draft restored"
//     (2.1.332: "draft restored") for 5 s; no notice is drawn in the first
//     ~10 s after the start. Submitted while working, the request is queued
//     and the draft comes back the same way.
//
// ctrl+j is its newline key (chat:newline).
const (
	claudeStashKey = "\x13" // ctrl+s
	claudeNewline  = "\x0a" // ctrl+j
	// claudeNoticeHold: Claude Code draws no notice in its first ~10 s.
	claudeNoticeHold = 11 * time.Second
)

// claudeRestored is the notice of a restored stash: "Draft restored"
// (2.1.267), "draft restored" (2.1.332).
func claudeRestored(version string) string {
	if VersionAtLeast(version, "2.1.332") {
		return "draft restored"
	}
	return "Draft restored"
}

// claudeQueued is the row of a prompt queued while a turn runs: indented
// under the spinner row (2.1.267), or "❯ <prompt>" then "⎿  Queued · ctrl+x
// ctrl+s to send now" above it (2.1.332).
func claudeQueued(version, prompt string) string {
	if VersionAtLeast(version, "2.1.332") {
		return "Queued · ctrl+x ctrl+s to send now"
	}
	return "  ❯ " + prompt
}

// claudeWorking waits for the spinner row ("✢ Combobulating…", later with
// "(3s · ↓ 12 tokens)") and the anchors: with text in the composer the
// footer drops its hints, "esc to interrupt" among them.
func (s *Steps) claudeWorking(anchors ...string) {
	s.ScreenFunc(fmt.Sprintf("spinner row and %q", anchors), func(text string) bool {
		if !HasAll(text, anchors) {
			return false
		}
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); strings.HasSuffix(l, "…") || strings.Contains(l, "… (") {
				return true
			}
		}
		return false
	})
}

// claudeComposer waits for the composer (the last "❯" row) to read text
// ("": empty); the transcript above repeats prompts as "❯ <prompt>" rows.
func (s *Steps) claudeComposer(text string) {
	s.ScreenFunc(fmt.Sprintf("composer %q", text), func(screen string) bool {
		last := ""
		for _, l := range strings.Split(screen, "\n") {
			if strings.HasPrefix(l, "❯") {
				last = strings.TrimSpace(strings.TrimPrefix(l, "❯"))
			}
		}
		return last == text
	})
}

// claudeTurns waits for n turn ends in the transcript.
func (s *Steps) claudeTurns(n int) {
	s.Journal("turn end", func(map[string]any) bool { return countTurnEnds(s.d, n) })
}

func init() {
	claudeDraft := func(s *Steps) {
		s.claudeIdle()
		s.Type(DraftText)
		s.Screen("❯ " + DraftText)
		s.Gone(claudeIdleFooter)
		s.Mark("idle", ComposerDraft)
	}
	stash := func(s *Steps) {
		s.Type(claudeStashKey)
		s.Gone(DraftText)
		s.Screen("❯", claudeIdleFooter)
		s.Mark("idle", ComposerEmpty)
	}
	register(
		// C-s stashes the draft; the request is submitted and the draft is
		// back in the composer at once (2.1.267: with no notice), while the
		// (slow) turn runs and after it.
		&Scenario{Name: "stash-send", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: UserScript(claudeScript),
			Drive: func(s *Steps) {
				d := s.d
				// Notices are held back for about 10 s after the start
				// (measured: "Draft restored" drawn ~10.9 s after launch
				// whenever the submit came earlier).
				s.Pause(claudeNoticeHold)
				claudeDraft(s)
				stash(s)
				s.Type("slow-task please")
				s.Screen("❯ slow-task please")
				s.Key("Enter")
				s.Started("slow-task")
				s.claudeWorking("❯ " + DraftText)
				s.claudeComposer(DraftText)
				// "Draft restored" above the composer, for 5 s.
				s.claudeWorking(claudeRestored(d.Version))
				s.Pause(time.Second)
				s.MarkNow("working", ComposerDraft)
				s.claudeTurns(1)
				s.Screen("❯ "+DraftText, UserSlow)
				s.Gone(claudeBusyFooter)
				s.Mark("idle", ComposerDraft)
			}},
		// C-s on an empty composer with a stash restores the stash: the
		// case a send must refuse.
		&Scenario{Name: "stash-empty", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: UserScript(claudeScript),
			Drive: func(s *Steps) {
				claudeDraft(s)
				stash(s)
				s.Type(claudeStashKey)
				s.Screen("❯ " + DraftText)
				s.Mark("idle", ComposerDraft)
				// A second C-s stashes it again.
				stash(s)
			}},
		// A two-line draft (ctrl+j) is stashed and restored whole.
		&Scenario{Name: "stash-multiline", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: UserScript(claudeScript),
			Drive: func(s *Steps) {
				s.claudeIdle()
				s.Type("first line of the draft")
				s.Screen("❯ first line of the draft")
				s.Type(claudeNewline)
				s.Type("second line of the draft")
				s.Screen("❯ first line of the draft", "  second line of the draft")
				s.Mark("idle", ComposerDraft)
				s.Type(claudeStashKey)
				s.Gone("line of the draft")
				s.Screen("❯", claudeIdleFooter)
				s.Mark("idle", ComposerEmpty)
				s.Type(RequestText)
				s.Screen("❯ " + RequestText)
				s.Key("Enter")
				s.Request("prompt", nil)
				s.claudeTurns(1)
				s.Screen("❯ first line of the draft", "  second line of the draft", "Hello! I am the fake model")
				s.Gone(claudeBusyFooter)
				s.Mark("idle", ComposerDraft)
			}},
		stashWorking(stash),
	)
}

// A draft typed while the agent works, C-s, a request and Enter.
func stashWorking(stash func(*Steps)) *Scenario {
	return &Scenario{Name: "stash-working", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: UserScript(claudeScript),
		Drive: func(s *Steps) {
			d := s.d
			s.claudeIdle()
			s.claudePrompt("slow-task please")
			s.Started("slow-task")
			s.Screen(claudeBusyFooter)
			s.Type(DraftText)
			s.claudeWorking("❯ " + DraftText)
			s.Pause(time.Second)
			s.MarkNow("working", ComposerDraft)
			s.Type(claudeStashKey)
			s.Gone(DraftText)
			s.Pause(time.Second)
			s.MarkNow("working", ComposerEmpty)
			s.Type(RequestText)
			s.claudeWorking("❯ " + RequestText)
			s.Key("Enter")
			// The request waits under the spinner row as "  ❯ hello
			// there" and the draft is back in the composer at once.
			s.claudeComposer(DraftText)
			s.claudeWorking(claudeQueued(d.Version, RequestText))
			s.Pause(time.Second)
			markNow := func(state string, e recordings.MarkerState) { s.MarkNow(state, e) }
			// Working: 2.1.267 shows the queued prompt ("  ❯ hello there"
			// on a box) between the spinner and the composer.
			markNow("working", ComposerDraft)
			// The slow reply, then the queued request as the next turn;
			// the draft stays.
			s.claudeTurns(2)
			s.Screen(UserSlow, "Hello! I am the fake model")
			s.claudeComposer(DraftText)
			s.Mark("idle", ComposerDraft)
		}}
}
