package outbox

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"
)

// Route kinds.
const (
	RouteCommand = "command" // a program gets the envelope on stdin
	RouteWebhook = "webhook" // an HTTP POST of the envelope
	RouteTmux    = "tmux"    // a message on the clients of the pane's session
	// RouteOpenClaw wakes one OpenClaw Gateway session through its agent
	// hook (POST /hooks/agent).
	RouteOpenClaw = "openclaw"
	// RouteDesktop is a freedesktop notification (org.freedesktop.
	// Notifications over the session D-Bus, else notify-send).
	RouteDesktop = "desktop"
	// RouteTerminal is an OSC 9 or OSC 777 notification written to the
	// tty of every attached tmux client: the person's own terminal
	// raises it.
	RouteTerminal = "terminal"
)

// OSC sequences a terminal route writes.
const (
	OSC9   = "9"   // ESC ] 9 ; message BEL: iTerm2, WezTerm, Ghostty, Windows Terminal, kitty
	OSC777 = "777" // ESC ] 777 ; notify ; title ; body BEL: urxvt, foot, Ghostty, WezTerm
)

// ErrConfig: a Config that cannot be used.
var ErrConfig = errors.New("outbox: bad config")

// RouteConfig is one callback route. Routes are the trusted side's
// configuration (akk attach's config file and flags), never a request's
// argument (seed 003: callback routing is never a model argument).
type RouteConfig struct {
	Name string
	Kind string
	// Command is the program and its arguments (command routes).
	Command []string
	// URL is the webhook's URL (webhook routes), or the OpenClaw
	// Gateway's base URL (openclaw routes: http://127.0.0.1:18789).
	URL string
	// TokenFile holds a bearer token sent as Authorization (webhook,
	// openclaw: the Gateway's hooks token, not its gateway token). It is
	// read at each attempt and never logged.
	TokenFile string
	// SessionKey is the OpenClaw session a wake-up goes to (openclaw
	// routes): the controller's own conversation, set here by the person
	// who set akk up, never taken from a request.
	SessionKey string
	// BodyTemplate renders a webhook's body (text/template over the
	// notification: .Envelope, .Text, .Type, .Event, .TurnID, .WatchID,
	// .TerminalID, .SessionID, .NotificationID, .IdempotencyKey; json
	// quotes a value); empty: the envelope itself.
	BodyTemplate string
	// Person marks a webhook or command route as a person's (an ntfy
	// topic, a phone push): it gets every attention event, as the
	// desktop, terminal and tmux routes always do.
	Person bool
	// OSC is a terminal route's sequence: OSC9 (default) or OSC777.
	OSC string
	// Bus is a desktop route's D-Bus address ("": the session bus of the
	// daemon's environment, DBUS_SESSION_BUS_ADDRESS).
	Bus string
	// Timeout bounds one attempt (0: DefaultRouteTimeout). A command still
	// running or a webhook that got the request but did not answer by then
	// is uncertain.
	Timeout time.Duration
}

// Config configures delivery.
type Config struct {
	Routes []RouteConfig
	// Default names the routes a new Watch or Turn notifies (nil: every
	// route).
	Default []string
	// Owners names the routes of a controller's owner's Watches and Turns
	// (its key is the owner, e.g. "mcp:host" for `akk mcp --controller
	// host`), instead of Default; person routes (PersonRoute) are added to
	// them: a person sees every attention event, with no authority.
	Owners map[string][]string
	// MaxAttempts bounds the automatic attempts of a retryable failure
	// (0: 8); after them only retry_callback sends it again.
	MaxAttempts int
	// BackoffBase and BackoffMax bound the exponential backoff between
	// attempts (0: 1 s and 5 min).
	BackoffBase, BackoffMax time.Duration
	// Workers is how many deliveries run at once (0: 4).
	Workers int
}

// Defaults.
const (
	DefaultRouteTimeout = 10 * time.Second
	// MinOpenClawTimeout: the Gateway may hold a hook up to 15 s before
	// admitting it (then 503); an attempt gets at least twice that.
	MinOpenClawTimeout = 30 * time.Second
	defaultMaxAttempts = 8
	defaultBackoffBase = time.Second
	defaultBackoffMax  = 5 * time.Minute
	defaultWorkers     = 4
)

// EnsureDefaults fills the zero fields.
func (c *Config) EnsureDefaults() {
	c.MaxAttempts = cmp.Or(c.MaxAttempts, defaultMaxAttempts)
	c.BackoffBase = cmp.Or(c.BackoffBase, defaultBackoffBase)
	c.BackoffMax = cmp.Or(c.BackoffMax, defaultBackoffMax)
	c.Workers = cmp.Or(c.Workers, defaultWorkers)
	for i := range c.Routes {
		r := &c.Routes[i]
		r.Timeout = cmp.Or(r.Timeout, DefaultRouteTimeout)
		if r.Kind == RouteOpenClaw {
			r.Timeout = max(r.Timeout, MinOpenClawTimeout)
		}
	}
	if c.Default == nil {
		for _, r := range c.Routes {
			c.Default = append(c.Default, r.Name)
		}
	}
}

