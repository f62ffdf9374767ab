package outbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/godbus/dbus/v5"

	"github.com/agent-knock-knock/akk/store"
)

// The freedesktop notification service (Desktop Notifications
// Specification 1.2): Notify(app_name, replaces_id, app_icon, summary,
// body, actions, hints, expire_timeout) -> id.
const (
	notifyService = "org.freedesktop.Notifications"
	notifyPath    = "/org/freedesktop/Notifications"
	notifyMethod  = notifyService + ".Notify"
)

// desktopRoute shows a notice as a desktop notification: over the session
// D-Bus (godbus: the protocol without a C library or a process per
// notice), or with notify-send when no bus answers. A bus that took the
// call but did not answer is uncertain: the notification may be on
// screen.
type desktopRoute struct {
	cfg    RouteConfig
	places Places
	// notifySend is the fallback's path ("" when not installed).
	notifySend string
}

func newDesktopRoute(cfg RouteConfig, places Places) desktopRoute {
	path, _ := exec.LookPath("notify-send")
	return desktopRoute{cfg: cfg, places: places, notifySend: path}
}

func (r desktopRoute) Send(ctx context.Context, n *store.Notification) Delivery {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	nt := NoticeOf(n, r.places)
	body := nt.Body
	if nt.Link != "" {
		body += "\n" + nt.Link
	}
	conn, err := r.dial(ctx)
	if err != nil {
		return r.fallback(ctx, nt.Title, body, "no session bus ("+busCause(err)+")")
	}
	defer conn.Close()
	// Servers may read the body as markup (<b>, <a href>): it is text.
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1)), "category": dbus.MakeVariant("im"),
		"desktop-entry": dbus.MakeVariant("akk")}
	var id uint32
	call := conn.Object(notifyService, notifyPath).CallWithContext(ctx, notifyMethod, 0,
		"akk", uint32(0), "", nt.Title, markupEscape(body), []string{}, hints, int32(-1))
	if err := call.Store(&id); err != nil {
		var de dbus.Error
		switch {
		case errors.As(err, &de) && de.Name == "org.freedesktop.DBus.Error.ServiceUnknown":
			// No notification server on this bus (yet): nothing was shown.
			return r.fallback(ctx, nt.Title, body, "no notification server on the bus")
		case errors.As(err, &de):
			return Delivery{Outcome: store.NtfPermanent, Detail: "notification server refused: " + de.Name}
		case ctx.Err() != nil:
			return Delivery{Outcome: store.NtfUncertain, Detail: "no answer from the notification server"}
		}
		return Delivery{Outcome: store.NtfUncertain, Detail: "bus: " + busCause(err)}
	}
	return Delivery{Outcome: store.NtfAccepted, Detail: fmt.Sprintf("notification %d", id)}
}

// dial connects to the configured bus, or the environment's session bus.
func (r desktopRoute) dial(ctx context.Context) (*dbus.Conn, error) {
	addr := r.cfg.Bus
	if addr == "" {
		addr = os.Getenv("DBUS_SESSION_BUS_ADDRESS")
	}
	if addr == "" {
		return nil, errNoBusAddress
	}
	conn, err := dbus.Dial(addr, dbus.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, err
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// fallback runs notify-send when the bus did not take the notification.
func (r desktopRoute) fallback(ctx context.Context, title, body, why string) Delivery {
	if r.notifySend == "" {
		return Delivery{Outcome: store.NtfRetryable, Detail: why + "; notify-send not installed"}
	}
	cmd := exec.CommandContext(ctx, r.notifySend, "--app-name=akk", "--", title, markupEscape(body))
	if r.cfg.Bus != "" {
		cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+r.cfg.Bus)
	}
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return Delivery{Outcome: store.NtfRetryable, Detail: fmt.Sprintf("%s; notify-send exit %d", why, ee.ExitCode())}
		}
		return Delivery{Outcome: store.NtfUncertain, Detail: why + "; notify-send: " + busCause(err)}
	}
	return Delivery{Outcome: store.NtfAccepted, Detail: "notify-send"}
}

// errNoBusAddress: neither the route nor the environment names a bus.
var errNoBusAddress = errors.New("DBUS_SESSION_BUS_ADDRESS is not set")

// busCause names a bus error without addresses or paths.
func busCause(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, os.ErrNotExist):
		return "no such socket"
	case errors.Is(err, errNoBusAddress):
		return err.Error()
	}
	return "connection failed"
}

// markupEscape keeps a body plain for servers that read markup.
func markupEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
