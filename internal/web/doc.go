// Package web is `akk web`: a phone-friendly page over the daemon's API,
// for a person who answers their agents away from tmux.
//
// It is its own process and a client of the daemon's unix socket, as the
// popup is; the daemon never serves HTTP to a browser. The page lists the
// agents that need a person (the popup's ranking), shows each prompt
// region as HTML built from the vt cells with their real colours (never a
// screenshot, never the rest of the screen, so no draft), and answers with
// buttons carrying the projection's question and option ids.
//
// Safety rules (DESIGN invariants 7-10):
//   - A connection is served only when its peer's socket is owned by akk
//     web's own uid or a tunnel's uid the configuration names
//     (web.allow_uids; peer.go); another gets a page naming its uid and
//     the line that would allow it.
//   - It binds loopback; a request whose Host is not the listen address
//     or an --origin the user named is refused, and so is a POST whose
//     Origin is not one of those. TLS and reach are the tunnel's (tailscale
//     serve, ssh -L), never a face of ours.
//   - A browser is paired once with a one-time code (`akk web --pair`),
//     which becomes an HttpOnly, SameSite=Strict session cookie; every
//     POST also carries the session's CSRF token, and a form over MaxForm
//     is answered 413. A session lasts web.session_max_age (30 days by
//     default); `akk web sessions` lists and revokes them through a
//     private control socket (control.go).
//   - Each paired browser is its own controller, web:<session>, so the
//     offers its Status calls make are consumable by that browser only.
//   - An answer is sent only after a fresh Status for that browser shows
//     the same interaction and the same styled prompt the page showed
//     (internal/answer, as the popup); otherwise nothing is sent and the
//     page shows the new state.
//
// It uses html/template and ~150 lines of plain JavaScript embedded in
// the binary: no framework and no build step (the page is a handful of
// fragments and one event stream; htmx would add a vendored file for the
// same three fetch calls).
package web
