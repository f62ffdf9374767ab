package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// guard decides which requests reach the page at all (DESIGN invariant
// 10): a Host that is the listen address or an origin the user named
// (so a DNS-rebound name never reads the page), and on every request that
// changes something an Origin among those, from the same site.
type guard struct {
	hosts   map[string]bool
	origins map[string]bool
	https   map[string]bool // hosts reached through an https origin
}

// newGuard allows the loopback listen address and each of origins
// (scheme://host[:port], as the browser sends it in Origin).
func newGuard(listen string, origins []string) (*guard, error) {
	g := &guard{hosts: map[string]bool{}, origins: map[string]bool{}, https: map[string]bool{}}
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", listen, err)
	}
	local := []string{host}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		local = append(local, "localhost")
	}
	for _, h := range local {
		hp := net.JoinHostPort(h, port)
		g.hosts[hp] = true
		g.origins["http://"+hp] = true
	}
	for _, o := range origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
			return nil, fmt.Errorf("--origin %q: want scheme://host[:port], as the browser's address bar shows it", o)
		}
		host := strings.ToLower(u.Host)
		g.hosts[host] = true
		g.origins[u.Scheme+"://"+host] = true
		if u.Scheme == "https" {
			g.https[host] = true
		}
	}
	return g, nil
}

var (
	errHost   = errors.New("this address is not one akk web serves (start it with --origin for a tunnel's name)")
	errOrigin = errors.New("a request from another site (Origin) is refused")
)

// check refuses a request from a host or (when it changes state) an
// origin that was not allowed.
func (g *guard) check(r *http.Request) error {
	if !g.hosts[strings.ToLower(r.Host)] {
		return errHost
	}
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return nil
	}
	if !g.origins[strings.ToLower(r.Header.Get("Origin"))] {
		return errOrigin
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" {
		return errOrigin
	}
	return nil
}

// secure reports whether the browser reached r through https (a tunnel
// that terminates TLS), so the cookie may be Secure.
func (g *guard) secure(r *http.Request) bool { return g.https[strings.ToLower(r.Host)] }

// headers every response carries: no framing, no sniffing, a referrer
// only to this origin (a pairing link's code stays out of other sites'
// logs; with no referrer at all Chromium sends "Origin: null" on a
// same-origin form POST, which the guard must refuse), no caching of
// a prompt, and scripts and styles from this origin only (inline style
// attributes carry the cells' colours; scripts never run inline).
func headers(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; "+
		"style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; "+
		"frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}
