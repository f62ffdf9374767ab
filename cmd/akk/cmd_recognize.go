package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recognizers/replaycheck"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

// RecognizeCmd is `akk recognize --agent A --version V FILE`: what the
// recognizers make of a recording's final screen (or of every change,
// --timeline) or of a screen dump. It has no store: ids are derived with
// recognizers.TestKey, a fixed public key, so they authorize nothing.
type RecognizeCmd struct {
	File     string `arg:"" type:"existingfile" help:"A recording (.cast), a screen in the seed format (NAME.final.txt), or tmux capture-pane -p -e output."`
	Agent    string `help:"The agent (${agents}); default: the recording's."`
	Version  string `help:"The agent's exact version; default: the recording's."`
	Timeline bool   `help:"For a recording: one object per change of the recognition, with its time t (NDJSON with --json)."`
	Size     string `help:"For a capture-pane dump: the pane's size WxH (default: the widest line by the number of lines)."`
	Marker   int    `help:"For a recording: recognize the screen at its marker K (0-based) instead of the final one." default:"-1"`
	Explain  bool   `help:"Show every check of every profile tried (the exact one, then the generic reading), in order, with the first differing cell of each failed check (screen text: with --json, rule names, rows and columns only)."`
}

// Run recognizes the file.
func (c *RecognizeCmd) Run(g *Globals, stdout io.Writer) error {
	data, err := os.ReadFile(c.File)
	if err != nil {
		return err
	}
	if rec, err := recordings.Decode(data); err == nil && rec.Header.Version == 2 {
		return c.recording(rec, g.JSON, stdout)
	}
	if c.Timeline || c.Marker >= 0 {
		return fmt.Errorf("%w: --timeline and --marker need a recording", errUsage)
	}
	scr, err := c.screen(data)
	if err != nil {
		return err
	}
	p, err := c.profile(nil)
	if err != nil {
		return err
	}
	return c.print(stdout, g.JSON, p, scr)
}

// print recognizes one screen, explained or not.
func (c *RecognizeCmd) print(stdout io.Writer, asJSON bool, p recognizers.Profile, scr *vt.Screen) error {
	if !c.Explain {
		r := recognizers.Recognize(p, scr, recognizers.TestKey)
		return printRecognition(stdout, asJSON, &r, nil)
	}
	ex := recognizers.Explain(p, scr, recognizers.TestKey)
	if asJSON {
		return json.NewEncoder(stdout).Encode(explainView(&ex))
	}
	ex.Write(stdout)
	return nil
}

// profile resolves --agent/--version, falling back to the recording's
// header.
func (c *RecognizeCmd) profile(h *recordings.Akk) (recognizers.Profile, error) {
	agent, version := c.Agent, c.Version
	if h != nil {
		agent, version = cmp(agent, h.Agent), cmp(version, h.Version)
	}
	if agent == "" || version == "" {
		return recognizers.Profile{}, fmt.Errorf("%w: --agent and --version are needed (the file does not name them)", errUsage)
	}
	return recognizers.Lookup(agent, version), nil
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// recording prints the final screen's recognition, or each change.
func (c *RecognizeCmd) recording(rec *recordings.Recording, asJSON bool, stdout io.Writer) error {
	p, err := c.profile(rec.Header.Akk)
	if err != nil {
		return err
	}
	if c.Timeline && (c.Explain || c.Marker >= 0) {
		return fmt.Errorf("%w: --timeline shows every change; --explain and --marker show one screen", errUsage)
	}
	r := recognizers.NewRecognizer(p, recognizers.TestKey)
	var last []byte
	k := -1
	scr, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
		if s.Marker != nil {
			if k++; k == c.Marker {
				return errAtMarker{c.print(stdout, asJSON, p, s.Screen)}
			}
		}
		if !c.Timeline || s.Event.Code == recordings.Input || s.Event.Code == recordings.MarkerEv {
			return nil
		}
		got := r.Recognize(s.Screen)
		key, _ := json.Marshal(publicView(&got, nil))
		if bytes.Equal(key, last) {
			return nil
		}
		last = key
		t := s.Event.Time
		return printRecognition(stdout, asJSON, &got, &t)
	})
	if at, ok := err.(errAtMarker); ok {
		return at.err
	}
	if err != nil || c.Timeline {
		return err
	}
	if c.Marker >= 0 {
		return fmt.Errorf("%w: --marker %d: the recording has %d markers", errUsage, c.Marker, k+1)
	}
	return c.print(stdout, asJSON, p, scr)
}

