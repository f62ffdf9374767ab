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

// resumeDraft types text into the composer after what is there and marks
// the composer holding want: its row, no completion list (the row of
// "/resume" alone), what the agent shows under a draft (DraftShown).
func (t Threads) resumeDraft(s *Steps, text, want string) {
	s.Type(text)
	t.ComposerRow(s, want)
	s.Gone(t.ResumeHint)
	t.DraftShown(s)
	s.Pause(PasteGap)
	s.Mark("idle", ComposerDraft)
}

// lineTypes names a journal's lines: "type", or "type/payload type" for
// a line with a typed payload.
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

func (t Threads) threadResumeID(s *Steps) {
	d := s.d
	first, second := t.twoConversations(s)
	id := t.ID(first)
	t.Idle(s)
	hint := t.ArgHint(d.Version)
	t.resumeDraft(s, "/resume ", strings.TrimSpace("/resume  "+hint))
	t.resumeDraft(s, id, "/resume "+id)
	before := []byte(ReadFile(first))
	s.Key("Enter")
	// A direct resume: the first conversation's history over the
	// idle composer, no picker and nothing of the second.
	s.Screen(t.Glyph+ThreadFirst, "This is the first conversation.")
	s.Gone(ThreadSecond, "This is the second conversation.", "/resume "+id, "Resume session", "Resume a previous session")
	if t.ResumedNote != nil {
		t.ResumedNote(s, t.ID(second))
	}
	t.Idle(s)
	t.ComposerRow(s, t.Placeholder)
	s.Mark("idle", ComposerEmpty)
	s.Do(func() error {
		after := []byte(ReadFile(first))
		switch js := d.Journals(); {
		case len(js) != 2:
			return fmt.Errorf("rig: %d journals after the resume, want the two conversations': %v", len(js), js)
		case !bytes.HasPrefix(after, before):
			return fmt.Errorf("rig: %s was rewritten at the resume", first)
		default:
			d.lg.Info("rig: resume wrote", "journal", t.ID(first), "records", lineTypes(after[len(before):]))
		}
		return nil
	})
	// A prompt in the resumed conversation lands in its own
	// journal, appended to, after the first turn; the model is
	// asked with the first conversation's turn.
	again := t.Ask(s, ThreadAfter, ThreadFirst, 2)
	s.Do(func() error {
		after := []byte(ReadFile(first))
		switch {
		case again != first:
			return fmt.Errorf("rig: the resumed conversation went on in %s, not %s", again, first)
		case !bytes.HasPrefix(after, before):
			return fmt.Errorf("rig: %s was rewritten (%d bytes before the resume, %d after)", first, len(before), len(after))
		case len(d.Journals()) != 2:
			return fmt.Errorf("rig: a new journal after the resume: %v", d.Journals())
		}
		return resumedRequest(d.Log.Requests())
	})
	s.Log("rig: threads", "first (resumed by id)", id, "second", t.ID(second))
}

// resumedRequest checks the model request of the prompt asked after the
// resume: it carries the first conversation and nothing of the second.
func resumedRequest(reqs []fakemodel.Request) error {
	for i := len(reqs) - 1; i >= 0; i-- {
		r := reqs[i]
		if !fakemodel.Main(r) || !strings.Contains(r.Prompt, ThreadAfter) {
			continue
		}
		body := string(r.Body)
		if !strings.Contains(body, ThreadFirst) || !strings.Contains(body, "This is the first conversation.") ||
			strings.Contains(body, ThreadSecond) {
			return fmt.Errorf("rig: the request after the resume does not carry the first conversation alone: %.2000s", body)
		}
		return nil
	}
	return fmt.Errorf("rig: no model request for %q", ThreadAfter)
}
