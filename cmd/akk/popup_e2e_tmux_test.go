package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/shot"
	"github.com/agent-knock-knock/akk/vt"
)

// paneCell is the style of text in the pane itself (capture-pane -e).
func (r *popupRig) paneCell(text string) (vt.Cell, bool) {
	out := r.srv.MustRun("capture-pane", "-p", "-e", "-N", "-t", r.pane.String())
	c, err := vt.ParseCapture(out, rigW, rigH-1)
	if err != nil {
		r.t.Fatal(err)
	}
	for y, row := range c.Rows {
		var b strings.Builder
		for _, cell := range row {
			b.WriteString(cell.Text)
		}
		if i := strings.Index(b.String(), text); i >= 0 {
			return row[len([]rune(b.String()[:i]))], true
		}
		_ = y
	}
	return vt.Cell{}, false
}

// screenshot writes what the person sees to $AKK_SCREENSHOTS/name (the
// README's pictures: AKK_SCREENSHOTS=$PWD/docs).
func (r *popupRig) screenshot(name string) {
	dir := os.Getenv("AKK_SCREENSHOTS")
	if dir == "" {
		return
	}
	time.Sleep(300 * time.Millisecond) // the popup's frame is complete
	rows := r.cl.Shot()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	if err := shot.WritePNG(f, rows); err != nil {
		r.t.Fatal(err)
	}
}

// TestTmuxPopupPermission: a person at a real tmux client sees the status
// line say an agent needs them, opens the popup with prefix + a, sees the
// replica's permission prompt with its own styles, approves once, and the
// replica continues to the end of its recording.
func TestTmuxPopupPermission(t *testing.T) {
	r := newPopupRig(t, "claude/2.1.267/permission-approve.cast")
	ins := r.ins
	last := len(ins) - 1 // "1": the approval the popup must make
	r.start(last)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.take(ctx, ins[last].After)
	shownAt := time.Now() // the prompt's last byte reached a control client
	setAt := r.awaitAttention("1 permission")
	t.Logf("figure: @akk_attention set %v after the prompt's last output byte", setAt.Sub(shownAt).Round(time.Millisecond))
	r.awaitClient("akk: 1 permission")

	r.keys("\x02a")
	r.awaitClient("1. Approve once")
	for _, text := range []string{"Bash command", "Do you want to proceed?"} {
		inPane, ok1 := r.paneCell(text)
		inPopup, ok2 := r.clientCell(text)
		if !ok1 || !ok2 {
			t.Fatalf("%q: in the pane %v, in the popup %v\n%s", text, ok1, ok2, r.clientText())
		}
		if inPane.Style.WithoutLink() != inPopup.Style.WithoutLink() {
			t.Errorf("%q drawn in the popup as %+v, the pane has %+v", text, inPopup.Style, inPane.Style)
		}
	}
	r.screenshot("popup-permission-replica.png")
	if !r.hasDispatch() {
		t.Skip("the daemon has no dispatch yet (unknown_operation): the answer half runs once issue 8 lands")
	}
	keyAt := time.Now()
	r.keys("1")
	clearedAt := r.awaitAttention("")
	t.Logf("figure: @akk_attention cleared %v after the person pressed 1 (fresh Status, approve, the agent's reaction)",
		clearedAt.Sub(keyAt).Round(time.Millisecond))
	r.awaitClient("Sent (accepted)")
	r.finish("idle")
}

// awaitTwice waits until text shows twice on the person's screen: in the
// pane (left of the popup) and in the popup's copy of the prompt.
func (r *popupRig) awaitTwice(text string) {
	r.t.Helper()
	r.await("the popup and the pane to show "+text, 15*time.Second, func() bool {
		return strings.Count(r.clientText(), text) >= 2
	})
}

// TestTmuxPopupQuestionnaire answers a three-step questionnaire (two
// questions, then the review) one step at a time in the popup.
func TestTmuxPopupQuestionnaire(t *testing.T) {
	r := newPopupRig(t, "claude/2.1.267/several-questions.cast")
	r.start(2) // the task; the popup answers "1", "2" and the review
	r.awaitAttention("1 questionnaire")
	r.keys("\x02a")
	r.awaitTwice("2. Rust") // in the pane and in the popup
	r.awaitClient("↑↓ choose")
	r.screenshot("popup-questionnaire-replica.png")
	if !r.hasDispatch() {
		t.Skip("the daemon has no dispatch yet (unknown_operation): the answers run once issue 8 lands")
	}
	for _, step := range []struct{ key, next string }{
		{"1", "2. SQLite"},      // Language: Go, then the database question
		{"2", "Submit answers"}, // Database: SQLite, then the review
		{"1", ""},               // Submit
	} {
		r.keys(step.key)
		if step.next != "" {
			r.awaitClient("Sent (accepted)")
			r.awaitTwice(step.next) // the popup shows the next step too
		}
	}
	r.finish("idle")
}

// TestTmuxPopupChangedScreen: the pane's screen changes between the
// popup's display and the person's answer (the window is resized, the
// prompt re-laid out); the popup sends nothing, says so, and shows the
// new state. It needs no dispatch: the popup's own fresh Status catches
// the change before any request.
func TestTmuxPopupChangedScreen(t *testing.T) {
	r := newPopupRig(t, "claude/2.1.267/permission-approve.cast")
	ins := r.ins
	last := len(ins) - 1
	r.start(last)
	r.awaitAttention("1 permission")
	// A popup that never refreshes by itself, so the change is seen only
	// when the person answers (the production binding refreshes every
	// second and would show the new state even sooner).
	r.srv.MustRun("bind-key", "A", "run-shell", "-b", popupShell(r.akk, r.api.Socket(), "--refresh", "1h"))
	r.keys("\x02A")
	r.awaitClient("1. Approve once")
	r.narrowWindow()
	r.keys("1")
	r.awaitClient("nothing was sent")
	// A negative check: a key that did reach the replica would make it
	// exit within this grace period.
	time.Sleep(500 * time.Millisecond)
	if dead, _ := r.paneDead(); dead {
		t.Fatal("the replica exited: it received input")
	}
	row := r.row()
	if row.Interaction != nil && row.Interaction.State == contract.StateResolved {
		t.Errorf("the interaction was resolved: %+v", row.Interaction)
	}
	// g jumps to the pane on this very client (switch-client -c with the
	// tty the binding wrote in) and the popup closes.
	r.keys("g")
	r.await("the popup to close after the jump", 10*time.Second, func() bool {
		return !strings.Contains(r.clientText(), "akk —") && !strings.Contains(r.clientText(), "jump failed")
	})
}