// errAtMarker stops a replay at the marker asked for, with the result of
// printing its screen.
type errAtMarker struct{ err error }

func (e errAtMarker) Error() string { return "stopped at the marker" }

// screen reads a seed-format screen or a capture-pane -p -e dump.
func (c *RecognizeCmd) screen(data []byte) (*vt.Screen, error) {
	if sc, err := recordings.ParseScreen(data); err == nil {
		return sc.VT(vt.Options{})
	}
	w, h := 0, 0
	if c.Size != "" {
		var err error
		if w, h, err = recordings.ParseSize(c.Size); err != nil {
			return nil, fmt.Errorf("%w: --size: %v", errUsage, err)
		}
	} else {
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		h = len(lines)
		for _, l := range lines {
			w = max(w, visibleWidth(l))
		}
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data, '\n')
	}
	sc := recordings.Screen{Capture: data, State: recordings.ScreenState{Size: [2]int{w, h}, Scroll: [2]int{0, h - 1}, CursorVisible: true}}
	scr, err := sc.VT(vt.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: a seed-format screen or capture-pane -p -e output (--size WxH): %w", c.File, err)
	}
	return scr, nil
}

// visibleWidth is a dump line's width in cells, SGR sequences skipped.
func visibleWidth(l string) int {
	n := 0
	for i := 0; i < len(l); {
		if l[i] == 0x1b {
			j := i + 1
			for j < len(l) && (l[j] < 0x40 || l[j] > 0x7e || j == i+1) {
				j++
			}
			i = j + 1
			continue
		}
		r, size := utf8.DecodeRuneInString(l[i:])
		n += max(vt.RuneWidth(r), 0)
		i += size
	}
	return n
}

// recognizeView is the JSON of `akk recognize`: DESIGN.md's shape
// ({"v":1,"screen_state","composer","profile","version","interaction",
// "warnings"}) plus the activity evidence, the draft's length (never its
// text) and notes on prompt-like text that is not a prompt.
type recognizeView struct {
	V           int                   `json:"v"`
	T           *float64              `json:"t,omitempty"`
	ScreenState string                `json:"screen_state"`
	Composer    string                `json:"composer"`
	DraftLength int                   `json:"draft_length,omitempty"`
	Profile     string                `json:"profile"`
	Agent       string                `json:"agent"`
	Version     string                `json:"version"`
	Activity    recognizers.Activity  `json:"activity"`
	Interaction *contract.Interaction `json:"interaction"`
	Warnings    []string              `json:"warnings"`
	Notes       []string              `json:"notes,omitempty"`
}

func publicView(r *recognizers.Recognition, t *float64) recognizeView {
	v := recognizeView{V: 1, T: t, ScreenState: string(r.ScreenState), Composer: string(r.Composer),
		DraftLength: r.DraftLen, Profile: "generic", Agent: r.Agent, Version: r.Version, Activity: r.Activity,
		Interaction: r.Interaction, Warnings: r.Warnings}
	if r.Exact {
		v.Profile = "exact"
	}
	if v.Warnings == nil {
		v.Warnings = []string{}
	}
	if r.Interaction == nil {
		for _, rs := range r.Reasons {
			v.Notes = append(v.Notes, rs.Code)
		}
	}
	return v
}

