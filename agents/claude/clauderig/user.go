package clauderig

import (
	"fmt"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// The keys of a user-explicit send on Claude Code (rig.UserScript),
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
	if rig.VersionAtLeast(version, "2.1.332") {
		return "draft restored"
	}
	return "Draft restored"
}

// claudeQueued is the row of a prompt queued while a turn runs: indented
// under the spinner row (2.1.267), or "❯ <prompt>" then "⎿  Queued · ctrl+x
// ctrl+s to send now" above it (2.1.332).
func claudeQueued(version, prompt string) string {
	if rig.VersionAtLeast(version, "2.1.332") {
		return "Queued · ctrl+x ctrl+s to send now"
	}
	return "  ❯ " + prompt
}

// working waits for the spinner row ("✢ Combobulating…", later with
// "(3s · ↓ 12 tokens)") and the anchors: with text in the composer the
// footer drops its hints, "esc to interrupt" among them.
func (s steps) working(anchors ...string) {
	s.ScreenFunc(fmt.Sprintf("spinner row and %q", anchors), func(text string) bool {
		if !rig.HasAll(text, anchors) {
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

// composerReads waits for the composer (the last "❯" row) to read text
// ("": empty); the transcript above repeats prompts as "❯ <prompt>" rows.
func (s steps) composerReads(text string) {
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

// turns waits for n turn ends in the transcript.
func (s steps) turns(n int) {
	s.Journal("turn end", func(map[string]any) bool { return countTurnEnds(s.d, n) })
}

func userScenarios() []*rig.Scenario {
	var out []*rig.Scenario
	claudeDraft := func(s steps) {
		s.idle()
		s.Type(rig.DraftText)
		s.Screen("❯ " + rig.DraftText)
		s.Gone(claudeIdleFooter)
		s.Mark("idle", rig.ComposerDraft)
	}
	stash := func(s steps) {
		s.Type(claudeStashKey)
		s.Gone(rig.DraftText)
		s.Screen("❯", claudeIdleFooter)
		s.Mark("idle", rig.ComposerEmpty)
	}
	out = append(out,
		// C-s stashes the draft; the request is submitted and the draft is
		// back in the composer at once (2.1.267: with no notice), while the
		// (slow) turn runs and after it.
		&rig.Scenario{Name: "stash-send", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: rig.UserScript(claudeScript),
			Drive: drive(func(s steps) {
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
				s.working("❯ " + rig.DraftText)
				s.composerReads(rig.DraftText)
				// "Draft restored" above the composer, for 5 s.
				s.working(claudeRestored(d.Version))
				s.Pause(time.Second)
				s.MarkNow("working", rig.ComposerDraft)
				s.turns(1)
				s.Screen("❯ "+rig.DraftText, rig.UserSlow)
				s.Gone(claudeBusyFooter)
				s.Mark("idle", rig.ComposerDraft)
			})},
		// C-s on an empty composer with a stash restores the stash: the
		// case a send must refuse.
		&rig.Scenario{Name: "stash-empty", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: rig.UserScript(claudeScript),
			Drive: drive(func(s steps) {
				claudeDraft(s)
				stash(s)
				s.Type(claudeStashKey)
				s.Screen("❯ " + rig.DraftText)
				s.Mark("idle", rig.ComposerDraft)
				// A second C-s stashes it again.
				stash(s)
			})},
		// A two-line draft (ctrl+j) is stashed and restored whole.
		&rig.Scenario{Name: "stash-multiline", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: rig.UserScript(claudeScript),
			Drive: drive(func(s steps) {
				s.idle()
				s.Type("first line of the draft")
				s.Screen("❯ first line of the draft")
				s.Type(claudeNewline)
				s.Type("second line of the draft")
				s.Screen("❯ first line of the draft", "  second line of the draft")
				s.Mark("idle", rig.ComposerDraft)
				s.Type(claudeStashKey)
				s.Gone("line of the draft")
				s.Screen("❯", claudeIdleFooter)
				s.Mark("idle", rig.ComposerEmpty)
				s.Type(rig.RequestText)
				s.Screen("❯ " + rig.RequestText)
				s.Key("Enter")
				s.Request("prompt", nil)
				s.turns(1)
				s.Screen("❯ first line of the draft", "  second line of the draft", "Hello! I am the fake model")
				s.Gone(claudeBusyFooter)
				s.Mark("idle", rig.ComposerDraft)
			})},
		stashWorking(stash),
	)
	return out
}

// A draft typed while the agent works, C-s, a request and Enter.
func stashWorking(stash func(steps)) *rig.Scenario {
	return &rig.Scenario{Name: "stash-working", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: rig.UserScript(claudeScript),
		Drive: drive(func(s steps) {
			d := s.d
			s.idle()
			s.prompt("slow-task please")
			s.Started("slow-task")
			s.Screen(claudeBusyFooter)
			s.Type(rig.DraftText)
			s.working("❯ " + rig.DraftText)
			s.Pause(time.Second)
			s.MarkNow("working", rig.ComposerDraft)
			s.Type(claudeStashKey)
			s.Gone(rig.DraftText)
			s.Pause(time.Second)
			s.MarkNow("working", rig.ComposerEmpty)
			s.Type(rig.RequestText)
			s.working("❯ " + rig.RequestText)
			s.Key("Enter")
			// The request waits under the spinner row as "  ❯ hello
			// there" and the draft is back in the composer at once.
			s.composerReads(rig.DraftText)
			s.working(claudeQueued(d.Version, rig.RequestText))
			s.Pause(time.Second)
			markNow := func(state string, e recordings.MarkerState) { s.MarkNow(state, e) }
			// Working: 2.1.267 shows the queued prompt ("  ❯ hello there"
			// on a box) between the spinner and the composer.
			markNow("working", rig.ComposerDraft)
			// The slow reply, then the queued request as the next turn;
			// the draft stays.
			s.turns(2)
			s.Screen(rig.UserSlow, "Hello! I am the fake model")
			s.composerReads(rig.DraftText)
			s.Mark("idle", rig.ComposerDraft)
		})}
}
