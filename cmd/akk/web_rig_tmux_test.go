package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/agent-knock-knock/akk/internal/akkbin"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/internal/web"
)

// webRig is a person with a phone: the popup rig's tmux server, replica
// and daemon, `akk web` in its own process, and headless Chromium at a
// phone's size driving the page.
type webRig struct {
	*popupRig
	url, pairURL string
	ctx          context.Context // the browser tab
}

// phoneW, phoneH is the phone the page is checked at (CSS px).
const phoneW, phoneH = 390, 844

// chromiumPath is Debian's Chromium, installed by .ci/run.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("AKK_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	tmuxtest.Require(t, "chromium", false, "Chromium not found (apt-get install chromium, or set AKK_CHROMIUM)")
	return ""
}

func newWebRig(t *testing.T, cast string) *webRig {
	t.Helper()
	chromium := chromiumPath(t)
	r := &webRig{popupRig: newPopupRig(t, cast)}
	r.startWeb()
	r.startBrowser(chromium)
	return r
}

// startWeb runs `akk web --pair --json` on a free loopback port and reads
// where it serves and its pairing link.
func (r *webRig) startWeb() {
	t := r.t
	logf, err := os.Create(filepath.Join(t.TempDir(), "web.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(r.akk, "--json", "--log-level", "debug", "web", "--socket", r.api.Socket(),
		"--listen", "127.0.0.1:0", "--pair")
	cmd.Stderr = logf
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := akkbin.Stop(cmd, os.Interrupt, 10*time.Second); err != nil {
			t.Errorf("akk web on SIGINT: %v", err)
		}
		logf.Close()
		if t.Failed() {
			data, _ := os.ReadFile(logf.Name())
			t.Logf("akk web's log:\n%s", data)
		}
	})
	line, err := bufio.NewReader(out).ReadBytes('\n')
	if err != nil {
		t.Fatalf("akk web said nothing: %v", err)
	}
	var ann struct {
		URL     string `json:"url"`
		PairURL string `json:"pair_url"`
	}
	if err := json.Unmarshal(line, &ann); err != nil || ann.PairURL == "" {
		t.Fatalf("akk web announced %q: %v", line, err)
	}
	r.url, r.pairURL = ann.URL, ann.PairURL
}

func (r *webRig) startBrowser(path string) {
	t := r.t
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true), chromedp.WindowSize(phoneW, phoneH))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	t.Cleanup(func() { cancelC(); cancelA() })
	r.ctx = ctx
	// The first run starts the browser, on a context without a deadline.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(phoneW, phoneH, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatalf("chromium: %v", err)
	}
}

// run performs browser steps within 30 s.
func (r *webRig) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		r.fail(what, err)
	}
}

func (r *webRig) fail(what string, err error) {
	r.t.Helper()
	body, _ := chromedp.Run(r.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	r.t.Fatalf("browser: %s: %v\npage:\n%s", what, err, body)
}

// eval evaluates a JavaScript expression into a T.
func eval[T any](r *webRig, expr string) T {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		r.fail("evaluate "+expr, err)
	}
	return v
}

// awaitJS waits until expr is truthy in the page.
func (r *webRig) awaitJS(what, expr string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(10*time.Millisecond),
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		r.fail(what, err)
	}
}

// pair opens the pairing link and presses its button, as the person does.
func (r *webRig) pair() {
	r.run("pair", chromedp.Navigate(r.pairURL), chromedp.WaitVisible(chromedp.ID("pair")),
		chromedp.Click(chromedp.ID("pair")), chromedp.WaitVisible(chromedp.CSS("#list")))
	r.awaitJS("the live stream", `document.querySelector("#live.on") !== null`)
}

// detailHas waits for the detail to show text.
func (r *webRig) detailHas(text string) {
	r.t.Helper()
	r.awaitJS("the detail to show "+text, fmt.Sprintf(`(document.querySelector("#detail") || {}).textContent.includes(%q)`, text))
}

// click presses the answer button whose label contains label.
func (r *webRig) click(label string) {
	r.t.Helper()
	ok := eval[bool](r, fmt.Sprintf(`(() => { for (const b of document.querySelectorAll("#detail form.choice button")) {
		if (b.textContent.includes(%q) && !b.disabled) { b.click(); return true } } return false })()`, label))
	if !ok {
		body := eval[string](r, `document.body.innerText`)
		r.t.Fatalf("no button %q on the page:\n%s", label, body)
	}
}

// cellColours are the computed text and background colours of the page's
// prompt at the first character of text (a cell without a background of
// its own shows the box's).
func (r *webRig) cellColours(text string) (fg, bg string, ok bool) {
	res := eval[struct {
		FG string `json:"fg"`
		BG string `json:"bg"`
	}](r, fmt.Sprintf(`((text) => {
		const scr = document.querySelector("#detail .screen");
		if (!scr) return {fg: "", bg: ""};
		for (const row of scr.querySelectorAll(".row")) {
			let off = row.textContent.indexOf(text);
			if (off < 0) continue;
			for (const n of row.childNodes) {
				const len = n.textContent.length;
				if (off < len) {
					const cs = getComputedStyle(n.nodeType === 1 ? n : row);
					let bg = cs.backgroundColor;
					if (bg === "rgba(0, 0, 0, 0)") bg = getComputedStyle(scr).backgroundColor;
					return {fg: cs.color, bg: bg};
				}
				off -= len;
			}
		}
		return {fg: "", bg: ""};
	})(%q)`, text))
	return res.FG, res.BG, res.FG != ""
}

// samePaneColours requires the page's prompt to show each text in the
// colours of the pane's own cells.
func (r *webRig) samePaneColours(texts ...string) {
	r.t.Helper()
	for _, text := range texts {
		cell, ok := r.paneCell(text)
		if !ok {
			r.t.Fatalf("%q is not in the pane", text)
		}
		wantFG, wantBG := web.ColorOf(cell.Style)
		fg, bg, ok := r.cellColours(text)
		if !ok || fg != wantFG || bg != wantBG {
			r.t.Errorf("%q on the page: %s on %s; the pane's cell: %s on %s (%+v)", text, fg, bg, wantFG, wantBG, cell.Style)
		}
	}
}

// cookie is the page's session cookie, as the browser holds it.
func (r *webRig) cookie() string {
	res, err := chromedp.Call(r.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{r.url}})
	if err != nil {
		r.fail("cookies", err)
	}
	for _, c := range res.Cookies {
		if c.Name == "akk_session" {
			if !c.HTTPOnly || c.SameSite != network.CookieSameSiteStrict {
				r.t.Errorf("session cookie %+v: want HttpOnly, SameSite=Strict", c)
			}
			return c.Value
		}
	}
	r.t.Fatal("no session cookie after pairing")
	return ""
}

// screenshotPhone writes the page at phone size to $AKK_SCREENSHOTS/name.
func (r *webRig) screenshotPhone(name string) {
	dir := os.Getenv("AKK_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(r.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		r.fail("screenshot", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		r.t.Fatal(err)
	}
}
