package recognizers_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/screentest"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/recordings"
	"github.com/agent-knock-knock/akk/vt"
)

var rewrite = flag.Bool("rewrite", false, "rewrite testdata/<agent>/<version>/*.txt from the recognizers (review the diff)")

// TestDatadriven runs testdata/<agent>/<version>/<surface>.txt: each
// command recognizes a screen of that surface's recording under the
// version's profile and prints everything the recognition holds. Files
// are created for every surface of corpus.json with -rewrite.
//
//	marker N   the screen at the recording's marker N (0-based)
//	at T       the screen after the recording's last event at or before
//	           T seconds (added by hand for screens no marker names)
//	final      the recording's final screen (NAME.final.txt)
//
// A command's expected output follows "----" and ends at a blank line.
func TestDatadriven(t *testing.T) {
	for _, f := range screentest.CorpusCasts(t) {
		if !f.Listed {
			continue // still being recorded: its screens may change
		}
		path := filepath.Join("testdata", f.Agent, f.Version, f.Surface+".txt")
		t.Run(f.Agent+"/"+f.Version+"/"+f.Surface, func(t *testing.T) {
			cmds, err := readDatadriven(path)
			if os.IsNotExist(err) && *rewrite {
				cmds = defaultCommands(t, f)
			} else if err != nil {
				t.Fatalf("%v (create it with go test -run TestDatadriven -rewrite)", err)
			}
			var out strings.Builder
			changed := false
			for _, c := range cmds {
				got := runCommand(t, f, c.cmd)
				if got != c.want {
					changed = true
					if !*rewrite {
						t.Errorf("%s: %s:\ngot:\n%s\nwant:\n%s", path, c.cmd, got, c.want)
					}
				}
				fmt.Fprintf(&out, "%s\n----\n%s\n\n", c.cmd, got)
			}
			if *rewrite && changed {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

type ddCommand struct{ cmd, want string }

func readDatadriven(path string) ([]ddCommand, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cmds []ddCommand
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if i+1 >= len(lines) || lines[i+1] != "----" {
			return nil, fmt.Errorf("%s:%d: %q is not followed by ----", path, i+1, l)
		}
		j := i + 2
		for j < len(lines) && lines[j] != "" {
			j++
		}
		cmds = append(cmds, ddCommand{cmd: l, want: strings.Join(lines[i+2:j], "\n")})
		i = j
	}
	return cmds, nil
}

func defaultCommands(t *testing.T, f screentest.CastFile) []ddCommand {
	ms, _, err := recordings.Markers(screentest.LoadCast(t, f.Cast))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []ddCommand
	for i := range ms {
		cmds = append(cmds, ddCommand{cmd: "marker " + strconv.Itoa(i)})
	}
	return append(cmds, ddCommand{cmd: "final"})
}

func runCommand(t *testing.T, f screentest.CastFile, cmd string) string {
	var scr *vt.Screen
	switch fields := strings.Fields(cmd); {
	case len(fields) == 2 && fields[0] == "marker":
		k, err := strconv.Atoi(fields[1])
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		scr, _ = screentest.ScreenAt(t, screentest.LoadCast(t, f.Cast), k)
	case len(fields) == 2 && fields[0] == "at":
		at, err := strconv.ParseFloat(fields[1], 64)
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		scr = screentest.ScreenAtTime(t, screentest.LoadCast(t, f.Cast), at)
	case cmd == "final":
		data, err := os.ReadFile(f.Final)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := recordings.ParseScreen(data)
		if err != nil {
			t.Fatal(err)
		}
		if scr, err = sc.VT(vt.Options{}); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("unknown command %q", cmd)
	}
	r := screentest.Recognize(scr, f.Agent, f.Version)
	return dump(&r)
}

// dump prints a recognition, one fact a line, no blank line.
func dump(r *recognizers.Recognition) string {
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s state %s composer %s", r.Profile, r.ScreenState, r.Composer)
	if r.Composer == contract.ComposerDraft {
		fmt.Fprintf(&b, " draft %q (%d)", r.Draft, r.DraftLen)
	}
	a := r.Activity
	fmt.Fprintf(&b, "\nactivity spinner=%v interrupt=%v elapsed=%q done=%v done_elapsed=%q", a.Spinner, a.InterruptHint, a.Elapsed, a.Done, a.DoneElapsed)
	if bl := r.Blocked; bl != nil {
		fmt.Fprintf(&b, "\nblocked reason %s status %d resets_at %q row %d", bl.Reason, bl.Status, bl.ResetsAt, bl.Row)
		if bl.AutoContinue {
			b.WriteString(" auto_continue")
		}
	}
	if r.Clear != nil {
		fmt.Fprintf(&b, "\nclear keys %q stash=%v", r.Clear.Keys, r.Clear.Stash)
	}
	if r.Stashed || r.DraftRestored {
		fmt.Fprintf(&b, "\nstashed=%v draft_restored=%v", r.Stashed, r.DraftRestored)
	}
	if r.Completion != "" {
		fmt.Fprintf(&b, "\ncompletion %q", r.Completion)
	}
	if r.NoCompletion {
		b.WriteString("\nno completion list")
	}
	if p := r.Picker; p != nil {
		fmt.Fprintf(&b, "\npicker current %d shown %d total %d", p.Current, p.Shown, p.Total)
		for _, row := range p.Rows {
			fmt.Fprintf(&b, "\n  session %q detail %q truncated=%v", row.Title, row.Detail, row.Truncated)
		}
	}
	if st := r.Status; st != nil {
		fmt.Fprintf(&b, "\nstatus %d fields", len(st.Fields))
		for _, f := range st.Fields {
			if f.Redacted {
				fmt.Fprintf(&b, "\n  %q redacted", f.Name)
			} else {
				fmt.Fprintf(&b, "\n  %q %q", f.Name, f.Value)
			}
		}
	}
	if !r.Region.Empty() {
		fmt.Fprintf(&b, "\nregion rows %d-%d fingerprint %x", r.Region.Top, r.Region.Bottom(), r.Fingerprint[:8])
	}
	if p := r.Prompt; p != nil {
		fmt.Fprintf(&b, "\nprompt %s step %d/%d highlighted %d pending %d multi_select %v decisions %v", p.Kind, p.Step.Index, p.Step.Total, p.Highlighted, p.Pending, p.MultiSelect, p.Decisions)
		for _, q := range p.Questions {
			fmt.Fprintf(&b, "\nquestion header %q prompt %q", q.Header, q.Prompt)
			for _, o := range q.Options {
				fmt.Fprintf(&b, "\n  %d. %q role %s row %d", o.Number, o.Label, roleName(o.Role), o.Row)
				if o.Description != "" {
					fmt.Fprintf(&b, " description %q", o.Description)
				}
				if o.Checked {
					b.WriteString(" checked")
				}
			}
		}
	}
	if r.Interaction != nil {
		js, _ := json.Marshal(r.Interaction)
		fmt.Fprintf(&b, "\ninteraction %s", js)
	}
	if r.Plan != nil {
		for _, c := range r.Plan.Choices {
			name := c.Decision
			if name == "" {
				name = contract.Decision(c.OptionID)
			}
			fmt.Fprintf(&b, "\nplan %s free_text=%v max=%d require=%q", name, c.FreeText, c.MaxText, c.RequireText)
			if c.Toggle != nil {
				fmt.Fprintf(&b, " toggle %q index %d", c.Toggle, c.Index)
			}
			for _, s := range c.Steps {
				fmt.Fprintf(&b, "\n  step text=%v quiet=%dms keys %q expect %v highlighted %d", s.Text, s.QuietMillis, s.Keys, s.Expect.States, s.Expect.Highlighted)
			}
			for _, s := range c.Queue {
				fmt.Fprintf(&b, "\n  queue text=%v verify=%v quiet=%dms keys %q expect %v highlighted %d", s.Text, s.VerifyText, s.QuietMillis, s.Keys, s.Expect.States, s.Expect.Highlighted)
			}
		}
	}
	if r.Plan != nil && r.Plan.Multi != nil {
		m := r.Plan.Multi
		fmt.Fprintf(&b, "\nmulti checked %v highlighted %d", m.Checked, m.Highlighted)
		for _, s := range m.Submit {
			fmt.Fprintf(&b, "\n  submit keys %q expect %v", s.Keys, s.Expect.States)
		}
	}
	for _, rs := range r.Reasons {
		fmt.Fprintf(&b, "\nreason %s", rs)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\nwarning %s", w)
	}
	return b.String()
}

func roleName(r recognizers.Role) string {
	return [...]string{"choice", "free_text", "notes", "other", "chat", "approve", "persistent", "auto_mode", "reject", "submit", "cancel"}[r]
}
