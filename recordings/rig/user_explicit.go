package rig

import (
	"fmt"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// The keys of a user-explicit send (a person tells akk to deliver a task
// into a composer that holds a draft, or into a working agent), measured
// on the real binaries.
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
//
// Codex (0.155.1, 0.171.0): ctrl+u deletes from the start of the cursor's
// line to the cursor (the text after the cursor and the lines above stay;
// at the start of a line it deletes the line break); ctrl+j inserts a
// newline. While working, Tab queues and Enter steers (0.171.0 sends the
// steered message at once, dropping the held model request).
const (
	claudeStashKey = "\x13" // ctrl+s
	ctrlJ          = "\x0a" // newline in both composers
	ctrlU          = "\x15"
	draftText      = "a draft that is not sent"
	requestText    = "hello there"
	// claudeNoticeHold: Claude Code draws no notice in its first ~10 s.
	claudeNoticeHold = 11 * time.Second
	// userSlow is the reply held back while the scenario types into the
	// working agent.
	userSlow = "This slow reply lets the user type while the agent works."
)

// userScript is the agent's corpus script with "slow-task": a reply held
// back 15 s.
func userScript(agent string) func(string) fakemodel.Script {
	return func(version string) fakemodel.Script {
		s := Script(agent, version)
		slow := fakemodel.Keyword{Word: "slow-task", Reply: fakemodel.Reply{Text: userSlow, FirstDelay: 15 * time.Second}}
		s.Keywords = append([]fakemodel.Keyword{slow}, s.Keywords...)
		return s
	}
}

// userMarkUnrecognized: as codexMarkUnrecognized, for the screens of these
// scenarios that today's recognizers misread (each userMisread says how).
const userMarkUnrecognized = false

func (s *sticky) userMisread(misread, state string, e recordings.MarkerState, mark func(string, recordings.MarkerState)) {
	s.pause(codexEnterGap) // as long as the marker's own wait
	if userMarkUnrecognized {
		mark(state, e)
		return
	}
	s.d.lg.Info("rig: marker left out (the recognizers misread its screen)", "state", state, "misread", misread)
}

// claudeRestored is the notice of a restored stash: "Draft restored"
// (2.1.267), "draft restored" (2.1.332).
func claudeRestored(version string) string {
	if versionAtLeast(version, "2.1.332") {
		return "draft restored"
	}
	return "Draft restored"
}

// claudeQueued is the row of a prompt queued while a turn runs: indented
// under the spinner row (2.1.267), or "❯ <prompt>" then "⎿  Queued · ctrl+x
// ctrl+s to send now" above it (2.1.332).
func claudeQueued(version, prompt string) string {
	if versionAtLeast(version, "2.1.332") {
		return "Queued · ctrl+x ctrl+s to send now"
	}
	return "  ❯ " + prompt
}

// claudeWorking waits for the spinner row ("✢ Combobulating…", later with
// "(3s · ↓ 12 tokens)") and the anchors: with text in the composer the
// footer drops its hints, "esc to interrupt" among them.
func (s *sticky) claudeWorking(anchors ...string) {
	s.screenFunc(fmt.Sprintf("spinner row and %q", anchors), func(text string) bool {
		if !hasAll(text, anchors) {
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
func (s *sticky) claudeComposer(text string) {
	s.screenFunc(fmt.Sprintf("composer %q", text), func(screen string) bool {
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
func (s *sticky) claudeTurns(n int) {
	s.journal("turn end", func(map[string]any) bool { return countTurnEnds(s.d, n) })
}

var (
	idleEmpty    = recordings.MarkerState{Composer: "empty"}
	idleDraft    = recordings.MarkerState{Composer: "draft"}
	workingEmpty = recordings.MarkerState{Composer: "empty"}
	workingDraft = recordings.MarkerState{Composer: "draft"}
)

func init() {
	claudeDraft := func(s *sticky) {
		s.claudeIdle()
		s.typ(draftText)
		s.screen("❯ " + draftText)
		s.gone(claudeIdleFooter)
		s.mark("idle", idleDraft)
	}
	stash := func(s *sticky) {
		s.typ(claudeStashKey)
		s.gone(draftText)
		s.screen("❯", claudeIdleFooter)
		s.mark("idle", idleEmpty)
	}
	register(
		// C-s stashes the draft; the request is submitted and the draft is
		// back in the composer at once (2.1.267: with no notice), while the
		// (slow) turn runs and after it.
		&Scenario{Name: "stash-send", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: userScript("claude"),
			Drive: func(d *Driver) error {
				s := &sticky{d: d}
				// Notices are held back for about 10 s after the start
				// (measured: "Draft restored" drawn ~10.9 s after launch
				// whenever the submit came earlier).
				s.pause(claudeNoticeHold)
				claudeDraft(s)
				stash(s)
				s.typ("slow-task please")
				s.screen("❯ slow-task please")
				s.key("Enter")
				s.started("slow-task")
				s.claudeWorking("❯ " + draftText)
				s.claudeComposer(draftText)
				// "Draft restored" above the composer, for 5 s.
				s.claudeWorking(claudeRestored(d.Version))
				s.pause(time.Second)
				s.markNow("working", workingDraft)
				s.claudeTurns(1)
				s.screen("❯ "+draftText, userSlow)
				s.gone(claudeBusyFooter)
				s.mark("idle", idleDraft)
				return s.err
			}},
		// C-s on an empty composer with a stash restores the stash: the
		// case a send must refuse.
		&Scenario{Name: "stash-empty", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: userScript("claude"),
			Drive: func(d *Driver) error {
				s := &sticky{d: d}
				claudeDraft(s)
				stash(s)
				s.typ(claudeStashKey)
				s.screen("❯ " + draftText)
				s.mark("idle", idleDraft)
				// A second C-s stashes it again.
				stash(s)
				return s.err
			}},
		// A two-line draft (ctrl+j) is stashed and restored whole.
		&Scenario{Name: "stash-multiline", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: userScript("claude"),
			Drive: func(d *Driver) error {
				s := &sticky{d: d}
				s.claudeIdle()
				s.typ("first line of the draft")
				s.screen("❯ first line of the draft")
				s.typ(ctrlJ)
				s.typ("second line of the draft")
				s.screen("❯ first line of the draft", "  second line of the draft")
				s.mark("idle", idleDraft)
				s.typ(claudeStashKey)
				s.gone("line of the draft")
				s.screen("❯", claudeIdleFooter)
				s.mark("idle", idleEmpty)
				s.typ(requestText)
				s.screen("❯ " + requestText)
				s.key("Enter")
				s.request("prompt", nil)
				s.claudeTurns(1)
				s.screen("❯ first line of the draft", "  second line of the draft", "Hello! I am the fake model")
				s.gone(claudeBusyFooter)
				s.mark("idle", idleDraft)
				return s.err
			}},
		stashWorking(stash),
	)
}

// Codex.
func init() {
	codexDraft := func(s *sticky, text string) {
		s.codexIdle()
		s.typ(text)
		s.screen("› " + text)
		s.pause(codexEnterGap)
		s.mark("idle", idleDraft)
	}
	register(
		&Scenario{Name: "clear-draft", Agent: "codex", Only: []string{"0.155.1", "0.171.0"}, Script: userScript("codex"),
			Drive: func(d *Driver) error {
				s := &sticky{d: d}
				codexDraft(s, draftText)
				s.typ(ctrlU)
				s.gone(draftText)
				s.mark("idle", idleEmpty)
				s.codexPrompt(requestText)
				s.request("prompt", nil)
				s.codexTurnEnd(false)
				s.markIdle()
				return s.err
			}},
		// C-u with the cursor inside the draft deletes only what is before
		// the cursor.
		&Scenario{Name: "clear-cursor-mid", Agent: "codex", Only: []string{"0.155.1", "0.171.0"}, Script: userScript("codex"),
			Drive: func(d *Driver) error {
				s := &sticky{d: d}
				codexDraft(s, "remove these words tail")
				for range 4 {
					s.key("Left")
				}
				s.pause(codexEnterGap)
				s.typ(ctrlU)
				s.gone("remove these words")
				s.screen("› tail")
				s.mark("idle", idleDraft)
				return s.err
			}},
		// A two-line draft (ctrl+j); C-u on the last line, and again.
		&Scenario{Name: "clear-multiline", Agent: "codex", Only: []string{"0.155.1", "0.171.0"}, Script: userScript("codex"),
			Drive: func(d *Driver) error {
				s := &sticky{d: d}
				s.codexIdle()
				s.typ("first line of the draft")
				s.screen("› first line of the draft")
				s.pause(codexEnterGap)
				s.typ(ctrlJ)
				s.typ("second line of the draft")
				s.screen("› first line of the draft", "  second line of the draft")
				s.pause(codexEnterGap)
				s.mark("idle", idleDraft)
				// The first C-u empties the last line (the line stays), the
				// second deletes the line break, the third the first line.
				s.typ(ctrlU)
				s.gone("second line of the draft")
				s.screen("› first line of the draft")
				s.userMisread("screen_state unknown, composer absent (an empty last line under the first)",
					"idle", idleDraft, s.mark)
				s.typ(ctrlU)
				s.pause(codexEnterGap)
				s.mark("idle", idleDraft)
				s.typ(ctrlU)
				s.gone("first line of the draft")
				s.mark("idle", idleEmpty)
				return s.err
			}},
		sendWorking(),
	)
}

// A draft typed while the agent works, C-s, a request and Enter.
func stashWorking(stash func(*sticky)) *Scenario {
	return &Scenario{Name: "stash-working", Agent: "claude", Only: []string{"2.1.267", "2.1.332"}, Script: userScript("claude"),
		Drive: func(d *Driver) error {
			s := &sticky{d: d}
			s.claudeIdle()
			s.claudePrompt("slow-task please")
			s.started("slow-task")
			s.screen(claudeBusyFooter)
			s.typ(draftText)
			s.claudeWorking("❯ " + draftText)
			s.pause(time.Second)
			s.markNow("working", workingDraft)
			s.typ(claudeStashKey)
			s.gone(draftText)
			s.pause(time.Second)
			s.markNow("working", workingEmpty)
			s.typ(requestText)
			s.claudeWorking("❯ " + requestText)
			s.key("Enter")
			// The request waits under the spinner row as "  ❯ hello
			// there" and the draft is back in the composer at once.
			s.claudeComposer(draftText)
			s.claudeWorking(claudeQueued(d.Version, requestText))
			s.pause(time.Second)
			markNow := func(state string, e recordings.MarkerState) { s.markNow(state, e) }
			// Working: 2.1.267 shows the queued prompt ("  ❯ hello there"
			// on a box) between the spinner and the composer.
			markNow("working", workingDraft)
			// The slow reply, then the queued request as the next turn;
			// the draft stays.
			s.claudeTurns(2)
			s.screen(userSlow, "Hello! I am the fake model")
			s.claudeComposer(draftText)
			s.mark("idle", idleDraft)
			return s.err
		}}
}

// While the turn runs: a draft cleared with C-u, a request with Tab
// (queued for the next turn), another with Enter (steered into the
// running turn).
func sendWorking() *Scenario {
	return &Scenario{Name: "send-working", Agent: "codex", Only: []string{"0.155.1", "0.171.0"}, Script: userScript("codex"),
		Drive: func(d *Driver) error {
			s := &sticky{d: d}
			s.codexIdle()
			s.codexPrompt("slow-task please")
			s.started("slow-task")
			s.journal("task_started", rolloutHas("event_msg", "task_started"))
			s.screen(codexBusy)
			s.mark("working", workingEmpty)
			s.typ(draftText)
			s.screen("› "+draftText, codexBusy)
			// The status line gives way to "tab to queue message".
			s.userMisread("screen_state unknown, composer absent (the footer row reads \"tab to queue message\")",
				"working", workingDraft, s.mark)
			s.typ(ctrlU)
			s.gone(draftText)
			s.mark("working", workingEmpty)
			// Tab queues for the next turn.
			s.typ("queued request")
			s.screen("› queued request", codexBusy)
			s.pause(codexEnterGap)
			s.key("Tab")
			s.screen("Queued follow-up inputs", "↳ queued request", codexBusy)
			// Working (0.171.0's hint under the queued inputs reads
			// "shift+← edit last queued message").
			s.mark("working", workingEmpty)
			// Enter steers into the running turn.
			s.typ(requestText)
			s.screen("› "+requestText, codexBusy)
			s.pause(codexEnterGap)
			s.key("Enter")
			if versionAtLeast(d.Version, "0.171.0") {
				// The steer block is drawn for ~30 ms: the held-back model
				// request is dropped and a new one made with the steered
				// message; its reply ends the turn.
				s.journal("steered message", rolloutHas("response_item", "message", `"text":"`+requestText+`"`))
			} else {
				s.screen(codexSteerHeader, "↳ "+requestText, "↳ queued request", codexBusy)
				s.mark("working", workingEmpty)
			}
			s.journal("second task_complete", nthLine(d, 2, rolloutHas("event_msg", "task_complete")))
			s.do(func() error { return codexCheckSteerQueue(d.journal, requestText, "queued request") })
			s.codexIdle()
			s.markIdle()
			return s.err
		}}
}
