package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"time"

	"github.com/agent-knock-knock/akk/api"
)

// Backend is what the page talks to: the daemon's API.
type Backend interface {
	List(ctx context.Context) (api.ListResponse, error)
	Health(ctx context.Context) (api.Health, error)
	// Events follows the daemon's events after seq until ctx ends.
	Events(ctx context.Context, after uint64, fn func(api.Event) error) error
	// As acts as a controller: a paired browser's own offers.
	As(controller string) Actor
}

// Actor is the daemon's API as one controller.
type Actor interface {
	Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error)
	Approve(ctx context.Context, req api.ApproveRequest) (api.ActionResult, error)
	Respond(ctx context.Context, req api.RespondRequest) (api.ActionResult, error)
}

// APIBackend is the Backend of `akk web`: the daemon's client.
type APIBackend struct{ *api.Client }

// Events follows the daemon's event log.
func (b APIBackend) Events(ctx context.Context, after uint64, fn func(api.Event) error) error {
	return b.Client.Events(ctx, after, true, fn)
}

// As is the client acting as controller.
func (b APIBackend) As(controller string) Actor { return b.Client.As(controller) }

// Config of a Server.
type Config struct {
	Backend Backend
	// Listen is the address the server is reached at on loopback
	// (host:port, the port resolved).
	Listen string
	// Origins are the further scheme://host[:port] a tunnel serves the
	// page at (tailscale serve, ssh -L to another port).
	Origins  []string
	Sessions *Sessions
	Logger   *slog.Logger
	Now      func() time.Time
	// AllowUIDs are the uids besides akk web's own whose connections are
	// served: the tunnels' (web.allow_uids; peer.go).
	AllowUIDs []int
	// ConfigPath is the configuration file the refusal tells a person
	// to add allow_uids to.
	ConfigPath string
	// PeerUID tells the uid of the process at the other end of r's
	// connection (nil: what ConnContext looked up; tests inject one).
	PeerUID func(r *http.Request) (int, error)
}

// Server is the page's HTTP handler and its event follower.
type Server struct {
	b     Backend
	guard *guard
	sess  *Sessions
	lg    *slog.Logger
	now   func() time.Time
	hub   *hub
	tmpl  *template.Template
	key   []byte // the shown digests' secret
	mux   *http.ServeMux

	uid        int // akk web's own
	allowUIDs  []int
	configPath string
	peerUID    func(*http.Request) (int, error)
}

//go:embed assets
var assets embed.FS

// cookieName is the session cookie.
const cookieName = "akk_session"

// New checks cfg and builds the server.
func New(cfg Config) (*Server, error) {
	if cfg.Backend == nil || cfg.Sessions == nil {
		return nil, errors.New("web: a backend and a session store are required")
	}
	g, err := newGuard(cfg.Listen, cfg.Origins)
	if err != nil {
		return nil, err
	}
	tmpl, err := template.ParseFS(assets, "assets/*.html")
	if err != nil {
		return nil, err
	}
	s := &Server{b: cfg.Backend, guard: g, sess: cfg.Sessions, lg: cfg.Logger, now: cfg.Now, hub: newHub(),
		tmpl: tmpl, key: random(32), mux: http.NewServeMux(),
		uid: ownUID(), allowUIDs: cfg.AllowUIDs, configPath: cfg.ConfigPath, peerUID: cfg.PeerUID}
	if s.peerUID == nil {
		s.peerUID = connPeerUID
	}
	if s.configPath == "" {
		s.configPath = "akk's config.toml"
	}
	if s.lg == nil {
		s.lg = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.routes()
	return s, nil
}

// Run follows the daemon's events for the pages until ctx ends.
func (s *Server) Run(ctx context.Context) { s.hub.follow(ctx, s.b, s.lg) }

func (s *Server) routes() {
	static := http.FileServerFS(assets)
	s.mux.Handle("GET /assets/", static)
	s.mux.HandleFunc("GET /pair", s.pairPage)
	s.mux.HandleFunc("POST /pair", s.pairRedeem)
	s.mux.HandleFunc("GET /{$}", s.paired(s.page))
	s.mux.HandleFunc("GET /frag/list", s.paired(s.listFrag))
	s.mux.HandleFunc("GET /frag/detail", s.paired(s.detailFrag))
	s.mux.HandleFunc("POST /answer", s.paired(s.answer))
	s.mux.HandleFunc("GET /events", s.paired(func(w http.ResponseWriter, r *http.Request, _ *Session) {
		s.hub.serveEvents(w, r)
	}))
}

// MaxForm bounds a POST's body (a form: the longest is an answer's text,
// api.MaxAnswerText, URL-encoded). A larger one is answered 413 with the
// limit named.
const MaxForm = 256 << 10

// ServeHTTP checks the connection's peer, guards every request, reads a
// POST's form within MaxForm, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	headers(w.Header())
	if msg, _ := s.peerRefusal(r); msg != "" {
		http.Error(w, msg, http.StatusForbidden)
		return
	}
	if err := s.guard.check(r); err != nil {
		s.lg.Warn("web: refused", "method", r.Method, "path", r.URL.Path, "host", r.Host, "origin", r.Header.Get("Origin"), "err", err)
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	if r.Method == http.MethodPost && !s.readForm(w, r) {
		return
	}
	s.mux.ServeHTTP(w, r)
}

// readForm parses a POST's form within MaxForm, or answers 413 (a body
// that says or turns out to be larger) or 400 and returns false.
func (s *Server) readForm(w http.ResponseWriter, r *http.Request) bool {
	tooLarge := r.ContentLength > MaxForm
	if !tooLarge {
		r.Body = http.MaxBytesReader(w, r.Body, MaxForm)
		err := r.ParseForm()
		var mbe *http.MaxBytesError
		if tooLarge = errors.As(err, &mbe); !tooLarge && err != nil {
			http.Error(w, "akk web: the form does not read: "+err.Error(), http.StatusBadRequest)
			return false
		}
	}
	if tooLarge {
		s.lg.Warn("web: refused a body over the limit", "path", r.URL.Path, "limit", MaxForm)
		http.Error(w, fmt.Sprintf("akk web: the request body exceeds %d bytes: nothing was sent", MaxForm), http.StatusRequestEntityTooLarge)
		return false
	}
	return true
}

// paired runs h for a paired browser's request, and for a POST only with
// the session's CSRF token; anything else gets the pairing help.
func (s *Server) paired(h func(http.ResponseWriter, *http.Request, *Session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var sess *Session
		if c, err := r.Cookie(cookieName); err == nil {
			sess, _ = s.sess.Lookup(c.Value)
		}
		if sess == nil {
			w.WriteHeader(http.StatusUnauthorized)
			s.render(w, "unpaired", nil)
			return
		}
		if r.Method == http.MethodPost {
			tok := r.Header.Get("X-Akk-CSRF")
			if tok == "" {
				tok = r.PostFormValue("csrf")
			}
			if !sess.CheckCSRF(tok) {
				s.lg.Warn("web: refused a POST without the session's CSRF token", "session", sess)
				http.Error(w, "refused: the request did not carry this page's token (reload the page)", http.StatusForbidden)
				return
			}
		}
		h(w, r, sess)
	}
}

func (s *Server) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl.ExecuteTemplate(w, name, data); err != nil {
		s.lg.Error("web: template", "name", name, "err", err)
	}
}

