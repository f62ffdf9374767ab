package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/web"
)

// WebCmd is `akk web`: the phone-friendly page, its own process over the
// daemon's API (internal/web); `akk web sessions` lists and revokes the
// browsers paired with it, through its control socket.
type WebCmd struct {
	Serve    WebServeCmd    `cmd:"" default:"withargs" help:"Serve the page (what akk web does without a subcommand)."`
	Sessions WebSessionsCmd `cmd:"" help:"List the browsers paired with a running akk web (--revoke ID unpairs one)."`
}

// WebServeCmd serves the page.
type WebServeCmd struct {
	DaemonFlags
	Listen string   `help:"Loopback address to serve on (reach it from a phone through a tunnel: tailscale serve, ssh -L)." default:"127.0.0.1:7717" placeholder:"HOST:PORT"`
	Origin []string `help:"An address the page is reached at through a tunnel, as the browser shows it (e.g. https://box.tailnet.ts.net); repeatable." placeholder:"URL"`
	Pair   bool     `help:"Print a one-time pairing link (and its QR code) for a browser; valid 10 minutes."`
	Config string   `help:"The configuration file whose [web] table names tunnels of another uid (allow_uids) and session_max_age (default: $XDG_CONFIG_HOME/akk/config.toml, if present)." placeholder:"FILE" type:"path"`
}

// Run serves the page until interrupted.
func (c *WebServeCmd) Run(ctx context.Context, cl *api.Client, g *Globals) error {
	var level slog.Level
	_ = level.UnmarshalText([]byte(g.LogLevel))
	lg := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	set, err := loadAttachConfig(c.Config)
	if err != nil {
		return err
	}
	if _, err := cl.Health(ctx); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("%w: --listen %q: %v", errUsage, c.Listen, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%w: --listen %q: akk web serves loopback only; reach it from elsewhere through a tunnel (tailscale serve, ssh -L) and name the tunnel's address with --origin", errUsage, c.Listen)
	}
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return fmt.Errorf("akk web: %w", err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	sessions := web.NewSessions(nil, set.Web.SessionMaxAge.Duration)
	cfgPath := c.Config
	if cfgPath == "" {
		cfgPath = defaultConfigPath()
	}
	srv, err := web.New(web.Config{Backend: web.APIBackend{Client: cl}, Listen: addr, Origins: c.Origin,
		Sessions: sessions, Logger: lg, AllowUIDs: set.Web.AllowUIDs, ConfigPath: cfgPath})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	_, port, _ := net.SplitHostPort(addr)
	ctl, err := api.Listen(web.ControlPath(filepath.Dir(c.socket()), port))
	if err != nil {
		return fmt.Errorf("akk web: control socket: %w", err)
	}
	base := "http://" + addr
	if len(c.Origin) > 0 {
		base = strings.TrimSuffix(c.Origin[0], "/")
	}
	var pairURL string
	if c.Pair {
		pairURL = base + "/pair?code=" + sessions.NewCode()
	}
	c.announce(os.Stdout, g.JSON, base, pairURL)
	// The daemon's notices link to the page while it serves (a daemon on
	// this machine: one reached with --host has its own).
	if len(c.Host) == 0 {
		if unannounce, err := api.AnnounceWeb(cl.Socket(), base); err != nil {
			lg.Warn("notices will not link to the page", "err", err)
		} else {
			defer unannounce()
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go srv.Run(ctx)
	go func() {
		owner := api.OwnerOnly(ctl, os.Getuid(), func(peer int, err error) {
			lg.Warn("web: control socket: connection refused", "peer_uid", peer, "err", err)
		})
		if err := web.ServeControl(ctx, owner, sessions); err != nil {
			lg.Warn("akk web sessions will not reach this akk web", "err", err)
		}
	}()
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ConnContext: web.ConnContext, // the peer's uid
		BaseContext: func(net.Listener) context.Context { return ctx }} // event streams end with ctx
	go func() {
		<-ctx.Done()
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		_ = hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("akk web: %w", err)
	}
	return nil
}

// announce says where the page is and, with --pair, how to pair.
func (c *WebServeCmd) announce(w io.Writer, asJSON bool, base, pairURL string) {
	if asJSON {
		_ = json.NewEncoder(w).Encode(map[string]any{"v": 1, "url": base + "/", "pair_url": pairURL,
			"pair_expires_in_s": int(web.CodeTTL / time.Second)})
		return
	}
	fmt.Fprintf(w, "akk web: serving %s/ (loopback %s)\n", base, c.Listen)
	if pairURL == "" {
		fmt.Fprintln(w, "Pair a browser: run akk web --pair (a one-time link).")
		return
	}
	fmt.Fprintf(w, "Pair a browser within %v: open\n  %s\n", web.CodeTTL, pairURL)
	if q, err := qrcode.New(pairURL, qrcode.Medium); err == nil {
		fmt.Fprint(w, q.ToSmallString(false))
	}
}

// WebSessionsCmd is `akk web sessions`: the paired browsers of the akk web
// on --listen's port, named by their user agents; --revoke unpairs one
// (its cookie opens nothing from its next request on). It reaches that
// akk web through its control socket beside the daemon's
// (internal/web/control.go), checked as every akk socket is.
type WebSessionsCmd struct {
	DaemonFlags
	Listen string `help:"The address that akk web serves on (its port names its control socket)." default:"127.0.0.1:7717" placeholder:"HOST:PORT"`
	Revoke string `help:"Unpair the browser of this session id." placeholder:"ID"`
}

// Run lists, or revokes one.
func (c *WebSessionsCmd) Run(ctx context.Context, g *Globals, stdout io.Writer) error {
	_, port, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("%w: --listen %q: %v", errUsage, c.Listen, err)
	}
	path := web.ControlPath(filepath.Dir(c.socket()), port)
	if c.Revoke != "" {
		if err := web.RevokeSession(ctx, path, c.Revoke); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked %s\n", c.Revoke)
		return nil
	}
	list, err := web.ListSessions(ctx, path)
	if err != nil {
		return err
	}
	if g.JSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"v": 1, "sessions": list})
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No browser is paired (akk web --pair prints a pairing link).")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPAIRED\tLAST SEEN\tEXPIRES\tBROWSER")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.ID, s.Created.Local().Format(time.DateTime),
			s.LastSeen.Local().Format(time.DateTime), s.Expires.Local().Format(time.DateTime), s.UserAgent)
	}
	return tw.Flush()
}
