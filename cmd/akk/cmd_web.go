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
	"strings"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/web"
)

// WebCmd is `akk web`: the phone-friendly page, its own process over the
// daemon's API (internal/web).
type WebCmd struct {
	DaemonFlags
	Listen string   `help:"Loopback address to serve on (reach it from a phone through a tunnel: tailscale serve, ssh -L)." default:"127.0.0.1:7717" placeholder:"HOST:PORT"`
	Origin []string `help:"An address the page is reached at through a tunnel, as the browser shows it (e.g. https://box.tailnet.ts.net); repeatable." placeholder:"URL"`
	Pair   bool     `help:"Print a one-time pairing link (and its QR code) for a browser; valid 10 minutes."`
}

// Run serves the page until interrupted.
func (c *WebCmd) Run(ctx context.Context, cl *api.Client, g *Globals) error {
	var level slog.Level
	_ = level.UnmarshalText([]byte(g.LogLevel))
	lg := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
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
	sessions := web.NewSessions(nil)
	srv, err := web.New(web.Config{Backend: web.APIBackend{Client: cl}, Listen: addr, Origins: c.Origin,
		Sessions: sessions, Logger: lg})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
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
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second,
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
func (c *WebCmd) announce(w io.Writer, asJSON bool, base, pairURL string) {
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
