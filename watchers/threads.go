package watchers

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Threads lists the earlier conversations a controller may resume in a
// pane (issue 21, seed 003 "Native Thread Transitions"): the agent's own
// transcripts or rollouts of the same workspace, newest first, without
// the pane's current one, those archived and those another process is
// live in. The rules, and what the agents really do (Claude Code 2.1.267
// and 2.1.332, Codex 0.155.1 and 0.171.0, measured with the rig):
//
//   - Same workspace: the cwd the records carry (Claude: the first record
//     with one; Codex: session_meta) equals the query's after
//     filepath.Clean. The project directory's slug alone never decides
//     (Claude's own picker drops "a different directory with the same
//     project slug" too).
//   - Not archived. `codex archive <id>` (the picker's ctrl+a and the
//     /archive command offer the same) renames the rollout, unchanged,
//     from sessions/YYYY/MM/DD/ to $CODEX_HOME/archived_sessions/ (flat);
//     `codex unarchive <id>` moves it back. The file's place is the mark (its state DB
//     row says archived too; Codex's doctor holds the place as the truth).
//     Claude Code moves no transcript; 2.1.332's picker knows an
//     "archived" session mark that no run here produced, and it is not
//     read.
//   - Not live in another process. Codex: a process other than the pane's
//     (Self and its descendants) holds the rollout open, read from
//     /proc/<pid>/fd as ResolveCodex does. Both versions keep every
//     rollout they wrote open until they exit: the thread a Codex left
//     with /new still counts as live in it. Claude: both versions keep a
//     registry, ~/.claude/sessions/<pid>.json, {"pid", "sessionId", "cwd",
//     "procStart", "pidDomain", ...}, written at start, rewritten when
//     /clear or /resume changes the session, removed at exit; a record
//     counts when its process is alive with the same start time
//     (procStart is /proc/<pid>/stat's starttime), so one left by a killed
//     process does not. A live claude process in the same cwd without a
//     valid record (an older version) makes every transcript appended in
//     the last claudeRecent count as live in it.
//   - Not the current one (Exclude).
//   - Newest first by Updated (the last record's timestamp, else the
//     file's mtime), at most Limit.
//
// The Title is what the agent's own picker shows, trimmed, on one line,
// at most titleRunes runes, never the assistant's text. Claude: the last
// custom-title (/rename), else the last ai-title (2.1.267 asks the model
// for one), else the last last-prompt record's lastPrompt (2.1.332 writes
// it once, after the first turn: the first meaningful prompt), else the
// first prompt, else the first slash command (a transcript begun by
// /clear shows "/clear"). Codex: the thread's last name in
// $CODEX_HOME/session_index.jsonl (/rename; 0.171.0 also names every
// thread after its first prompt), else the first user prompt.
//
// A file that is empty, torn (its last line has no newline yet), not a
// regular file, unreadable, without an id and cwd, whose id is not its
// file name's, or without any prompt (nothing was said) gives no thread.
//
// Limits: only the head (threadHead) and tail (threadTail) of each file
// are read, as Claude's picker does, so a title record in the middle of a
// long transcript is missed; processes whose descriptors this user cannot
// read (another user's) are not seen holding anything; a Claude record
// from another pid namespace cannot be checked and counts as live;
// Claude's other picker filters (team, daemon and /loop sessions) and
// Codex's (exec and sub-agent threads) are not applied; Codex's state DB
// (state_5.sqlite: archived flag, title, name) is not read, its files
// and session index are.

// ThreadQuery says whose conversations to list.
type ThreadQuery struct {
	Agent evidence.Agent
	// Root is ~/.claude/projects (Claude) or $CODEX_HOME/sessions (Codex).
	// Claude's registry is read from Root's sibling "sessions", Codex's
	// thread names from Root's sibling "session_index.jsonl".
	Root string
	// ArchivedRoot is $CODEX_HOME/archived_sessions ("": not read).
	ArchivedRoot string
	// Cwd is the pane's agent's working directory.
	Cwd string
	// Exclude is the pane's current native session id.
	Exclude string
	// Self are the pane's agent processes; they and their descendants
	// are not "another process".
	Self []int
	// Limit bounds the answer (0: 20).
	Limit int
	// Procfs is the proc file system ("": /proc).
	Procfs string
	// Unresumable lists archived threads and threads live in another
	// process too, flagged, instead of leaving them out.
	Unresumable bool
}

