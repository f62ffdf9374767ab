package sessiondb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

// The OpenCode 1.18.33 stores in testdata/opencode (README.md there says
// how each was recorded) and their events, one line each: the event row's
// seq, then the event in brief (message ids cut to their last 6
// characters).

func ocID(id string) string { return id[max(0, len(id)-6):] }

func ocBrief(ev evidence.Event) string {
	var s string
	switch e := ev.(type) {
	case evidence.SessionIdentity:
		s = fmt.Sprintf("session %s %s %s", ocID(e.SessionID), e.Cwd, e.Version)
	case evidence.TurnStarted:
		s = "started " + ocID(e.TurnID)
	case evidence.PromptAccepted:
		s = fmt.Sprintf("prompt %s %x %d", ocID(e.TurnID), e.SHA256[:4], e.Len)
	case evidence.TurnCompleted:
		how := "notext"
		if e.EndedWithText {
			how = "text"
		}
		s = fmt.Sprintf("completed %s %s %s %v", ocID(e.TurnID), e.StopReason, how, e.Duration)
	case evidence.TurnAborted:
		s = fmt.Sprintf("aborted %s %s", ocID(e.TurnID), e.Reason)
	case evidence.TurnFailed:
		s = fmt.Sprintf("failed %s %s", ocID(e.TurnID), e.Reason)
	case evidence.ToolPending:
		s = fmt.Sprintf("pending %s %s %s", ocID(e.TurnID), e.Name, e.CallID)
	case evidence.ToolResult:
		s = fmt.Sprintf("result %s %s %s %s", ocID(e.TurnID), e.Name, e.CallID, evidencetest.ResultHow(e))
	case evidence.QuestionAnswered:
		s = fmt.Sprintf("answered %s %d/%d", e.CallID, e.Answered, e.Questions)
	default:
		s = evidencetest.Brief(ev)
	}
	return fmt.Sprintf("%d %s", ev.At().Offset, s)
}

// ocPrompt is ocBrief's line for the prompt text accepted at seq as turn.
func ocPrompt(seq int, turn, text string) string {
	return fmt.Sprintf("%d prompt %s %s %d", seq, turn, evidencetest.HashPrefix(text), len(text))
}

// ocEvents reads every event of a session of the store at path.
func ocEvents(t *testing.T, path, session string) []evidence.Event {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got []evidence.Event
	if _, err := db.Events(context.Background(), session, -1, func(ev evidence.Event) { got = append(got, ev) }); err != nil {
		t.Fatal(err)
	}
	return got
}

func ocBriefs(evs []evidence.Event) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ocBrief(ev))
	}
	return out
}

const (
	ocTUI      = "testdata/tui.db"
	ocRunTask  = "testdata/run-task.db"
	ocQuestion = "testdata/question.db"
	ocCwd      = "/tmp/oc-home/work"
)

