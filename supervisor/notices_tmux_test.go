package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/dbustest"
	"github.com/agent-knock-knock/akk/internal/ptyclient"
	"github.com/agent-knock-knock/akk/internal/tmuxtest"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// ntfyTemplate is the README's ntfy example: a JSON publish to the
// server's root with the person's notice.
const ntfyTemplate = `{"topic":"akk","title":{{json .Title}},"message":{{json .Message}},"click":{{json .Link}}}`

// TestTmuxPersonNotices: an agent a person started themselves (no Watch,
// no Turn; a strict Claude Code replica) asks permission, and each of the
// person's routes says which agent and what it asks: a desktop
// notification on a private D-Bus bus, an OSC 9 on the tty of the real
// tmux client attached (whole, once, and that client's screen still the
// pane's), and an ntfy publish through a webhook marked person, with the
// web page's link while `akk web` is announced. One notice per route for
// the prompt, nothing else in them, and the replica ends clean: the
// notices sent the agent nothing.
func TestTmuxPersonNotices(t *testing.T) {
	akk := tmuxAkk(t)
	bus := dbustest.Start(t)
	desk := bus.Serve(t)
	phone := startPublishSink(t)
	const w, h = 120, 40
	srv := tmuxtest.Start(t, w, h, "sh")
	srv.MustRun("set-option", "-g", "default-size", "120x40")
	srv.MustRun("set-option", "-g", "status", "off")
	srv.MustRun("set-option", "-g", "remain-on-exit", "on")
	d := startDaemon(t, srv, daemonOpts{callbacks: outbox.Config{Default: []string{}, Routes: []outbox.RouteConfig{
		{Name: "desk", Kind: outbox.RouteDesktop, Bus: bus.Addr, Timeout: 5 * time.Second},
		{Name: "term", Kind: outbox.RouteTerminal, Timeout: 5 * time.Second},
		{Name: "phone", Kind: outbox.RouteWebhook, Person: true, URL: phone.url, BodyTemplate: ntfyTemplate, Timeout: 5 * time.Second},
	}}})
	unannounce, err := api.AnnounceWeb(d.sock, "https://box.example.ts.net")
	if err != nil {
		t.Fatal(err)
	}
	defer unannounce()
	ctx, client := driverClient(t, srv, 2*time.Minute)

	rc := replicaPanes(t, srv, akk, [][3]string{{"claude", "2.1.267", "permission-approve"}})[0]
	srv.MustRun("select-window", "-t", rc.pane)
	person := ptyclient.Attach(t, srv, "main", w, h)
	r := newReplicaDriver(t, ctx, d, client, rc)
	r.toMarker(0)
	lap := time.Now()
	st, err := d.cl.Status(ctx, api.StatusRequest{TerminalID: r.row().TerminalID})
	if err != nil {
		t.Fatal(err)
	}
	in, row := st.Terminal.Interaction, st.Terminal
	if in == nil || in.Kind != contract.KindPermission || in.Tool != contract.ToolShell {
		t.Fatalf("the replica shows no shell permission: %+v", in)
	}
	// A permission's notice names the tool, never the command.
	title := "Claude Code asks permission to run a shell command"
	where := row.Session + ":" + row.Window + " · " + tilde(row.Cwd)
	link := "https://box.example.ts.net/?t=" + row.TerminalID

	got, err := desk.Await(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g := got[0]; g.App != "akk" || g.Summary != title || g.Body != where+"\n"+link {
		t.Errorf("desktop notice %q / %q, want %q / %q", g.Summary, g.Body, title, where+"\n"+link)
	}
	t.Logf("figure: the desktop notice was there %v after the status showing the prompt returned", time.Since(lap).Round(time.Millisecond))

	osc := "\x1b]9;akk: " + title + " · " + where + "\a"
	tmuxtest.Await(t, 10*time.Second, func() string {
		if !bytes.Contains(person.Bytes(), []byte(osc)) {
			return "the client's terminal never got " + strings.ReplaceAll(osc, "\x1b", "ESC")
		}
		return ""
	})
	if n := bytes.Count(person.Bytes(), []byte("\x1b]9;")); n != 1 {
		t.Errorf("the client's terminal got %d OSC 9 sequences, want 1", n)
	}
	tmuxtest.Await(t, 10*time.Second, func() string {
		pane := lines(string(srv.MustRun("capture-pane", "-p", "-t", rc.pane)))
		if seen := lines(person.Text()); seen != pane {
			return "the client's screen is not the pane's:\n" + seen + "\n--- tmux:\n" + pane
		}
		return ""
	})

	pub := phone.await(t, ctx, 1)[0]
	wantPub := map[string]string{"topic": "akk", "title": title, "message": where, "click": link}
	var gotPub map[string]string
	if err := json.Unmarshal(pub, &gotPub); err != nil || len(gotPub) != len(wantPub) {
		t.Errorf("ntfy publish %s (%v), want %v", pub, err, wantPub)
	}
	for k, v := range wantPub {
		if gotPub[k] != v {
			t.Errorf("ntfy publish %s = %q, want %q", k, gotPub[k], v)
		}
	}

	// The person answers in the pane; the replica ends clean.
	r.finish(srv)
	ns, err := d.st.Notifications(func(n *store.Notification) bool { return n.Subject == row.TerminalID })
	if err != nil {
		t.Fatal(err)
	}
	routes := map[string]string{}
	for _, n := range ns {
		routes[n.Route] += n.State + " "
	}
	if len(ns) != 3 || routes["desk"] != "accepted " || routes["term"] != "accepted " || routes["phone"] != "accepted " {
		t.Errorf("the prompt's notices: %v, want one accepted per route", routes)
	}
	if n := len(desk.Notices()); n != 1 {
		t.Errorf("%d desktop notices, want 1", n)
	}
}

// tilde writes the home as ~, as a notice does.
func tilde(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "/" {
		if rest, ok := strings.CutPrefix(p, home); ok && (rest == "" || rest[0] == '/') {
			return "~" + rest
		}
	}
	return p
}

// lines is a screen's text without trailing blanks.
func lines(s string) string {
	ls := strings.Split(s, "\n")
	for i := range ls {
		ls[i] = strings.TrimRight(ls[i], " ")
	}
	return strings.TrimRight(strings.Join(ls, "\n"), "\n")
}

// publishSink is an ntfy-like server on 127.0.0.1 that keeps every body.
type publishSink struct {
	url     string
	mu      sync.Mutex
	bodies  [][]byte
	changed chan struct{}
}

func startPublishSink(t *testing.T) *publishSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &publishSink{url: "http://" + ln.Addr().String() + "/", changed: make(chan struct{})}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		p.mu.Lock()
		p.bodies = append(p.bodies, b)
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
		w.Write([]byte(`{"id":"x"}`))
	})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return p
}

func (p *publishSink) await(t *testing.T, ctx context.Context, n int) [][]byte {
	t.Helper()
	for {
		p.mu.Lock()
		got, ch := append([][]byte(nil), p.bodies...), p.changed
		p.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("%d publishes, want %d", len(got), n)
		}
	}
}
