package rig

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// Native thread transitions (issue 21): a person starts a new
// conversation, or resumes an earlier one, in the agent's own pane with
// its own slash commands. thread-new answers a first prompt, then types
// the new-conversation command (Claude Code /clear, Codex /new) and Enter;
// thread-resume does that, answers a prompt in the new conversation,
// types /resume, picks the first conversation in the picker and asks one
// more prompt there, which shows where the resumed conversation is written.
//
// What the agents really do (Claude Code 2.1.267 and 2.1.332, Codex
// 0.155.1 and 0.171.0), measured with these scenarios:
//
//   - The slash command typed into the composer opens the composer's
//     completion list (Claude above the composer: "/clear  Start a new
//     session with empty context; previous session stays on disk
//     (resumable with /resume)", 2.1.332 "❯ /clear  Start a new session
//     with empty context; loops carry over, and the old one stays in
//     /resume" with other commands under it; Codex under the composer,
//     0.171.0 above it: "/new  start a new chat during a conversation",
//     "/resume  resume a saved chat"). It is marked idle with a draft: the
//     composer keeps the input (typed text goes on into it and filters the
//     list), the agent waits for the person, and the text is a draft a
//     send must not type over. The list is no separate modal: it only
//     decides what Enter runs (the highlighted command, here the typed one).
//     Claude's footer drops "? for shortcuts" as for any draft; Codex's
//     list takes the status line's place (0.155.1) or sits above the
//     composer (0.171.0).
//   - No version asks for a confirmation: Enter on /clear or /new goes
//     straight to an empty idle composer with the history gone (Claude
//     keeps a "❯ /clear" row; Codex 0.155.1 prints "Token usage: ..." and
//     "To continue this session, run codex resume <old id>"; 0.171.0
//     redraws its start screen and drops the thread title from the status
//     line).
//   - Claude writes the new conversation's transcript at /clear (a new
//     sessionId; its first lines are the /clear command as a local
//     command); Codex allocates the new thread at /new but writes its
//     rollout only at the new conversation's first prompt (the rollout's
//     name carries the time of /new).
//   - The picker: Claude draws "Resume session" under the transcript, a
//     search box and the project's sessions, the current one left out:
//     here only the first conversation, highlighted, titled by its AI
//     title (2.1.267: "Fake session", the fake model's title reply) or its
//     first prompt (2.1.332), over "N seconds ago · HEAD · <size>"; Enter
//     resumes it. Codex takes the whole screen: "Resume a previous
//     session", Filter Cwd/All, Status Active/Archived, Sort
//     Updated/Created, every thread of the directory with the current one
//     included and highlighted first ("8s ago  second-thread please",
//     "16s ago  first-thread please": age and first prompt), "1 / 2";
//     Down highlights the first conversation, Enter resumes it. The
//     picker owns every key (typing searches): menu_or_viewer, composer
//     absent.
//   - The resumed conversation goes on in its own file: Claude the same
//     sessionId and transcript, appended to (the bytes before /resume
//     stay its prefix; bookkeeping lines, last-prompt and cost-state,
//     2.1.332 also mode, permission-mode and atis-latch, come between the
//     two turns); Codex the same rollout id and file (a
//     thread_settings_applied line leads the next turn; 0.155.1 writes
//     one at the resume too). The next request to the model carries the
//     earlier turns. In Claude's new conversation the assistant and
//     attachment lines' "session_id" still names the previous
//     conversation; "sessionId" (and the file name) is the new one.
//
// The rig keeps one journal per recording, the newest: thread-new keeps
// Claude's new (post-/clear) transcript, which holds only the /clear
// command, and Codex's first rollout (the new one is not written yet);
// thread-resume keeps the resumed (first) conversation's journal, with
// its follow-up turn. The other conversation's id is in the run's log
// ("rig: threads" lines; the corpus note names those of the recordings)
// and, on Codex 0.155.1, on the screen ("codex resume <id>").