var ocRecorded = []struct {
	name, path, session string
	want                []string
}{
	{"run: a text reply", ocTUI, "ses_db668948dffeJ2hRVkpYw77me4", []string{
		"0 session w77me4 " + ocCwd + " 1.18.33",
		"3 started 5ht3xV",
		ocPrompt(3, "5ht3xV", "hello"),
		"14 completed 5ht3xV stop text 1.83s",
	}},
	{"tui: every step", ocTUI, "ses_db66857f4ffe9PumYZ1qM1zewH", []string{
		"0 session M1zewH " + ocCwd + " 1.18.33",
		// bash, asked and allowed once
		"2 started 5kp81R",
		ocPrompt(2, "5kp81R", "please run-ls"),
		"11 pending 5kp81R bash call_fake0004_0",
		"15 result 5kp81R bash call_fake0004_0 ok",
		"27 completed 5kp81R stop text 9.529s",
		// bash, rejected: the turn ends at the request's end
		"31 started nD9HfO",
		ocPrompt(31, "nD9HfO", "please run-other"),
		"39 pending nD9HfO bash call_fake0006_0",
		"41 result nD9HfO bash call_fake0006_0 rejected",
		"44 aborted nD9HfO rejected",
		// edit with an empty filePath: the tool's error, the turn goes on
		"48 started LlFmuh",
		ocPrompt(48, "LlFmuh", "please do-edit"),
		"56 pending LlFmuh edit call_fake0007_0",
		"57 result LlFmuh edit call_fake0007_0 error",
		"70 completed LlFmuh stop text 760ms",
		// Esc Esc while the model streams
		"74 started uj0ymN",
		ocPrompt(74, "uj0ymN", "please slow-talk"),
		"82 aborted uj0ymN interrupted",
		// Esc Esc while bash runs (its result is completed)
		"84 started xgW97P",
		ocPrompt(84, "xgW97P", "please long-sleep"),
		"92 pending xgW97P bash call_fake0010_0",
		"95 result xgW97P bash call_fake0010_0 ok",
		"96 aborted xgW97P interrupted",
		// a 429 retried, then Esc Esc while it waits for its retry
		"98 started HpPse3",
		ocPrompt(98, "HpPse3", "please bad-fail"),
		"103 aborted HpPse3 interrupted",
		// the TUI again (--continue): an edit asked and allowed once
		"105 started R4aMHs",
		ocPrompt(105, "R4aMHs", "please do-edit"),
		"113 pending R4aMHs edit call_fake0001_0",
		"116 result R4aMHs edit call_fake0001_0 ok",
		"129 completed R4aMHs stop text 4.352s",
		// an API error once the retries were spent
		"133 started YiP4vu",
		ocPrompt(133, "YiP4vu", "please fatal-fail"),
		"138 failed YiP4vu APIError",
		// Esc at the permission dialog
		"140 started HtenY4",
		ocPrompt(140, "HtenY4", "please run-ls"),
		"148 pending HtenY4 bash call_fake0009_0",
		"150 result HtenY4 bash call_fake0009_0 rejected",
		"153 aborted HtenY4 rejected",
		// read of a missing file (external_directory asked, allowed; the
		// call id repeats one of the first process's: the fake's counter)
		"157 started 5tULJ7",
		ocPrompt(157, "5tULJ7", "please read-missing"),
		"165 pending 5tULJ7 read call_fake0010_0",
		"167 result 5tULJ7 read call_fake0010_0 error",
		"179 completed 5tULJ7 stop text 5.84s",
		// a prompt typed while a turn streams (QUEUED): written at once
		"183 started u7HQrh",
		ocPrompt(183, "u7HQrh", "please slow-talk"),
		"191 started 6FUAJO",
		ocPrompt(191, "6FUAJO", "queued hello"),
		"196 completed u7HQrh stop text 40.387s",
		"205 completed 6FUAJO stop text 37.654s",
	}},
	{"tui: the question tool answered, then dismissed; /undo; /compact", ocQuestion, "ses_db64d52bfffe56ldDigg2jsmD4", []string{
		"0 session 2jsmD4 " + ocCwd + " 1.18.33",
		"2 started 2uatHw",
		ocPrompt(2, "2uatHw", "please ask-q"),
		"11 pending 2uatHw question call_fake0002_0",
		"13 result 2uatHw question call_fake0002_0 ok",
		"13 answered call_fake0002_0 1/1",
		"25 completed 2uatHw stop text 14.299s",
		// Esc at the question: the turn ends there
		"29 started olwzlv",
		ocPrompt(29, "olwzlv", "please ask-q"),
		"37 pending olwzlv question call_fake0004_0",
		"39 result olwzlv question call_fake0004_0 rejected",
		"42 aborted olwzlv rejected",
		// /undo (45: the session's revert; 46, 47: that turn's messages
		// removed as the next prompt is sent)
		"50 started mq9CJ8",
		ocPrompt(50, "mq9CJ8", "hello after"),
		"60 completed mq9CJ8 stop text 388ms",
		// /compact (63-69): a user message with a compaction part and no
		// text, its summary request (failed): no turn
	}},
	{"run: a subagent's task", ocRunTask, "ses_db6631c93ffettAvkBlgg82toA", []string{
		"0 session g82toA " + ocCwd + " 1.18.33",
		"3 started rk3cSn",
		ocPrompt(3, "rk3cSn", `"please do-task"`),
		"12 pending rk3cSn task call_fake0002_0",
		"15 result rk3cSn task call_fake0002_0 ok",
		"27 completed rk3cSn stop text 2.44s",
	}},
	{"run: the subagent's own session, read for nothing", ocRunTask, "ses_db663157dffeLnLRSlc1PvxPyg", nil},
	{"run: an ask rejected by run itself", ocRunTask, "ses_db6630993ffe4GdbI7XRSND7jq", []string{
		"0 session SND7jq " + ocCwd + " 1.18.33",
		"3 started q7lXjD",
		ocPrompt(3, "q7lXjD", `"please run-ls"`),
		"12 pending q7lXjD bash call_fake0006_0",
		"14 result q7lXjD bash call_fake0006_0 rejected",
		"17 aborted q7lXjD rejected",
	}},
}

