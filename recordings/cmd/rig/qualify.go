package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	agentreg "github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings/qualify"
	"github.com/agent-knock-knock/akk/recordings/rig"
)

// qualifyFlags are -qualify agent@FROM..TO and its options: every
// published version of the agent in the range goes through akk's
// qualification (recordings/qualify, as `akk qualify --dry-run` runs
// it), and the table of what came out is written to versionsMD.
type qualifyFlags struct {
	spec, versionsMD string
	full, keep       bool
}

func (q *qualifyFlags) register() {
	flag.StringVar(&q.spec, "qualify", "", "qualify mode: agent@FROM..TO, every published version in the range (inclusive; npm view) run through akk's qualification into -versions-md")
	flag.BoolVar(&q.full, "full", false, "with -qualify: run every scenario recorded for the base, not only the core set")
	flag.BoolVar(&q.keep, "keep-installs", false, "with -qualify: keep the versions it installed in the cache (about 400 MB each)")
	flag.StringVar(&q.versionsMD, "versions-md", "docs/versions.md", "with -qualify: the table to write or update")
}

// command is the command line the table says made its rows.
func (q *qualifyFlags) command() string {
	c := "go run ./recordings/cmd/rig -qualify " + q.spec
	if q.full {
		c += " -full"
	}
	return c
}