// printRecognition prints JSON (nothing private) or, for a person, text
// that may show the draft.
func printRecognition(w io.Writer, asJSON bool, r *recognizers.Recognition, t *float64) error {
	if asJSON {
		return json.NewEncoder(w).Encode(publicView(r, t))
	}
	if t != nil {
		fmt.Fprintf(w, "%9.3f  ", *t)
	}
	fmt.Fprintf(w, "%s  %s  composer %s", r.Profile, r.ScreenState, r.Composer)
	if r.Composer == contract.ComposerDraft {
		fmt.Fprintf(w, " %q", r.Draft)
	}
	fmt.Fprintln(w)
	if a := r.Activity; a.Spinner || a.InterruptHint || a.Done {
		fmt.Fprintf(w, "  activity: spinner %v, interrupt hint %v, elapsed %q, done %v %q\n", a.Spinner, a.InterruptHint, a.Elapsed, a.Done, a.DoneElapsed)
	}
	if in := r.Interaction; in != nil {
		fmt.Fprintf(w, "  %s %s", in.Kind, in.State)
		if len(in.Decisions) > 0 {
			fmt.Fprintf(w, ", decisions %s", contract.Join(in.Decisions, ", "))
		}
		fmt.Fprintln(w)
		for _, q := range in.Questions {
			fmt.Fprintf(w, "  %s %q (%s)\n", q.Header, q.Prompt, q.ResponseKind)
			for _, o := range q.Options {
				fmt.Fprintf(w, "    - %s\n", o.Label)
			}
		}
	}
	for _, rs := range r.Reasons {
		fmt.Fprintf(w, "  reason: %s\n", rs)
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", s)
	}
	return nil
}

// explainJSON is --explain --json: every profile's steps (rule, depth,
// rows, verdict, the failed check and its column, what the profile
// expected) and the recognition; never screen text (DESIGN.md invariant
// 8).
type explainJSON struct {
	V        int            `json:"v"`
	Profiles []explainedRun `json:"profiles"`
	Result   recognizeView  `json:"result"`
}

type explainedRun struct {
	Profile string        `json:"profile"`
	Steps   []explainStep `json:"steps"`
}

type explainStep struct {
	Rule     string `json:"rule"`
	Depth    int    `json:"depth"`
	Row      *int   `json:"row,omitempty"`
	LastRow  *int   `json:"last_row,omitempty"`
	Calls    int    `json:"calls"`
	Checks   int    `json:"checks"`
	Pass     *bool  `json:"pass,omitempty"` // absent for a rule that only calls others
	Check    string `json:"check,omitempty"`
	DiffCol  *int   `json:"diff_col,omitempty"`
	Expected string `json:"expected,omitempty"` // the profile's, never the screen's
}

func explainView(ex *recognizers.Explanation) explainJSON {
	out := explainJSON{V: 1, Result: publicView(&ex.Recognition, nil)}
	for _, s := range ex.Sections {
		run := explainedRun{Profile: s.Profile, Steps: []explainStep{}}
		for _, st := range s.Steps {
			es := explainStep{Rule: st.Rule, Depth: st.Depth, Calls: st.Calls, Checks: st.Checks}
			if st.Checks > 0 {
				row, last, pass := st.Row, st.Rows, st.Pass
				es.Row, es.Pass, es.Check = &row, &pass, st.Kind
				if last != row {
					es.LastRow = &last
				}
			}
			if st.Diff != nil {
				col := st.Diff.Col
				es.DiffCol, es.Expected = &col, st.Diff.Expected
			}
			run.Steps = append(run.Steps, es)
		}
		out.Profiles = append(out.Profiles, run)
	}
	return out
}

// checkRecognition is `akk replay --check`'s recognizer half: every
// marker of a recording of an agent must match the recognition of its
// screen (recognizers/replaycheck). A recording of a plain pane has none.
func checkRecognition(rec *recordings.Recording) ([]string, error) {
	if rec.Header.Akk == nil || rec.Header.Akk.Agent == "" {
		return nil, nil
	}
	res, err := replaycheck.Check(rec)
	if err != nil {
		return nil, err
	}
	return res.Problems, nil
}