// The prompts of the thread scenarios.
const (
	ThreadFirst  = "first-thread please"
	ThreadSecond = "second-thread please"
	ThreadAfter  = "hello after resume" // answered by the corpus scripts' "hello"
)

// PasteGap is the pause after typed text before a key that must not be
// read as part of it: an agent may take an Enter within ~120 ms of typed
// text as a newline (paste-burst detection).
const PasteGap = 400 * time.Millisecond

// Threads is what the thread scenarios need of one agent: its commands,
// its composer (Composer: the idle wait, the prompt), how its journal
// records a prompt and a turn's end, and the anchors of the screens the
// commands lead to.
type Threads struct {
	Composer
	Versions        []string // the versions recorded
	NewCmd, NewHint string   // the command and its completion row's text
	ResumeHint      string   // the completion row's text of /resume
	Glyph           string   // the composer's prompt glyph and space
	// Placeholder is the empty composer's row ("": blank).
	Placeholder string
	// Script is the agent's corpus script.
	Script func(version string) fakemodel.Script
	// PromptLine holds for the journal line of a submitted prompt;
	// TurnEnd for a line that ends a turn; ID is a journal's conversation
	// id (from its path).
	PromptLine func(prompt string) func(map[string]any) bool
	TurnEnd    func(map[string]any) bool
	ID         func(path string) string
	// SlashShown waits for what the agent shows of a typed slash command
	// besides its row and completion (nil: nothing); DraftShown what it
	// shows under a draft after "/resume " (its footer, its status line).
	SlashShown func(s *Steps, cmd string)
	DraftShown func(s *Steps)
	// ArgHint is the argument hint the agent draws after "/resume " on
	// the composer row at version ("": none).
	ArgHint func(version string) string
	// AfterNew waits for the screen after Enter on NewCmd, before the
	// idle composer (the earlier conversation is gone).
	AfterNew func(s *Steps)
	// Picker waits for the resume picker with the first conversation in
	// it; Choose highlights and resumes it, with a marker on each screen
	// of the picker.
	Picker func(s *Steps)
	Choose func(s *Steps)
	// ResumedNote waits for what the screen says of the conversation
	// left (its id: second) after a direct resume (nil: nothing).
	ResumedNote func(s *Steps, second string)
}

// Scenarios are the thread scenarios of agent: thread-new, thread-resume,
// thread-resume-id.
func (t Threads) Scenarios(agent string) []*Scenario {
	script := WithKeywords(t.Script,
		fakemodel.Keyword{Word: "first-thread", Reply: fakemodel.Reply{Text: "This is the first conversation."}},
		fakemodel.Keyword{Word: "second-thread", Reply: fakemodel.Reply{Text: "This is the second conversation."}})
	sc := func(name string, drive func(*Steps)) *Scenario {
		return &Scenario{Name: name, Agent: agent, Only: t.Versions, Script: script, Drive: drive}
	}
	return []*Scenario{sc("thread-new", t.threadNew), sc("thread-resume", t.threadResume), sc("thread-resume-id", t.threadResumeID)}
}

// ReadFile is a file's content, "" when it cannot be read.
func ReadFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// JournalFile waits until one of the agent's journals satisfies ok and
// returns its path ("" after an error).
func (s *Steps) JournalFile(desc string, ok func(path string) bool) string {
	var found string
	s.Do(func() error {
		return s.d.Until("journal: "+desc, 100*time.Millisecond, func(context.Context) bool {
			for _, p := range s.d.Journals() {
				if ok(p) {
					found = p
					return true
				}
			}
			return false
		})
	})
	return found
}