// run qualifies each version in the range, oldest first, and writes its
// row into the table as soon as it is done, so that an interrupted run
// keeps the rows it made.
func (q *qualifyFlags) run(ctx context.Context, lg *slog.Logger) error {
	agent, lo, hi, err := parseRange(q.spec)
	if err != nil {
		return err
	}
	list, err := rig.Published(ctx, agent)
	if err != nil {
		return err
	}
	all, err := parseVersions(list)
	if err != nil {
		return err
	}
	versions := inRange(all, lo, hi)
	if len(versions) == 0 {
		return fmt.Errorf("qualify: no published %s version in %s..%s", agent, lo, hi)
	}
	fmt.Fprintf(os.Stderr, "qualify %s: %d published versions in %s..%s: %s\n", agent, len(versions), lo, hi, strings.Join(versions, " "))
	if !lg.Enabled(ctx, slog.LevelDebug) { // the runs' info (a tmux connection ended) is noise here; -v shows it
		lg = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	cl := procid.NewClassifier(procid.Options{Rules: agentreg.ProcessRules()})
	start := time.Now()
	for i, v := range versions {
		fmt.Fprintf(os.Stderr, "%s %s (%d/%d)\n", agent, v, i+1, len(versions))
		r := q.one(ctx, lg, cl, agent, v)
		if err := ctx.Err(); err != nil {
			return err // cut short: no row for a run that did not end
		}
		fmt.Fprintf(os.Stderr, "%s %s: %s\n", agent, v, r.summary())
		if err := updateFile(q.versionsMD, agent, q.command(), []row{r}); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "qualify %s: %d versions in %s; wrote %s\n", agent, len(versions), time.Since(start).Round(time.Second), q.versionsMD)
	return nil
}

// one qualifies agent@v: a pinned version is recorded as such and not
// run (nor installed); an error that stops the qualification is the
// row's error.
func (q *qualifyFlags) one(ctx context.Context, lg *slog.Logger, cl *procid.Classifier, agent, v string) (r row) {
	r = row{Version: v, Date: time.Now().UTC().Format("2006-01-02")}
	if recognizers.Lookup(agent, v).Exact {
		r.Pinned = true
		return r
	}
	r.Base, _ = qualify.Nearest(agent, v)
	start := time.Now()
	defer func() {
		if r.Err != "" {
			r.Took = time.Since(start).Round(time.Second).String()
		}
	}()
	_, err := rig.Lookup(agent, v)
	cached := err == nil
	in, err := rig.Install(ctx, lg, agent, v)
	if !cached && !q.keep && in.Dir != "" && filepath.Base(in.Dir) == agent+"@"+v {
		defer func() {
			if err := os.RemoveAll(in.Dir); err != nil {
				fmt.Fprintf(os.Stderr, "  remove %s: %v\n", in.Dir, err)
				return
			}
			fmt.Fprintf(os.Stderr, "  removed %s\n", in.Dir)
		}()
	}
	if err != nil {
		r.Err = err.Error()
		return r
	}
	if !cached {
		fmt.Fprintf(os.Stderr, "  installed %s in %s\n", in.Dir, time.Since(start).Round(time.Second))
	}
	gotAgent, gotVersion, err := cl.Program(in.Bin)
	switch {
	case err != nil:
		r.Err = err.Error()
		return r
	case gotAgent != agent || gotVersion != v:
		r.Err = fmt.Sprintf("%s is %s %s, not %s %s", in.Bin, gotAgent, gotVersion, agent, v)
		return r
	}
	start = time.Now()
	rep, err := qualify.Run(ctx, qualify.Config{Agent: agent, Binary: in.Bin, Version: gotVersion, Base: r.Base, Full: q.full,
		Classifier: cl, Hasher: &procid.Hasher{}, Logger: lg,
		Progress: func(sr qualify.ScenarioResult) { fmt.Fprintln(os.Stderr, "  "+sr.Line()) }})
	if err != nil {
		r.Err = err.Error()
		return r
	}
	set := "core"
	if q.full {
		set = "full"
	}
	return rowOf(rep, set, r.Date)
}

// rowOf is a report's row; set names the scenarios run ("core", "full").
func rowOf(rep qualify.Report, set, date string) row {
	names := func(o qualify.Outcome) []string {
		var out []string
		for _, s := range rep.Outcomes(o) {
			out = append(out, string(s))
		}
		return out
	}
	r := row{Version: rep.Version, Base: rep.Base, Passed: names(qualify.Passed), Failed: names(qualify.Failed),
		NotReached: names(qualify.NotReached), ReadOnly: names(qualify.ReadOnly),
		Scenarios: fmt.Sprintf("%d %s", len(rep.Scenarios), set), Took: rep.Took.Round(time.Second).String(), Date: date}
	r.Note = firstNote(rep.Scenarios, qualify.Failed)
	if r.Note == "" {
		r.Note = firstNote(rep.Scenarios, qualify.NotReached)
	}
	return r
}

// firstNote is the first finding with outcome o, in short.
func firstNote(scs []qualify.ScenarioResult, o qualify.Outcome) string {
	for _, sc := range scs {
		for _, f := range sc.Findings {
			if f.Outcome == o {
				return fmt.Sprintf("%s, marker %d (%s) %s: %s", sc.Name, f.Marker, f.Surface, o, short(f.Detail, 200))
			}
		}
	}
	return ""
}

// short is s on one line, cut to n characters.
func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// parseRange reads agent@FROM..TO (or agent@VERSION, a range of one).
func parseRange(spec string) (agent, lo, hi string, err error) {
	agent, rng, ok := strings.Cut(spec, "@")
	if !ok || agent == "" || rng == "" {
		return "", "", "", fmt.Errorf("qualify %q: want agent@FROM..TO", spec)
	}
	lo, hi, ok = strings.Cut(rng, "..")
	if !ok {
		hi = lo
	}
	if lo == "" || hi == "" || recognizers.VersionLess(hi, lo) {
		return "", "", "", fmt.Errorf("qualify %q: want agent@FROM..TO with FROM <= TO", spec)
	}
	return agent, lo, hi, nil
}

// parseVersions reads `npm view <package> versions --json`: an array of
// versions, or one version as a string.
func parseVersions(b []byte) ([]string, error) {
	var vs []string
	if err := json.Unmarshal(b, &vs); err == nil {
		return vs, nil
	}
	var one string
	if err := json.Unmarshal(b, &one); err != nil {
		return nil, fmt.Errorf("qualify: npm view versions: %w", err)
	}
	return []string{one}, nil
}

// inRange are the versions from lo to hi, both included, oldest first
// (recognizers.VersionLess), without pre-releases ("-").
func inRange(vs []string, lo, hi string) []string {
	var out []string
	for _, v := range vs {
		if v == "" || strings.Contains(v, "-") || recognizers.VersionLess(v, lo) || recognizers.VersionLess(hi, v) {
			continue
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return recognizers.VersionLess(out[i], out[j]) })
	return out
}

// row is one version's line in the table.
type row struct {
	Version, Base                        string
	Pinned                               bool   // pinned: acted on with its own profile, not run
	Err                                  string // the qualification could not be made
	Passed, Failed, NotReached, ReadOnly []string
	Scenarios, Took, Date                string
	Note                                 string // the first failed (else not reached) finding
}

func (r row) summary() string {
	switch {
	case r.Pinned:
		return "pinned, not run"
	case r.Err != "":
		return "error: " + r.Err
	}
	return fmt.Sprintf("passed %d, failed %d, not reached %d, read only %d (base %s, %s)",
		len(r.Passed), len(r.Failed), len(r.NotReached), len(r.ReadOnly), r.Base, r.Took)
}

// section is one agent's table: the command that last wrote it, and its
// rows, oldest version first.
type section struct {
	Command string
	Rows    []row
}

// merge puts rows into the agent's section, replacing a row of the same
// version and keeping the others, and records command as the section's.
func merge(doc map[string]*section, agent, command string, rows []row) {
	s := doc[agent]
	if s == nil {
		s = &section{}
		doc[agent] = s
	}
	s.Command = command
	for _, r := range rows {
		i := slices.IndexFunc(s.Rows, func(o row) bool { return o.Version == r.Version })
		if i >= 0 {
			s.Rows[i] = r
		} else {
			s.Rows = append(s.Rows, r)
		}
	}
	sort.SliceStable(s.Rows, func(i, j int) bool { return recognizers.VersionLess(s.Rows[i].Version, s.Rows[j].Version) })
}

// updateFile merges rows into the table at path (made when missing).
func updateFile(path, agent, command string, rows []row) error {
	doc := map[string]*section{}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		doc = parseDoc(string(b))
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	merge(doc, agent, command, rows)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(render(doc)), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

const intro = `# Agent versions qualified

Each table below lists published versions of one agent, run offline
through akk's qualification (recordings/qualify, what ` + "`akk qualify --dry-run`" + `
does): the recording rig drives the version through the scenarios
(the core set unless the command says -full) against the fake model, and
the nearest pinned version's profile (the base) reads its screens. A
surface passes when it is read exactly as the base reads it, with the
recorded effect of akk's keys; it fails when it is read otherwise or
the keys had no effect; it is not reached when the run never drew it;
read only when it was read exactly but answered with a native key akk
never sends. A pinned version is acted on with its own profile and is
not run. An error row is a qualification that could not be made. The
note under a table is the first failed (else not reached) finding of a
version. Made (and updated: rows of the versions run are replaced, the
others kept) by

    go run ./recordings/cmd/rig -qualify AGENT@FROM..TO [-full] [-keep-installs]
`

const header = "| version | base | passed | failed | not reached | read only | scenarios run | time taken | date |\n" +
	"|---|---|---|---|---|---|---|---|---|\n"

// render is the whole file: the intro, then each agent's table by name.
func render(doc map[string]*section) string {
	var b strings.Builder
	b.WriteString(intro)
	agents := make([]string, 0, len(doc))
	for a := range doc {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, a := range agents {
		s := doc[a]
		fmt.Fprintf(&b, "\n## %s\n\n", a)
		if s.Command != "" {
			fmt.Fprintf(&b, "Last command: `%s`\n\n", s.Command)
		}
		b.WriteString(header)
		var notes []string
		for _, r := range s.Rows {
			b.WriteString("| " + strings.Join(cells(r), " | ") + " |\n")
			if r.Note != "" {
				notes = append(notes, fmt.Sprintf("- %s: %s", r.Version, short(r.Note, 400)))
			}
		}
		if len(notes) > 0 {
			b.WriteString("\nNotes:\n\n" + strings.Join(notes, "\n") + "\n")
		}
	}
	return b.String()
}

// cells are a row's table cells, escaped.
func cells(r row) []string {
	list := func(ss []string) string { return strings.Join(ss, ", ") }
	c := []string{r.Version, r.Base, "", list(r.Failed), list(r.NotReached), list(r.ReadOnly), r.Scenarios, r.Took, r.Date}
	switch {
	case r.Pinned:
		c[2] = "pinned"
	case r.Err != "":
		c[2] = "error: " + short(r.Err, 300)
	default:
		c[2] = strconv.Itoa(len(r.Passed))
		if len(r.Passed) > 0 {
			c[2] += ": " + list(r.Passed)
		}
	}
	for i := range c {
		c[i] = strings.ReplaceAll(strings.Join(strings.Fields(c[i]), " "), "|", `\|`)
	}
	return c
}

// parseDoc reads the tables render wrote (what else the file says is
// made afresh).
func parseDoc(text string) map[string]*section {
	doc := map[string]*section{}
	var cur *section
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			cur = &section{}
			doc[strings.TrimSpace(strings.TrimPrefix(line, "## "))] = cur
		case cur == nil:
		case strings.HasPrefix(line, "Last command: `"):
			cur.Command = strings.TrimSuffix(strings.TrimPrefix(line, "Last command: `"), "`")
		case strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| version |"):
			if r, ok := parseRow(line); ok {
				cur.Rows = append(cur.Rows, r)
			}
		case strings.HasPrefix(line, "- "):
			v, note, ok := strings.Cut(strings.TrimPrefix(line, "- "), ": ")
			if i := slices.IndexFunc(cur.Rows, func(r row) bool { return r.Version == v }); ok && i >= 0 {
				cur.Rows[i].Note = note
			}
		}
	}
	return doc
}

// parseRow reads one table line of cells.
func parseRow(line string) (row, bool) {
	line = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "|"), "|")
	var c []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			c = append(c, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	c = append(c, strings.TrimSpace(cell.String()))
	if len(c) != 9 {
		return row{}, false
	}
	list := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ", ")
	}
	r := row{Version: c[0], Base: c[1], Failed: list(c[3]), NotReached: list(c[4]), ReadOnly: list(c[5]),
		Scenarios: c[6], Took: c[7], Date: c[8]}
	switch {
	case c[2] == "pinned":
		r.Pinned = true
	case strings.HasPrefix(c[2], "error: "):
		r.Err = strings.TrimPrefix(c[2], "error: ")
	default:
		if _, names, ok := strings.Cut(c[2], ": "); ok {
			r.Passed = list(names)
		}
	}
	return r, true
}