// pairPage shows a button that redeems the link's code: a GET never
// consumes it, so a chat app's link preview cannot use it up.
func (s *Server) pairPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, "pair", map[string]string{"Code": r.URL.Query().Get("code")})
}

func (s *Server) pairRedeem(w http.ResponseWriter, r *http.Request) {
	sess, cookie, ok := s.sess.Redeem(r.PostFormValue("code"), r.UserAgent())
	if !ok {
		w.WriteHeader(http.StatusForbidden)
		s.render(w, "pair", map[string]string{"Bad": "This pairing code was already used or has expired. Run akk web --pair for a new link."})
		return
	}
	s.lg.Info("web: a browser paired", "session", sess)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: cookie, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: s.guard.secure(r), MaxAge: int(s.sess.MaxAge() / time.Second)})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// pageView is the whole page.
type pageView struct {
	CSRF   string
	List   listView
	Detail *detailView
}

func (s *Server) page(w http.ResponseWriter, r *http.Request, sess *Session) {
	pv := pageView{CSRF: sess.CSRF}
	sel := r.URL.Query().Get("t")
	pv.List = s.list(r.Context(), sel)
	if sel == "" && len(pv.List.Items) > 0 {
		sel = pv.List.Items[0].ID
		pv.List = s.list(r.Context(), sel)
	}
	if sel != "" {
		d := s.detail(r.Context(), sess, sel)
		pv.Detail = &d
	}
	s.render(w, "page", pv)
}

func (s *Server) list(ctx context.Context, sel string) listView {
	l, err := s.b.List(ctx)
	if err != nil {
		return listView{Err: err.Error()}
	}
	return newListView(l, s.now(), sel)
}

func (s *Server) listFrag(w http.ResponseWriter, r *http.Request, _ *Session) {
	s.render(w, "list", s.list(r.Context(), r.URL.Query().Get("t")))
}

// detail makes a fresh Status for this browser (its offer) and shows it.
func (s *Server) detail(ctx context.Context, sess *Session, id string) detailView {
	st, err := s.b.As(sess.Controller()).Status(ctx, api.StatusRequest{TerminalID: id, Render: true})
	if err != nil {
		return detailView{ID: id, Msg: "status: " + err.Error(), MsgBad: true}
	}
	return newDetailView(st, digest(s.key, st), sess.CSRF)
}

func (s *Server) detailFrag(w http.ResponseWriter, r *http.Request, sess *Session) {
	s.render(w, "detail", s.detail(r.Context(), sess, r.URL.Query().Get("t")))
}
