package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
)

// TestTmuxWebPermission: a phone pairs with `akk web`, sees the replica's
// permission prompt appear live with the pane's own colours, at a phone's
// size; requests without the cookie, from another Origin or without the
// CSRF token are refused and send nothing; the person approves once and
// the replica continues to the end of its recording.
func TestTmuxWebPermission(t *testing.T) {
	r := newWebRig(t, "claude/2.1.267/permission-approve.cast")
	ins := r.ins
	last := len(ins) - 1 // "1": the approval the page must make
	r.start(last - 1)    // the task is typed; its last input starts the turn
	r.pair()
	eval[bool](r, `(() => { window.__seen = 0; new MutationObserver(() => {
		if (!window.__seen && [...document.querySelectorAll("#detail form.choice button")].some(b => b.textContent.includes("Approve once")))
			window.__seen = Date.now(); }).observe(document.body, {subtree: true, childList: true}); return true })()`)
	r.drive(last-1, last)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.take(ctx, ins[last].After)
	shownAt := time.Now() // the prompt's last byte reached a control client
	r.awaitJS("the permission on the page", `window.__seen > 0`)
	seen := time.UnixMilli(int64(eval[float64](r, `window.__seen`)))
	t.Logf("figure: the page showed the permission %v after the prompt's last output byte (daemon recognition, event, SSE, fragment)",
		seen.Sub(shownAt).Round(time.Millisecond))

	r.samePaneColours("Bash command", "Do you want to proceed?")
	r.phoneLayout()
	r.screenshotPhone("web-phone-permission.png")
	r.refusedRequests()

	r.click("Approve once")
	r.detailHas("Sent (accepted)")
	r.finish("idle")
	if n := r.reservations(); n != 1 {
		t.Errorf("the daemon reserved %d inputs, want the one approval", n)
	}
}

// phoneLayout checks the page at 390x844: no horizontal page scroll (a
// wide prompt scrolls inside its own box) and tap targets of 44x44 CSS px.
func (r *webRig) phoneLayout() {
	r.t.Helper()
	if w := eval[int](r, `document.documentElement.scrollWidth`); w > phoneW {
		r.t.Errorf("the page scrolls sideways: scrollWidth %d > %d", w, phoneW)
	}
	box := eval[[]int](r, `(() => { const s = document.querySelector("#detail .screen"); return [s.scrollWidth, s.clientWidth] })()`)
	r.t.Logf("figure: the prompt box is %d CSS px wide inside a %d px box", box[0], box[1])
	if box[0] <= box[1] {
		r.t.Errorf("the 120-column prompt fits in %d px: it should scroll inside its box (%v)", box[1], box)
	}
	small := eval[[]string](r, `[...document.querySelectorAll("button, a.item, textarea")]
		.filter(e => e.offsetParent !== null)
		.filter(e => { const b = e.getBoundingClientRect(); return b.width < 44 || b.height < 44 })
		.map(e => e.outerHTML.slice(0, 80))`)
	if len(small) > 0 {
		r.t.Errorf("tap targets under 44x44 px: %q", small)
	}
}

