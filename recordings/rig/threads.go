package rig

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/recordings"
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

const (
	threadFirst  = "first-thread please"
	threadSecond = "second-thread please"
	threadAfter  = "hello after resume" // answered by the corpus scripts' "hello"
)

var threadVersions = map[string][]string{
	"claude": {"2.1.267", "2.1.332"},
	"codex":  {"0.155.1", "0.171.0"},
}

// threadScript is the agent's corpus script with two replies that say
// which conversation answers.
func threadScript(agent string) func(string) fakemodel.Script {
	return func(version string) fakemodel.Script {
		s := Script(agent, version)
		s.Keywords = append([]fakemodel.Keyword{
			{Word: "first-thread", Reply: fakemodel.Reply{Text: "This is the first conversation."}},
			{Word: "second-thread", Reply: fakemodel.Reply{Text: "This is the second conversation."}},
		}, s.Keywords...)
		return s
	}
}

// threadAgent is what the thread scenarios need of one agent: its
// commands, how it waits for its idle composer and submits a prompt,
// and the anchors of the screens the commands lead to.
type threadAgent struct {
	newCmd, newHint string // the command and its completion row's text
	resumeHint      string
	composer        string // the composer's prompt glyph and space
	idle            func(*sticky)
	prompt          func(*sticky, string)
	// afterNew waits for the screen after Enter on newCmd, before the
	// idle composer (the earlier conversation is gone).
	afterNew func(s *sticky)
	// picker waits for the resume picker with the first conversation in
	// it; choose highlights and resumes it, with a marker on each
	// screen of the picker.
	picker func(s *sticky)
	choose func(s *sticky)
}

var threadAgents = map[string]threadAgent{
	"claude": {
		newCmd: "/clear", newHint: "Start a new session with empty context", resumeHint: "Resume a previous",
		composer: "❯ ", idle: (*sticky).claudeIdle, prompt: (*sticky).claudePrompt,
		afterNew: func(s *sticky) {
			s.gone("This is the first conversation.")
			// The new transcript starts with the /clear command.
			s.threadJournal("the new transcript", func(path string) bool {
				return strings.Contains(readFile(path), "<command-name>/clear</command-name>")
			})
		},
		picker: func(s *sticky) {
			title := "Fake session" // 2.1.267: the AI title (the fake model's title reply)
			if versionAtLeast(s.d.Version, "2.1.332") {
				title = threadFirst // its first prompt
			}
			s.screen("Resume session", "Search…", "❯ "+title, " ago · ", "Esc to c")
			// One session: the current conversation is not listed.
			s.do(func() error {
				if n := strings.Count(s.d.rec.ScreenText(), " ago · "); n != 1 {
					return fmt.Errorf("rig: the picker lists %d sessions, want the first conversation alone:\n%s", n, s.d.rec.ScreenText())
				}
				return nil
			})
			s.mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
		},
		choose: func(s *sticky) { s.key("Enter") },
	},
	"codex": {
		newCmd: "/new", newHint: "start a new chat during a conversation", resumeHint: "resume a saved chat",
		composer: "› ", idle: (*sticky).codexIdle, prompt: (*sticky).codexPrompt,
		afterNew: func(s *sticky) {
			// The status line drops 0.171.0's thread title too.
			s.gone(threadFirst)
			if !versionAtLeast(s.d.Version, "0.171.0") {
				s.screen("To continue this session, run codex resume ")
			}
		},
		picker: func(s *sticky) {
			// Both threads, the current one first and highlighted
			// (0.155.1 "❯", 0.171.0 "›").
			s.screen("Resume a previous session", "Type to search", threadSecond, threadFirst, "1 / 2", "enter resume")
			s.mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
		},
		choose: func(s *sticky) {
			s.key("Down")
			s.screen("2 / 2")
			s.screenFunc("the first conversation highlighted", func(text string) bool {
				for _, l := range strings.Split(text, "\n") {
					if strings.Contains(l, threadFirst) {
						l = strings.TrimSpace(l)
						return strings.HasPrefix(l, "❯") || strings.HasPrefix(l, "›")
					}
				}
				return false
			})
			s.mark("menu_or_viewer", recordings.MarkerState{Composer: "absent"})
			s.key("Enter")
		},
	},
}

// turnEnd holds for a transcript's or rollout's line that ends a turn.
func turnEnd(agent string) func(map[string]any) bool {
	if agent == "codex" {
		return rolloutHas("event_msg", "task_complete")
	}
	return func(m map[string]any) bool { return m["type"] == "system" && m["subtype"] == "turn_duration" }
}

// promptLine holds for the line of a submitted prompt.
func promptLine(agent, prompt string) func(map[string]any) bool {
	if agent == "codex" {
		return rolloutHas("response_item", "message", `"text":"`+prompt+`"`)
	}
	return func(m map[string]any) bool { return m["type"] == "user" && strings.Contains(jsonString(m), prompt) }
}