// Thread is one conversation the agent could resume.
type Thread struct {
	// ID is the native session id: what the agent's resume takes.
	ID    string
	Title string
	Path  string
	// File, Size and ModTime are the file as it was read; Unchanged says
	// whether it still is.
	File    evidence.FileID
	Size    int64
	ModTime time.Time
	// Updated is the last record's timestamp, or ModTime.
	Updated time.Time
	// Archived: a Codex rollout under archived_sessions.
	Archived bool
	// ActiveElsewhere: another process is live in it.
	ActiveElsewhere bool
	// Why says in words what the listing rests on.
	Why string
}

// Unchanged says whether t's path still names the file that was read,
// with the same size and mtime: not replaced, moved (archived), appended
// to or rewritten since.
func (t Thread) Unchanged() bool {
	fi, err := os.Lstat(t.Path)
	if err != nil {
		return false
	}
	st := statOf(fi)
	return st.ID == t.File && st.Size == t.Size && fi.ModTime().Equal(t.ModTime)
}

// SameFile says whether t's path still names the file that was read
// (it may have grown: a resumed conversation appends to its own file).
func (t Thread) SameFile() bool {
	fi, err := os.Lstat(t.Path)
	return err == nil && statOf(fi).ID == t.File && fi.Size() >= t.Size
}

const (
	defaultThreadLimit = 20
	// titleRunes bounds a Title.
	titleRunes = 80
	// threadHead and threadTail bound what is read of each file.
	threadHead = 1 << 20
	threadTail = 256 << 10
	// claudeRecent: a transcript appended this recently counts as live in
	// an unregistered claude process of the same cwd.
	claudeRecent = 5 * time.Second
)

// Threads lists q.Agent's resumable conversations of q.Cwd. The error is
// for a bad query, a cancelled ctx or a Root that cannot be read; a
// missing Root lists nothing.
func Threads(ctx context.Context, q ThreadQuery) ([]Thread, error) {
	if q.Agent != evidence.Claude && q.Agent != evidence.Codex || q.Root == "" || q.Cwd == "" {
		return nil, fmt.Errorf("watchers: threads: agent %q, root %q, cwd %q: %w", q.Agent, q.Root, q.Cwd, ErrOptions)
	}
	q.Cwd = filepath.Clean(q.Cwd)
	q.Limit = cmp.Or(max(q.Limit, 0), defaultThreadLimit)
	files, err := threadFiles(q)
	if err != nil {
		return nil, err
	}
	var names map[string]string
	if q.Agent == evidence.Codex {
		names = codexThreadNames(filepath.Join(filepath.Dir(q.Root), "session_index.jsonl"))
	}
	byID := map[string]Thread{}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, ok := readThread(q.Agent, f.path, q.Cwd, names)
		if !ok || t.ID == q.Exclude {
			continue
		}
		t.Archived = f.archived
		if old, dup := byID[t.ID]; !dup || preferred(t, old) {
			byID[t.ID] = t
		}
	}
	threads := slices.Collect(maps.Values(byID))
	if len(threads) > 0 {
		procs := &procid.Table{Root: q.Procfs}
		if q.Agent == evidence.Codex {
			markCodexLive(threads, procs, q.Self)
		} else {
			markClaudeLive(threads, procs, q, time.Now())
		}
	}
	threads = slices.DeleteFunc(threads, func(t Thread) bool {
		return !q.Unresumable && (t.Archived || t.ActiveElsewhere)
	})
	slices.SortFunc(threads, func(a, b Thread) int {
		return cmp.Or(b.Updated.Compare(a.Updated), strings.Compare(a.Path, b.Path))
	})
	return threads[:min(len(threads), q.Limit)], nil
}

// preferred: of two files of one id (a copy left in sessions and
// archived_sessions), the one not archived, else the newer.
func preferred(a, b Thread) bool {
	if a.Archived != b.Archived {
		return !a.Archived
	}
	return a.Updated.After(b.Updated)
}