// Ask submits prompt at the idle composer and waits for its turn's end
// in the conversation's journal (the one holding first, after n-1 earlier
// turn ends) and for the idle composer again, which it marks; it returns
// the journal's path.
func (t Threads) Ask(s *Steps, prompt, first string, n int) string {
	t.Idle(s)
	t.Prompt(s, prompt)
	s.Request("prompt "+prompt, nil)
	path := s.JournalFile(fmt.Sprintf("%q answered after %q", prompt, first), func(p string) bool {
		return CountLines(p, t.PromptLine(first)) > 0 && CountLines(p, t.PromptLine(prompt)) > 0 &&
			CountLines(p, t.TurnEnd) >= n
	})
	t.Idle(s)
	s.Mark("idle", ComposerEmpty)
	return path
}

// Slash types a slash command into the idle composer and marks the
// composer with the command and its completion row (idle, draft).
func (t Threads) Slash(s *Steps, cmd, hint string) {
	t.Idle(s)
	s.Type(cmd)
	s.Screen(t.Glyph+cmd, hint)
	if t.SlashShown != nil {
		t.SlashShown(s, cmd)
	}
	s.Pause(PasteGap)
	s.Mark("idle", ComposerDraft)
}

// NewThread runs the new-conversation command from an answered
// conversation and marks the fresh idle composer.
func (t Threads) NewThread(s *Steps) {
	t.Slash(s, t.NewCmd, t.NewHint)
	s.Key("Enter")
	// No confirmation on any version: the new conversation's composer.
	t.AfterNew(s)
	t.Idle(s)
	s.Mark("idle", ComposerEmpty)
}

// ComposerRow waits until the composer row (the last row that starts
// with the composer's glyph: the history above repeats prompts with it)
// reads exactly text, spaces at its end trimmed.
func (t Threads) ComposerRow(s *Steps, text string) {
	glyph := strings.TrimSpace(t.Glyph)
	s.ScreenFunc(fmt.Sprintf("composer row %q", text), func(screen string) bool {
		last, ok := "", false
		for _, l := range strings.Split(screen, "\n") {
			if strings.HasPrefix(l, glyph) {
				last, ok = strings.TrimRight(strings.TrimPrefix(l, glyph), " "), true
			}
		}
		return ok && last == strings.TrimRight(" "+text, " ")
	})
}

// twoConversations answers a first prompt, starts a new conversation and
// answers a prompt there; it returns both journals.
func (t Threads) twoConversations(s *Steps) (first, second string) {
	first = t.Ask(s, ThreadFirst, ThreadFirst, 1)
	t.NewThread(s)
	second = t.Ask(s, ThreadSecond, ThreadSecond, 1)
	s.Do(func() error {
		if first == second {
			return fmt.Errorf("rig: both conversations in %s", first)
		}
		return nil
	})
	return first, second
}

func (t Threads) threadNew(s *Steps) {
	first := t.Ask(s, ThreadFirst, ThreadFirst, 1)
	t.NewThread(s)
	s.Log("rig: threads", "first", t.ID(first), "newest journal", t.ID(s.d.NewestJournal()))
}

func (t Threads) threadResume(s *Steps) {
	first, second := t.twoConversations(s)
	before := []byte(ReadFile(first))
	t.Slash(s, "/resume", t.ResumeHint)
	s.Key("Enter")
	t.Picker(s)
	t.Choose(s)
	// The first conversation's history, and nothing of the second.
	s.Screen(t.Glyph+ThreadFirst, "This is the first conversation.")
	s.Gone(ThreadSecond, "This is the second conversation.")
	t.Idle(s)
	s.Mark("idle", ComposerEmpty)
	// A prompt in the resumed conversation lands in its own
	// journal, appended to, after the first turn.
	again := t.Ask(s, ThreadAfter, ThreadFirst, 2)
	s.Do(func() error {
		after := []byte(ReadFile(first))
		switch {
		case again != first:
			return fmt.Errorf("rig: the resumed conversation went on in %s, not %s", again, first)
		case !bytes.HasPrefix(after, before):
			return fmt.Errorf("rig: %s was rewritten at the resume (%d bytes before, %d after)", first, len(before), len(after))
		}
		s.d.lg.Info("rig: threads", "first (resumed)", t.ID(first), "second", t.ID(second))
		return nil
	})
}
