package rig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/fakemodel"
)

// thread-resume-id (issue 21): resuming an earlier conversation by its
// full id on the composer line, "/resume <id>", without the picker. As
// thread-resume, it answers a first prompt, starts a new conversation
// (/clear, /new) and answers a prompt there; then it types "/resume "
// and, as a second input, the first conversation's full id (Claude: its
// sessionId, the transcript's file name; Codex: its rollout's id), and
// Enter.
//
// What the agents really do (Claude Code 2.1.267 and 2.1.332, Codex
// 0.155.1 and 0.171.0), measured with this scenario:
//
//   - "/resume " (with the space, typed at once) shows no completion
//     list on any version: the list that "/resume" alone opens
//     (thread-resume) is not drawn. Claude draws an argument hint in grey (colour 246) on the
//     composer row, "❯ /resume  [conversation id or search term]"
//     (2.1.267) or "❯ /resume  [session ID or search term]" (2.1.332),
//     the cursor after the space, and its footer drops "? for
//     shortcuts" as for any draft; Codex's composer reads "› /resume"
//     over its status line, no hint. Marked idle with a draft.
//   - With the id typed the row is just "/resume <id>" (Claude's hint
//     gone), still no list: idle with a draft.
//   - Enter resumes the conversation directly on every version: no
//     picker, no confirmation, no error. Claude shows for a few dozen
//     milliseconds the "❯ /resume <id>" row under the history with a
//     spinner row (a random verb: "· Unravelling…") and "esc to interrupt", then the
//     first conversation's history over an empty idle composer (the
//     idle footer back, no "/resume" row). Codex clears the screen and
//     draws the first conversation's history over an empty idle
//     composer; 0.155.1 prints "Token usage: ..." and "To continue this
//     session, run codex resume <the second conversation's id>" above
//     it, 0.171.0 puts the first prompt back as the status line's
//     thread title. Marked idle, empty (the transient frame is too short
//     to mark).
//   - The resumed conversation is written where thread-resume's is: the
//     first conversation's own transcript or rollout, same id, appended
//     to (the bytes before Enter stay its prefix), no new journal; the
//     next request to the model carries the first conversation's turn
//     and none of the second's. The resume itself appends a last-prompt
//     line (Claude), a thread_settings_applied line (Codex 0.155.1) or
//     nothing (0.171.0) before the next turn.
//
// The rig keeps the newest journal: the resumed (first) conversation's,
// with its follow-up turn. The run's log names both ids ("rig: threads")
// and the record types the resume itself appended ("rig: resume wrote").

// resumeArgHint is the argument hint Claude draws after "/resume " on the
// composer row ("": none, Codex).
func resumeArgHint(agent, version string) string {
	switch {
	case agent != "claude":
		return ""
	case versionAtLeast(version, "2.1.332"):
		return "[session ID or search term]"
	}
	return "[conversation id or search term]"
}

// composerRow waits until the composer row (the last row that starts with
// the composer's glyph: the history above repeats prompts with it) reads
// exactly text, spaces at its end trimmed.
func (s *sticky) composerRow(a threadAgent, text string) {
	glyph := strings.TrimSpace(a.composer)
	s.screenFunc(fmt.Sprintf("composer row %q", text), func(screen string) bool {
		last, ok := "", false
		for _, l := range strings.Split(screen, "\n") {
			if strings.HasPrefix(l, glyph) {
				last, ok = strings.TrimRight(strings.TrimPrefix(l, glyph), " "), true
			}
		}
		return ok && last == strings.TrimRight(" "+text, " ")
	})
}

// resumeDraft types text into the composer after what is there and marks
// the composer holding want: its row, no completion list (the row of
// "/resume" alone), Claude's footer without its idle hint, Codex's status
// line in place.
func (s *sticky) resumeDraft(a threadAgent, text, want string) {
	s.typ(text)
	s.composerRow(a, want)
	s.gone(a.resumeHint)
	if s.d.Agent == "claude" {
		s.gone(claudeIdleFooter)
	} else {
		s.screen(codexStatus)
	}
	s.pause(codexEnterGap) // Codex: out of the paste-burst window
	s.mark("idle", idleDraft)
}