type threadFile struct {
	path     string
	archived bool
}

// threadFiles lists the journals under the roots: Claude's
// projects/<slug>/*.jsonl, Codex's sessions/YYYY/MM/DD/rollout-*.jsonl
// and archived_sessions/rollout-*.jsonl.
func threadFiles(q ThreadQuery) ([]threadFile, error) {
	var out []threadFile
	add := func(root string, depth int, archived bool) error {
		return walkDepth(root, depth, func(path string) {
			name := filepath.Base(path)
			if strings.HasSuffix(name, ".jsonl") && (q.Agent == evidence.Claude || strings.HasPrefix(name, "rollout-")) {
				out = append(out, threadFile{path, archived})
			}
		})
	}
	depth := 1
	if q.Agent == evidence.Codex {
		depth = 3
	}
	if err := add(q.Root, depth, false); err != nil {
		return nil, fmt.Errorf("watchers: threads: %w", err)
	}
	if q.Agent == evidence.Codex && q.ArchivedRoot != "" {
		if err := add(q.ArchivedRoot, 0, true); err != nil {
			return nil, fmt.Errorf("watchers: threads: %w", err)
		}
	}
	return out, nil
}

// walkDepth calls file for every non-directory entry depth directories
// below root. A missing root is empty; an unreadable one an error; an
// unreadable directory below it is skipped.
func walkDepth(root string, depth int, file func(string)) error {
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		switch {
		case e.IsDir() && depth > 0:
			_ = walkDepth(p, depth-1, file)
		case !e.IsDir() && depth == 0:
			file(p)
		}
	}
	return nil
}