func TestOpenCodeRecorded(t *testing.T) {
	for _, tc := range ocRecorded {
		t.Run(tc.name, func(t *testing.T) {
			evs := ocEvents(t, tc.path, tc.session)
			if got := ocBriefs(evs); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			fi, err := os.Stat(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				w := ev.At()
				if w.Agent != Agent || w.Path != evidence.RecordPath(tc.path, tc.session) || w.File != evidence.SessionFile(evidence.FileIDOf(fi), tc.session) || w.End != w.Offset+1 || w.Time.IsZero() {
					t.Fatalf("%s: where %+v", ocBrief(ev), w)
				}
			}
		})
	}
}

// Events goes on from where it stopped, and from anywhere else by reading
// the log again: the same events either way.
func TestOpenCodeEventsResume(t *testing.T) {
	const session = "ses_db66857f4ffe9PumYZ1qM1zewH"
	all := ocBriefs(ocEvents(t, ocTUI, session))
	db, err := Open(ocTUI)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, after := range []int64{-1, 0, 2, 3, 50, 150, 206, 207, 500} {
		var got []string
		last, err := db.Events(ctx, session, after, func(ev evidence.Event) { got = append(got, ocBrief(ev)) })
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i, b := range all {
			if ocSeq(b) > after {
				want = all[i:]
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("after %d: got\n%s\nwant\n%s", after, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if wantLast := max(after, 207); last != wantLast {
			t.Errorf("after %d: last %d, want %d", after, last, wantLast)
		}
	}
	// In steps: each call from the last seq the one before returned, the
	// parser kept between them.
	var got []string
	last := int64(-1)
	for range 3 {
		l, err := db.Events(ctx, session, last, func(ev evidence.Event) { got = append(got, ocBrief(ev)) })
		if err != nil {
			t.Fatal(err)
		}
		last = l
	}
	if !slices.Equal(got, all) {
		t.Errorf("in steps: got %d events, want %d", len(got), len(all))
	}
	if _, err := db.Events(ctx, "ses_none", -1, func(evidence.Event) { t.Fatal("an event of no session") }); err != nil {
		t.Fatal(err)
	}
}

func ocSeq(brief string) int64 {
	var n int64
	fmt.Sscan(brief, &n)
	return n
}

func TestOpenCodeSessions(t *testing.T) {
	db, err := Open(ocRunTask)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ss, err := db.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range ss {
		got = append(got, fmt.Sprintf("%s parent=%s %s %s %d %d", s.ID, s.ParentID, s.Directory, s.Version, s.Created.UnixMilli(), s.Updated.UnixMilli()))
	}
	want := []string{
		"ses_db6631c93ffettAvkBlgg82toA parent= /tmp/oc-home/work 1.18.33 1796531348332 1796531350884",
		"ses_db663157dffeLnLRSlc1PvxPyg parent=ses_db6631c93ffettAvkBlgg82toA /tmp/oc-home/work 1.18.33 1796531350146 1796531350397",
		"ses_db6630993ffe4GdbI7XRSND7jq parent= /tmp/oc-home/work 1.18.33 1796531353196 1796531355847",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing store: %v", err)
	}
}

// A part logged says its kind and length, never its text.
func TestOpenCodePartRedacted(t *testing.T) {
	var b strings.Builder
	lg := slog.New(slog.NewJSONHandler(&b, nil))
	p := openCodePart{Type: "text", Text: "secret words"}
	lg.Info("part", "part", p)
	t.Log(fmt.Sprint(p))
	if strings.Contains(b.String(), "secret") || strings.Contains(fmt.Sprint(p), "secret") || !strings.Contains(b.String(), "text(12 bytes)") {
		t.Fatalf("logged %s", b.String())
	}
}