// refusedRequests posts the page's own answer without the cookie, from
// another Origin, and without the CSRF token: each is refused, the pane
// gets nothing, and the daemon reserves no input.
func (r *webRig) refusedRequests() {
	t := r.t
	t.Helper()
	cookie := r.cookie()
	form := url.Values{
		"t":     {eval[string](r, `document.querySelector("#detail input[name=t]").value`)},
		"shown": {eval[string](r, `document.querySelector("#detail input[name=shown]").value`)},
		"c":     {"0"},
	}
	csrf := eval[string](r, `document.querySelector('meta[name="akk-csrf"]').content`)
	origin := strings.TrimSuffix(r.url, "/")
	for _, tc := range []struct {
		name                 string
		cookie, origin, csrf string
		want                 int
	}{
		{"without the cookie", "", origin, csrf, http.StatusUnauthorized},
		{"from another Origin", cookie, "http://evil.example", csrf, http.StatusForbidden},
		{"without the CSRF token", cookie, origin, "", http.StatusForbidden},
	} {
		req, _ := http.NewRequest("POST", r.url+"answer", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", tc.origin)
		if tc.cookie != "" {
			req.AddCookie(&http.Cookie{Name: "akk_session", Value: tc.cookie})
		}
		if tc.csrf != "" {
			req.Header.Set("X-Akk-CSRF", tc.csrf)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: HTTP %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
	r.nothingSent()
}

// nothingSent: the replica is alive at its prompt (a key would have made
// it exit within the grace period), the interaction is not resolved and
// the daemon reserved no input.
func (r *webRig) nothingSent() {
	r.t.Helper()
	time.Sleep(500 * time.Millisecond) // a negative check's grace period
	if dead, _ := r.paneDead(); dead {
		r.t.Fatal("the replica exited: it received input")
	}
	if in := r.row().Interaction; in != nil && in.State == contract.StateResolved {
		r.t.Errorf("the interaction was resolved: %+v", in)
	}
	if n := r.reservations(); n != 0 {
		r.t.Errorf("the daemon reserved %d inputs", n)
	}
}

// reservations counts the daemon's dispatch.reserved events.
func (r *webRig) reservations() int {
	n := 0
	err := r.api.Events(context.Background(), 0, false, func(e api.Event) error {
		if e.Type == api.EventDispatchReserved {
			n++
		}
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return n
}

// clickNth presses the i-th answer button.
func (r *webRig) clickNth(i int) {
	r.t.Helper()
	if !eval[bool](r, fmt.Sprintf(`(() => { const b = document.querySelectorAll("#detail form.choice button")[%d];
		if (!b || b.disabled) return false; b.click(); return true })()`, i)) {
		r.t.Fatalf("no answer button %d:\n%s", i, eval[string](r, `document.body.innerText`))
	}
}

// TestTmuxWebQuestionnaire answers a three-step questionnaire (two
// questions, then the review) one step at a time on the page.
func TestTmuxWebQuestionnaire(t *testing.T) {
	r := newWebRig(t, "claude/2.1.267/several-questions.cast")
	r.start(2) // the task; the page answers "1", "2" and the review
	r.awaitAttention("1 questionnaire")
	r.pair()
	r.detailHas("2. Rust")
	r.phoneLayout()
	r.screenshotPhone("web-phone-questionnaire.png")
	for _, step := range []struct {
		choice int
		next   string
	}{
		{0, "2. SQLite"},      // Language: Go, then the database question
		{1, "Submit answers"}, // Database: SQLite, then the review
		{0, ""},               // Submit
	} {
		r.clickNth(step.choice)
		r.detailHas("Sent (accepted)")
		if step.next != "" {
			r.detailHas(step.next)
		}
	}
	r.finish("idle")
}

// TestTmuxWebChangedPrompt: the pane's prompt changes between the page's
// render and the person's tap (the window is resized and the prompt laid
// out again); the answer sends nothing, says so, and shows the new state.
func TestTmuxWebChangedPrompt(t *testing.T) {
	r := newWebRig(t, "claude/2.1.267/permission-approve.cast")
	last := len(r.ins) - 1
	r.start(last)
	r.awaitAttention("1 permission")
	r.pair()
	r.detailHas("Approve once")
	// What the person saw, kept: the page itself updates live, so the
	// tap below lands on this rendering, as a slow thumb would.
	stale := eval[string](r, `document.querySelector("#detail").innerHTML`)
	r.narrowWindow()
	if !eval[bool](r, fmt.Sprintf(`(() => { document.querySelector("#detail").innerHTML = %q;
		for (const b of document.querySelectorAll("#detail form.choice button"))
			if (b.textContent.includes("Approve once")) { b.click(); return true }
		return false })()`, stale)) {
		t.Fatal("the kept rendering has no approve button")
	}
	r.detailHas("nothing was sent")
	r.nothingSent()
}