// journals lists the run's transcripts or rollouts.
func journals(agent, home string) []string {
	pattern := filepath.Join(home, ".claude", "projects", "*", "*.jsonl")
	if agent == "codex" {
		pattern = filepath.Join(home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl")
	}
	ms, _ := filepath.Glob(pattern)
	return ms
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// threadJournal waits until one of the run's journals satisfies ok and
// returns its path ("" after an error).
func (s *sticky) threadJournal(desc string, ok func(path string) bool) string {
	var found string
	s.do(func() error {
		return s.d.wait("journal: "+desc, func(ctx context.Context) error {
			for {
				for _, p := range journals(s.d.Agent, s.d.Home.Home) {
					if ok(p) {
						found = p
						return nil
					}
				}
				select {
				case <-ctx.Done():
					return context.Cause(ctx)
				case <-time.After(100 * time.Millisecond):
				}
			}
		})
	})
	return found
}

// threadTurns waits for the journal that holds prompt and at least n
// turn ends, and returns its path.
func (s *sticky) threadTurns(prompt string, n int) string {
	return s.threadJournal(fmt.Sprintf("%q and %d turn ends", prompt, n), func(p string) bool {
		return countLines(p, promptLine(s.d.Agent, prompt)) > 0 && countLines(p, turnEnd(s.d.Agent)) >= n
	})
}

// ask submits prompt at the idle composer and waits for its turn's end
// in the conversation's journal (the one holding first, after n-1 earlier
// turn ends) and for the idle composer again, which it marks.
func (s *sticky) ask(a threadAgent, prompt, first string, n int) string {
	a.idle(s)
	a.prompt(s, prompt)
	s.request("prompt "+prompt, nil)
	path := s.threadJournal(fmt.Sprintf("%q answered after %q", prompt, first), func(p string) bool {
		return countLines(p, promptLine(s.d.Agent, first)) > 0 && countLines(p, promptLine(s.d.Agent, prompt)) > 0 &&
			countLines(p, turnEnd(s.d.Agent)) >= n
	})
	a.idle(s)
	s.mark("idle", idleEmpty)
	return path
}

// slash types a slash command into the idle composer and marks the
// composer with the command and its completion row (idle, draft).
func (s *sticky) slash(a threadAgent, cmd, hint string) {
	a.idle(s)
	s.typ(cmd)
	s.screen(a.composer+cmd, hint)
	if s.d.Agent == "claude" {
		s.claudeComposer(cmd)
		s.gone(claudeIdleFooter)
	}
	s.pause(codexEnterGap) // Codex: out of the paste-burst window
	s.mark("idle", idleDraft)
}

// newThread runs the new-conversation command from an answered
// conversation and marks the fresh idle composer.
func (s *sticky) newThread(a threadAgent) {
	s.slash(a, a.newCmd, a.newHint)
	s.key("Enter")
	// No confirmation on any version: the new conversation's composer.
	a.afterNew(s)
	a.idle(s)
	s.mark("idle", idleEmpty)
}

func threadNew(agent string) *Scenario {
	a := threadAgents[agent]
	return &Scenario{Name: "thread-new", Agent: agent, Only: threadVersions[agent], Script: threadScript(agent),
		Drive: func(d *Driver) error {
			s := &sticky{d: d}
			first := s.ask(a, threadFirst, threadFirst, 1)
			s.newThread(a)
			s.do(func() error {
				d.lg.Info("rig: threads", "first", threadID(first), "newest journal", threadID(findJournal(agent, d.Home.Home)))
				return nil
			})
			return s.err
		}}
}

func threadResume(agent string) *Scenario {
	a := threadAgents[agent]
	return &Scenario{Name: "thread-resume", Agent: agent, Only: threadVersions[agent], Script: threadScript(agent),
		Drive: func(d *Driver) error {
			s := &sticky{d: d}
			first := s.ask(a, threadFirst, threadFirst, 1)
			s.newThread(a)
			second := s.ask(a, threadSecond, threadSecond, 1)
			s.do(func() error {
				if first == second {
					return fmt.Errorf("rig: both conversations in %s", first)
				}
				return nil
			})
			before := []byte(readFile(first))
			s.slash(a, "/resume", a.resumeHint)
			s.key("Enter")
			a.picker(s)
			a.choose(s)
			// The first conversation's history, and nothing of the second.
			s.screen(a.composer+threadFirst, "This is the first conversation.")
			s.gone(threadSecond, "This is the second conversation.")
			a.idle(s)
			s.mark("idle", idleEmpty)
			// A prompt in the resumed conversation lands in its own
			// journal, appended to, after the first turn.
			again := s.ask(a, threadAfter, threadFirst, 2)
			s.do(func() error {
				after := []byte(readFile(first))
				switch {
				case again != first:
					return fmt.Errorf("rig: the resumed conversation went on in %s, not %s", again, first)
				case !bytes.HasPrefix(after, before):
					return fmt.Errorf("rig: %s was rewritten at the resume (%d bytes before, %d after)", first, len(before), len(after))
				}
				d.lg.Info("rig: threads", "first (resumed)", threadID(first), "second", threadID(second))
				return nil
			})
			return s.err
		}}
}

// threadID is the conversation id of a journal path: Claude's transcript
// is <sessionId>.jsonl, Codex's rollout rollout-<time>-<id>.jsonl.
func threadID(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if strings.HasPrefix(base, "rollout-") && len(base) >= 36 {
		return base[len(base)-36:]
	}
	return base
}

func init() {
	for _, agent := range []string{"claude", "codex"} {
		register(threadNew(agent), threadResume(agent))
	}
}