// readThread reads one journal's identity, title and last timestamp from
// its head and tail. ok is false for a file that gives no thread (see
// Threads), or one of another cwd.
func readThread(agent evidence.Agent, path, cwd string, names map[string]string) (Thread, bool) {
	f, st, err := openStat(path)
	if err != nil || f == nil {
		return Thread{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || st.Size == 0 {
		return Thread{}, false
	}
	t := Thread{Path: path, File: st.ID, Size: st.Size, ModTime: fi.ModTime()}
	acc := threadAcc{agent: agent}
	head := min(st.Size, threadHead)
	torn, err := scanLines(f, 0, head, func(line []byte) bool {
		acc.add(parseThreadLine(agent, line))
		return acc.cwd == "" || filepath.Clean(acc.cwd) == cwd
	})
	if err != nil || acc.id == "" || filepath.Clean(acc.cwd) != cwd {
		return Thread{}, false
	}
	if head < st.Size {
		torn, err = scanLines(f, max(head, st.Size-threadTail), st.Size, func(line []byte) bool {
			acc.add(parseThreadLine(agent, line))
			return true
		})
		if err != nil {
			return Thread{}, false
		}
	}
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if torn || !(base == acc.id || agent == evidence.Codex && strings.HasSuffix(base, "-"+acc.id)) {
		return Thread{}, false
	}
	t.ID = acc.id
	t.Title = acc.title(names[acc.id])
	if t.Title == "" {
		return Thread{}, false
	}
	t.Updated = cmp.Or(acc.updated, t.ModTime)
	return t, true
}

// scanLines calls line for each complete line in [from, to) (a line
// begun before from is skipped) until it returns false. torn says the
// window ends inside a line: at the file's end, a line not finished yet.
// It reads in chunks, so a file of another cwd costs its first lines.
func scanLines(f io.ReaderAt, from, to int64, line func([]byte) bool) (torn bool, err error) {
	start := max(from-1, 0)
	br := bufio.NewReaderSize(io.NewSectionReader(f, start, to-start), 32<<10)
	skip := from > 0 // the rest of the line the byte before from ends or is in
	var long []byte  // a line longer than the reader's buffer, so far
	for {
		piece, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			long = append(long, piece...)
			continue
		case errors.Is(err, io.EOF):
			return len(long)+len(piece) > 0, nil
		case err != nil:
			return false, err
		}
		l := piece
		if long != nil {
			l, long = append(long, piece...), nil
		}
		if skip {
			skip = false
			continue
		}
		if !line(l[:len(l)-1]) {
			return false, nil
		}
	}
}

// threadLine is what one journal line says about its conversation.
type threadLine struct {
	ID, Cwd string // the session and its cwd, from a record with both
	Time    time.Time
	// Prompt is the user's own text; Command a slash command the user
	// ran ("/clear"), from its <command-name> echo.
	Prompt, Command string
	// Claude's bookkeeping: custom-title, ai-title, last-prompt.
	CustomTitle, AITitle, LastPrompt string
}

// claudeThreadRecord adds the title records' fields to claudeLine.
type claudeThreadRecord struct {
	claudeLine
	CustomTitle string `json:"customTitle"`
	AITitle     string `json:"aiTitle"`
	LastPrompt  string `json:"lastPrompt"`
}

// parseThreadLine reads one line of agent's journal; a line that is not
// a record says nothing.
func parseThreadLine(agent evidence.Agent, line []byte) threadLine {
	var tl threadLine
	if len(bytes.TrimSpace(line)) == 0 {
		return tl
	}
	if agent == evidence.Codex {
		var rec codexLine
		if evidence.Decode(line, &rec) != nil {
			return tl
		}
		tl.Time = evidence.RecordTime(rec.Timestamp)
		pl := &rec.Payload
		switch {
		case rec.Type == "session_meta":
			if pl.ID != "" && pl.Cwd != "" {
				tl.ID, tl.Cwd = pl.ID, pl.Cwd
			}
		case rec.Type == "response_item" && pl.Type == "message" && pl.Role == "user":
			text, ok := codexText(pl.Content)
			var kinds []string
			if pl.Meta != nil {
				kinds = pl.Meta.Kinds
			}
			if ok && userText(kinds, text) {
				tl.Prompt = text
			}
		case rec.Type == "event_msg" && pl.Type == "user_message":
			tl.Prompt, _ = evidence.RawString(pl.Message)
		case rec.Type == "event_msg" && pl.Type == "item_completed":
			var item codexItem
			if evidence.Decode(pl.Item, &item) == nil && item.Type == "UserMessage" {
				tl.Prompt, _ = codexText(item.Content)
			}
		}
		return tl
	}
	var rec claudeThreadRecord
	if evidence.Decode(line, &rec) != nil || rec.IsSidechain || rec.AgentID != "" {
		return tl
	}
	tl.Time = evidence.RecordTime(rec.Timestamp)
	if rec.SessionID != "" && rec.Cwd != "" {
		tl.ID, tl.Cwd = rec.SessionID, rec.Cwd
	}
	switch rec.Type {
	case "custom-title":
		tl.CustomTitle = rec.CustomTitle
	case "ai-title":
		tl.AITitle = rec.AITitle
	case "last-prompt":
		tl.LastPrompt = rec.LastPrompt
	case "user":
		text, ok := claudeUserText(rec.Message)
		switch {
		case !ok || rec.IsMeta:
		case isPromptText(text):
			tl.Prompt = text
		default:
			tl.Command = commandName(text)
		}
	}
	return tl
}

// claudeUserText is a user message's text: a string, or its text blocks
// (false when it holds a tool result).
func claudeUserText(raw json.RawMessage) (string, bool) {
	var m claudeMessage
	if evidence.Decode(raw, &m) != nil {
		return "", false
	}
	if s, ok := evidence.RawString(m.Content); ok {
		return s, true
	}
	var blocks []claudeBlock
	if evidence.Decode(m.Content, &blocks) != nil {
		return "", false
	}
	var texts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "tool_result":
			return "", false
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

// commandName reads "/clear" (and its arguments) from a slash command's
// echo, "<command-name>/clear</command-name> ... <command-args>x</command-args>".
func commandName(text string) string {
	between := func(tag string) string {
		_, rest, ok := strings.Cut(text, "<"+tag+">")
		v, _, ok2 := strings.Cut(rest, "</"+tag+">")
		if !ok || !ok2 {
			return ""
		}
		return strings.TrimSpace(v)
	}
	name := between("command-name")
	if !strings.HasPrefix(name, "/") {
		return ""
	}
	return strings.TrimSpace(name + " " + between("command-args"))
}

// threadAcc gathers a journal's lines, in file order.
type threadAcc struct {
	agent                            evidence.Agent
	id, cwd                          string
	firstPrompt, firstCommand        string
	customTitle, aiTitle, lastPrompt string
	updated                          time.Time
}

func (a *threadAcc) add(tl threadLine) {
	if a.id == "" && tl.ID != "" {
		a.id, a.cwd = tl.ID, tl.Cwd
	}
	if !tl.Time.IsZero() {
		a.updated = tl.Time
	}
	if a.firstPrompt == "" && strings.TrimSpace(tl.Prompt) != "" {
		a.firstPrompt = tl.Prompt
	}
	if a.firstCommand == "" {
		a.firstCommand = tl.Command
	}
	a.customTitle = cmp.Or(tl.CustomTitle, a.customTitle)
	a.aiTitle = cmp.Or(tl.AITitle, a.aiTitle)
	a.lastPrompt = cmp.Or(tl.LastPrompt, a.lastPrompt)
}

// title is what the agent's picker shows (see Threads); name is Codex's
// session index name.
func (a *threadAcc) title(name string) string {
	if a.agent == evidence.Codex {
		return boundTitle(cmp.Or(boundTitle(name), a.firstPrompt))
	}
	for _, s := range []string{a.customTitle, a.aiTitle, a.lastPrompt, a.firstPrompt, a.firstCommand} {
		if t := boundTitle(s); t != "" {
			return t
		}
	}
	return ""
}

// boundTitle puts s on one line of at most titleRunes runes: invalid
// UTF-8 and control characters become spaces, runs of space one, the
// ends trimmed, and a cut marked with "…".
func boundTitle(s string) string {
	s = strings.Join(strings.FieldsFunc(strings.ToValidUTF8(s, " "), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError
	}), " ")
	if utf8.RuneCountInString(s) <= titleRunes {
		return s
	}
	r := []rune(s)[:titleRunes-1]
	return strings.TrimRightFunc(string(r), unicode.IsSpace) + "…"
}

// codexThreadNames reads $CODEX_HOME/session_index.jsonl,
// {"id","thread_name","updated_at"} per line, appended at each naming:
// the last name of an id holds. A missing or unreadable index names
// nothing.
func codexThreadNames(path string) map[string]string {
	data, err := readBounded(path, threadHead)
	if err != nil {
		return nil
	}
	names := map[string]string{}
	for line := range bytes.Lines(data) {
		var e struct {
			ID   string `json:"id"`
			Name string `json:"thread_name"`
		}
		if bytes.HasSuffix(line, []byte("\n")) && evidence.Decode(line, &e) == nil && e.ID != "" && e.Name != "" {
			names[e.ID] = e.Name
		}
	}
	return names
}

// readBounded reads a regular file's last limit bytes (the whole file when
// smaller), without following a symlink.
func readBounded(path string, limit int64) ([]byte, error) {
	f, st, err := openStat(path)
	if err != nil || f == nil {
		return nil, cmp.Or(err, fs.ErrNotExist)
	}
	defer f.Close()
	from := max(0, st.Size-limit)
	buf := make([]byte, st.Size-from)
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	buf = buf[:n]
	if from > 0 {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	return buf, nil
}

// fdHolder is a process holding a file open.
type fdHolder struct {
	pid, fd int
	comm    string
}

// markCodexLive flags the rollouts a process other than self holds open.
func markCodexLive(threads []Thread, v *procid.Table, self []int) {
	want := map[evidence.FileID]bool{}
	for _, t := range threads {
		want[t.File] = true
	}
	mine := v.SelfSet(self)
	held := map[evidence.FileID]fdHolder{}
	read, unreadable := 0, 0
	isRollout := func(name string) bool {
		return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
	}
	for _, pid := range v.PIDs() {
		if mine[pid] {
			continue
		}
		files, err := v.Files(pid, isRollout)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				unreadable++
			}
			continue
		}
		read++
		for _, f := range files {
			id := statOf(f.Info).ID
			if _, seen := held[id]; want[id] && !seen {
				held[id] = fdHolder{pid: pid, fd: f.FD, comm: v.Stats()[pid].Comm}
			}
		}
	}
	for i := range threads {
		t := &threads[i]
		switch h, ok := held[t.File]; {
		case ok:
			t.ActiveElsewhere = true
			t.Why = fmt.Sprintf("open in pid %d (%s) on fd %d, not the pane's", h.pid, h.comm, h.fd)
		case t.Archived:
			t.Why = "archived: under archived_sessions"
		default:
			t.Why = fmt.Sprintf("same cwd; no other process holds it open (%d processes read", read)
			if unreadable > 0 {
				t.Why += fmt.Sprintf(", %d unreadable", unreadable)
			}
			t.Why += ")"
		}
	}
}