// lineTypes names a journal's lines: "type", or "type/payload type" for
// a Codex rollout line.
func lineTypes(b []byte) []string {
	var out []string
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var m map[string]any
		if len(l) == 0 || json.Unmarshal(l, &m) != nil {
			continue
		}
		t, _ := m["type"].(string)
		if p, ok := m["payload"].(map[string]any); ok {
			if pt, ok := p["type"].(string); ok {
				t += "/" + pt
			}
		}
		out = append(out, t)
	}
	return out
}

func threadResumeID(agent string) *Scenario {
	a := threadAgents[agent]
	return &Scenario{Name: "thread-resume-id", Agent: agent, Only: threadVersions[agent], Script: threadScript(agent),
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
			id := threadID(first)
			a.idle(s)
			hint := resumeArgHint(agent, d.Version)
			s.resumeDraft(a, "/resume ", strings.TrimSpace("/resume  "+hint))
			s.resumeDraft(a, id, "/resume "+id)
			before := []byte(readFile(first))
			s.key("Enter")
			// A direct resume: the first conversation's history over the
			// idle composer, no picker and nothing of the second.
			s.screen(a.composer+threadFirst, "This is the first conversation.")
			s.gone(threadSecond, "This is the second conversation.", "/resume "+id, "Resume session", "Resume a previous session")
			if agent == "codex" && !versionAtLeast(d.Version, "0.171.0") {
				s.screen("To continue this session, run codex resume " + threadID(second))
			}
			a.idle(s)
			s.composerRow(a, map[string]string{"claude": "", "codex": "Ask Codex to do anything"}[agent])
			s.mark("idle", idleEmpty)
			s.do(func() error {
				after := []byte(readFile(first))
				switch js := journals(agent, d.Home.Home); {
				case len(js) != 2:
					return fmt.Errorf("rig: %d journals after the resume, want the two conversations': %v", len(js), js)
				case !bytes.HasPrefix(after, before):
					return fmt.Errorf("rig: %s was rewritten at the resume", first)
				default:
					d.lg.Info("rig: resume wrote", "journal", threadID(first), "records", lineTypes(after[len(before):]))
				}
				return nil
			})
			// A prompt in the resumed conversation lands in its own
			// journal, appended to, after the first turn; the model is
			// asked with the first conversation's turn.
			again := s.ask(a, threadAfter, threadFirst, 2)
			s.do(func() error {
				after := []byte(readFile(first))
				switch {
				case again != first:
					return fmt.Errorf("rig: the resumed conversation went on in %s, not %s", again, first)
				case !bytes.HasPrefix(after, before):
					return fmt.Errorf("rig: %s was rewritten (%d bytes before the resume, %d after)", first, len(before), len(after))
				case len(journals(agent, d.Home.Home)) != 2:
					return fmt.Errorf("rig: a new journal after the resume: %v", journals(agent, d.Home.Home))
				}
				return resumedRequest(d.Log.Requests())
			})
			s.do(func() error {
				d.lg.Info("rig: threads", "first (resumed by id)", id, "second", threadID(second))
				return nil
			})
			return s.err
		}}
}

// resumedRequest checks the model request of the prompt asked after the
// resume: it carries the first conversation and nothing of the second.
func resumedRequest(reqs []fakemodel.Request) error {
	for i := len(reqs) - 1; i >= 0; i-- {
		r := reqs[i]
		if !fakemodel.Main(r) || !strings.Contains(r.Prompt, threadAfter) {
			continue
		}
		body := string(r.Body)
		if !strings.Contains(body, threadFirst) || !strings.Contains(body, "This is the first conversation.") ||
			strings.Contains(body, threadSecond) {
			return fmt.Errorf("rig: the request after the resume does not carry the first conversation alone: %.2000s", body)
		}
		return nil
	}
	return fmt.Errorf("rig: no model request for %q", threadAfter)
}

func init() {
	for _, agent := range []string{"claude", "codex"} {
		register(threadResumeID(agent))
	}
}
