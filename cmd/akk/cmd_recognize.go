package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

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
	Agent    string `help:"The agent (claude, codex); default: the recording's."`
	Version  string `help:"The agent's exact version; default: the recording's."`
	Timeline bool   `help:"For a recording: one object per change of the recognition, with its time t (NDJSON with --json)."`
	Size     string `help:"For a capture-pane dump: the pane's size WxH (default: the widest line by the number of lines)."`
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
	if c.Timeline {
		return fmt.Errorf("%w: --timeline needs a recording", errUsage)
	}
	scr, err := c.screen(data)
	if err != nil {
		return err
	}
	p, err := c.profile(nil)
	if err != nil {
		return err
	}
	r := recognizers.Recognize(p, scr, recognizers.TestKey)
	return printRecognition(stdout, g.JSON, &r, nil)
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
	r := recognizers.NewRecognizer(p, recognizers.TestKey)
	var last []byte
	scr, err := recordings.Replay(rec, vt.Options{}, func(s recordings.Step) error {
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
	if err != nil || c.Timeline {
		return err
	}
	got := r.Recognize(scr)
	return printRecognition(stdout, asJSON, &got, nil)
}

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
	V           int                      `json:"v"`
	T           *float64                 `json:"t,omitempty"`
	ScreenState string                   `json:"screen_state"`
	Composer    string                   `json:"composer"`
	DraftLength int                      `json:"draft_length,omitempty"`
	Profile     string                   `json:"profile"`
	Agent       string                   `json:"agent"`
	Version     string                   `json:"version"`
	Activity    recognizers.Activity     `json:"activity"`
	Interaction *recognizers.Interaction `json:"interaction"`
	Warnings    []string                 `json:"warnings"`
	Notes       []string                 `json:"notes,omitempty"`
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
	if r.Composer == recognizers.ComposerDraft {
		fmt.Fprintf(w, " %q", r.Draft)
	}
	fmt.Fprintln(w)
	if a := r.Activity; a.Spinner || a.InterruptHint || a.Done {
		fmt.Fprintf(w, "  activity: spinner %v, interrupt hint %v, elapsed %q, done %v %q\n", a.Spinner, a.InterruptHint, a.Elapsed, a.Done, a.DoneElapsed)
	}
	if in := r.Interaction; in != nil {
		fmt.Fprintf(w, "  %s %s", in.Kind, in.State)
		if len(in.Decisions) > 0 {
			fmt.Fprintf(w, ", decisions %s", strings.Join(in.Decisions, ", "))
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