// claudeSessionRecord is a ~/.claude/sessions/<pid>.json record.
type claudeSessionRecord struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	ProcStart string `json:"procStart"`
	PIDDomain string `json:"pidDomain"`
}

// markClaudeLive flags the transcripts whose session a live claude
// process other than the pane's has registered, and, while a claude of
// the same cwd runs unregistered, those appended in the last
// claudeRecent.
func markClaudeLive(threads []Thread, v *procid.Table, q ThreadQuery, now time.Time) {
	mine := v.SelfSet(q.Self)
	live := map[string]string{} // session -> why
	registered := map[int]bool{}
	dir := filepath.Join(filepath.Dir(q.Root), "sessions")
	ents, _ := os.ReadDir(dir)
	ns := v.PIDNamespace()
	for _, e := range ents {
		pid, err := strconv.Atoi(strings.TrimSuffix(e.Name(), ".json"))
		if err != nil || !strings.HasSuffix(e.Name(), ".json") || mine[pid] {
			continue
		}
		rec, ok := readSessionRecord(filepath.Join(dir, e.Name()))
		if !ok || rec.PID != pid || rec.SessionID == "" {
			continue
		}
		if ns != "" && rec.PIDDomain != "" && !strings.HasSuffix(rec.PIDDomain, ":"+ns) {
			live[rec.SessionID] = fmt.Sprintf("registered by pid %d of another pid namespace (%s): not checkable", pid, rec.PIDDomain)
			continue
		}
		st, alive := v.Stats()[pid]
		if !alive || rec.ProcStart != "" && rec.ProcStart != strconv.FormatUint(st.StartTime, 10) {
			continue // left by a process that is gone
		}
		registered[pid] = true
		live[rec.SessionID] = fmt.Sprintf("live in pid %d (%s)", pid, filepath.Join(dir, e.Name()))
	}
	unregistered := 0
	for _, pid := range v.PIDs() {
		if !mine[pid] && !registered[pid] && isClaudeExe(v.Link(pid, "exe")) && filepath.Clean(v.Link(pid, "cwd")) == q.Cwd {
			unregistered = pid
			break
		}
	}
	for i := range threads {
		t := &threads[i]
		why, ok := live[t.ID]
		switch {
		case ok:
			t.ActiveElsewhere, t.Why = true, why
		case unregistered != 0 && now.Sub(t.ModTime) < claudeRecent:
			t.ActiveElsewhere = true
			t.Why = fmt.Sprintf("appended %s ago while pid %d, a claude of this cwd without a session record, runs",
				now.Sub(t.ModTime).Round(time.Millisecond), unregistered)
		default:
			t.Why = "same cwd; no live claude registers it"
			if unregistered != 0 {
				t.Why += fmt.Sprintf(", and it is older than %s (pid %d runs unregistered)", claudeRecent, unregistered)
			}
		}
	}
}

func readSessionRecord(path string) (claudeSessionRecord, bool) {
	var rec claudeSessionRecord
	data, err := readBounded(path, 64<<10)
	return rec, err == nil && evidence.Decode(data, &rec) == nil
}

// isClaudeExe recognises Claude Code's native binary as procid does: the
// npm package's claude or claude.exe, or ~/.local/share/claude/versions/<v>.
func isClaudeExe(exe string) bool {
	base := filepath.Base(exe)
	return base == "claude" || base == "claude.exe" ||
		filepath.Base(filepath.Dir(exe)) == "versions" && filepath.Base(filepath.Dir(filepath.Dir(exe))) == "claude"
}
