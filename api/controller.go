package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
)

// A controller is who acts through the API (DESIGN "Contract details"):
// `cli:<uid>`, `popup:<client tty>`, `web:<browser session>`, `mcp:<random per MCP session>`, or
// `mcp:<name>#<random per MCP session>` for every session of a host
// configured with `akk mcp --controller <name>`. Offers made by a Status
// are consumable only by the same controller (the session), so a status
// shown to one MCP session cannot authorise another's response; Turns and
// Watches belong to the controller's owner (Owner), so a host whose MCP
// server restarts keeps them.
// The daemon serves one uid only (SO_PEERCRED), so a controller name is
// a scope between that user's own tools, not an authentication.

// ControllerHeader carries the controller name on requests.
const ControllerHeader = "Akk-Controller"

type controllerKey struct{}

// WithController is the context of a request made by controller c.
func WithController(ctx context.Context, c string) context.Context {
	return context.WithValue(ctx, controllerKey{}, c)
}

// ControllerFrom returns the request's controller ("" when none was set:
// an in-process caller).
func ControllerFrom(ctx context.Context) string {
	c, _ := ctx.Value(controllerKey{}).(string)
	return c
}

// OwnerSep separates an owner from its session in a controller name.
const OwnerSep = "#"

// Owner is the owner of controller c: `mcp:<name>` for a session of a
// named host, c itself otherwise.
func Owner(c string) string {
	if strings.HasPrefix(c, "mcp:") {
		if i := strings.Index(c, OwnerSep); i > len("mcp:") {
			return c[:i]
		}
	}
	return c
}

// ValidOwnerName reports whether name may follow `akk mcp --controller`:
// 1 to 64 of [a-z0-9._-], starting with a letter or digit.
func ValidOwnerName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		b := name[i]
		ok := b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || i > 0 && (b == '.' || b == '_' || b == '-')
		if !ok {
			return false
		}
	}
	return true
}

// IsLocalPerson reports whether controller c is a person's own face
// (the CLI, the popup, or a paired browser of `akk web`, a process of the
// daemon's uid that answers only browsers paired by that user): only those
// may respond by terminal_id.
func IsLocalPerson(c string) bool {
	return strings.HasPrefix(c, "cli:") || strings.HasPrefix(c, "popup:") || strings.HasPrefix(c, "web:")
}

// controllerOf names the controller of r: its header when well formed,
// else the CLI of the peer's uid.
func controllerOf(r *http.Request, uid int) string {
	h := r.Header.Get(ControllerHeader)
	if validController(h) {
		return h
	}
	return "cli:" + strconv.Itoa(uid)
}

func validController(c string) bool {
	if len(c) > 128 {
		return false
	}
	var rest string
	switch {
	case strings.HasPrefix(c, "cli:"):
		rest = c[4:]
	case strings.HasPrefix(c, "popup:"):
		rest = c[6:]
	case strings.HasPrefix(c, "web:"):
		rest = c[4:]
	case strings.HasPrefix(c, "mcp:"):
		rest = c[4:]
	default:
		return false
	}
	if rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		b := rest[i]
		if b <= ' ' || b >= 0x7f {
			return false
		}
	}
	return true
}