// Validate reports every unusable route at once.
func (c *Config) Validate() error {
	var errs []error
	names := map[string]bool{}
	for _, r := range c.Routes {
		if r.Name == "" || names[r.Name] {
			errs = append(errs, fmt.Errorf("%w: route name %q empty or repeated", ErrConfig, r.Name))
		}
		names[r.Name] = true
		switch r.Kind {
		case RouteCommand:
			if len(r.Command) == 0 {
				errs = append(errs, fmt.Errorf("%w: route %s: no command", ErrConfig, r.Name))
			}
		case RouteWebhook, RouteOpenClaw:
			u, err := url.Parse(r.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				errs = append(errs, fmt.Errorf("%w: route %s: %s URL must be http(s)://host/...", ErrConfig, r.Name, r.Kind))
			}
			if r.BodyTemplate != "" {
				if _, err := parseBody(r.BodyTemplate); err != nil || r.Kind == RouteOpenClaw {
					errs = append(errs, fmt.Errorf("%w: route %s: body_template: %v (openclaw routes have their own body)", ErrConfig, r.Name, err))
				}
			}
			if r.Kind == RouteOpenClaw && (r.SessionKey == "" || r.TokenFile == "") {
				errs = append(errs, fmt.Errorf("%w: route %s: an openclaw route needs session_key and token_file (the hooks token)", ErrConfig, r.Name))
			}
		case RouteTmux, RouteDesktop:
		case RouteTerminal:
			if r.OSC != "" && r.OSC != OSC9 && r.OSC != OSC777 {
				errs = append(errs, fmt.Errorf("%w: route %s: osc %q is not %s or %s", ErrConfig, r.Name, r.OSC, OSC9, OSC777))
			}
		default:
			errs = append(errs, fmt.Errorf("%w: route %s: kind %q is not command, webhook, openclaw, tmux, desktop or terminal",
				ErrConfig, r.Name, r.Kind))
		}
		if r.Person && r.Kind != RouteWebhook && r.Kind != RouteCommand {
			errs = append(errs, fmt.Errorf("%w: route %s: person applies to webhook and command routes (a %s route is a person's or a controller's by its kind)",
				ErrConfig, r.Name, r.Kind))
		}
		if r.Timeout < 0 {
			errs = append(errs, fmt.Errorf("%w: route %s: negative timeout", ErrConfig, r.Name))
		}
	}
	for _, d := range c.Default {
		if !names[d] {
			errs = append(errs, fmt.Errorf("%w: default route %q is not configured", ErrConfig, d))
		}
	}
	for owner, rs := range c.Owners {
		for _, d := range rs {
			if !names[d] {
				errs = append(errs, fmt.Errorf("%w: route %q of owner %s is not configured", ErrConfig, d, owner))
			}
		}
	}
	if c.MaxAttempts < 0 || c.BackoffBase < 0 || c.BackoffMax < c.BackoffBase && c.BackoffMax != 0 {
		errs = append(errs, fmt.Errorf("%w: attempts and backoff must be positive, max >= base", ErrConfig))
	}
	return errors.Join(errs...)
}

// Backoff is the wait before attempt n+1 after n failed attempts:
// base·2^(n-1), at most max.
func (c *Config) Backoff(n int) time.Duration {
	d := c.BackoffBase
	for i := 1; i < n && d < c.BackoffMax; i++ {
		d *= 2
	}
	return min(d, c.BackoffMax)
}

// ForPerson says whether the route shows a person what happens (a tmux
// message, a desktop or terminal notification, a webhook marked person)
// rather than wake a controller: every owner's events go to it, and so do
// the attention events of terminals no Watch or Turn follows.
func (r RouteConfig) ForPerson() bool {
	switch r.Kind {
	case RouteTmux, RouteDesktop, RouteTerminal:
		return true
	}
	return r.Person
}

// PersonRoutes names the routes for a person (ForPerson).
func (c *Config) PersonRoutes() []string {
	var out []string
	for _, r := range c.Routes {
		if r.ForPerson() {
			out = append(out, r.Name)
		}
	}
	return out
}

// RoutesFor names the routes of owner's new Watches and Turns: its own
// (Owners), or Default for an owner not named, and every person route
// either way (DESIGN: person routes get every attention event; before,
// an owner on default_routes without a tmux route got none).
func (c *Config) RoutesFor(owner string) []string {
	rs, ok := c.Owners[owner]
	if !ok {
		rs = c.Default
	}
	out := append([]string(nil), rs...)
	for _, name := range c.PersonRoutes() {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// Route returns the configured route named name.
func (c *Config) Route(name string) (RouteConfig, bool) {
	for _, r := range c.Routes {
		if r.Name == name {
			return r, true
		}
	}
	return RouteConfig{}, false
}
