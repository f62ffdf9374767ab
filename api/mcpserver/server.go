package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-knock-knock/akk/api"
)

// Name and version the server reports to hosts.
const (
	ImplementationName = "akk"
	implementationNote = "akk: agent_knock_knock tools for coding agents in tmux panes"
)

// instructions is what a host shows its model about the server as a whole.
const instructions = `akk supervises coding agents running in tmux panes (list and status name each terminal's agent and version).
Start with agent_knock_knock_list, then agent_knock_knock_status for the terminal, Turn or Watch you mean.
Act only through the semantic ids those results give (term_, turn_, watch_, ses_, int_, q_, opt_, ntf_).
Approving a prompt or answering an agent's question needs the user's explicit intent: show the user the
status first and act only on their decision. A result with do_not_retry true must never be retried.
Wake-ups (akk://wakeups, log messages) are signals only: call status again before acting on one.`

// Options configure a Server.
type Options struct {
	// Socket is the daemon's API socket.
	Socket string
	// Client, if set, is the daemon client each session derives its own
	// from (with its controller name) instead of one on Socket: daemons
	// on other machines (akk mcp --host).
	Client *api.Client
	// Version is reported to hosts.
	Version string
	// Logger logs the server's own activity (never tool arguments).
	Logger *slog.Logger
	// Owner names the host (`akk mcp --controller NAME`, trusted host
	// configuration, never a tool argument): every session of every
	// process with the same Owner is controller `mcp:NAME#<session>`, so
	// the Turns and Watches it makes survive the host restarting its MCP
	// server, while each session's offers stay its own. "": every
	// session is an owner of its own (`mcp:<random>`).
	Owner string
	// Token is the bearer token every HTTP request must carry
	// (api.ReadToken of the file the daemon made); ServeHTTP refuses to
	// start without one. Unused on stdio, where the host owns the pipe.
	Token api.Token
	// PeerUID looks up the uid at the other end of an HTTP connection
	// (procid.ConnPeerUID); nil refuses every connection.
	PeerUID api.PeerLookup
}

// Server is the MCP server: one mcp.Server, one daemon client per MCP
// session (each with its own controller name), and the wake-up feed.
type Server struct {
	opts    Options
	lg      *slog.Logger
	srv     *mcp.Server
	wakeups *wakeupFeed

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
}

// session is what one MCP session acts as.
type session struct {
	controller string
	client     *api.Client
}

// New builds the server and registers its tools and resources.
func New(opts Options) *Server {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{opts: opts, lg: lg, sessions: map[*mcp.ServerSession]*session{}}
	s.wakeups = newWakeupFeed()
	s.srv = mcp.NewServer(&mcp.Implementation{Name: ImplementationName, Title: implementationNote, Version: opts.Version},
		&mcp.ServerOptions{
			Instructions: instructions,
			Logger:       lg,
			// Resource subscriptions carry the wake-ups; nothing to
			// set up per subscriber.
			SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
			UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		})
	s.addTools()
	s.addResources()
	return s
}

// MCP is the underlying SDK server (tests connect in-memory transports).
func (s *Server) MCP() *mcp.Server { return s.srv }

// Run serves one session on t (stdio: &mcp.StdioTransport{}) and follows
// the daemon's events for wake-ups until ctx ends or the host hangs up.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.FollowEvents(ctx)
	defer s.closeSessions()
	if err := s.srv.Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcpserver: %w", err)
	}
	return nil
}

// RunStdio serves one session on the process's stdin and stdout, as a
// host that starts `akk mcp` expects. A host that closes stdin right after
// its last request still gets every reply (drainTransport).
func (s *Server) RunStdio(ctx context.Context) error {
	return s.Run(ctx, drainTransport{inner: &mcp.StdioTransport{}})
}

// sessionOf returns the daemon client of an MCP session, creating it (and
// its controller name) on the session's first call. Sessions that have
// ended are dropped at the same time, so the map stays as small as the
// set of live sessions.
func (s *Server) sessionOf(ss *mcp.ServerSession) (*session, error) {
	if ss == nil {
		return nil, errors.New("mcpserver: a tool call without an MCP session")
	}
	if s.opts.Owner != "" && !api.ValidOwnerName(s.opts.Owner) {
		// cmd/akk validates the flag; a server given a bad name acts as
		// nobody rather than as somebody else.
		return nil, fmt.Errorf("mcpserver: owner name %q is not valid", s.opts.Owner)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if se, ok := s.sessions[ss]; ok {
		return se, nil
	}
	live := map[*mcp.ServerSession]bool{}
	for x := range s.srv.Sessions() {
		live[x] = true
	}
	for x, se := range s.sessions {
		if !live[x] {
			se.client.Close()
			delete(s.sessions, x)
		}
	}
	name, err := newControllerName(s.opts.Owner)
	if err != nil {
		return nil, err
	}
	var cl *api.Client
	if s.opts.Client != nil {
		cl = s.opts.Client.As(name)
	} else {
		cl = api.NewClient(s.opts.Socket)
		cl.SetController(name)
	}
	se := &session{controller: name, client: cl}
	s.sessions[ss] = se
	// The controller name is not logged: it scopes offers, and the log
	// may be shown to the model by its host.
	s.lg.Info("mcp session started")
	return se, nil
}

func (s *Server) closeSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for x, se := range s.sessions {
		se.client.Close()
		delete(s.sessions, x)
	}
}

// newControllerName is "mcp:" and 26 random base32 characters (130 bits),
// after "NAME#" for a named owner: the random part scopes offers to one
// MCP session, so another session must not be able to guess it.
func newControllerName(owner string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("mcpserver: controller name: %w", err)
	}
	session := strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
	if owner != "" {
		return "mcp:" + owner + api.OwnerSep + session, nil
	}
	return "mcp:" + session, nil
}
