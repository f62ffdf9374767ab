package terminal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"strconv"
	"strings"
)

// idEncoding is lower-case base32 without padding: ids are typed and
// compared by people.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Key is what makes a terminal (DESIGN "Identity"): the tmux
// server (socket path and pid), the pane id, and the pane's process
// incarnation (pid and start time). A respawned pane is a new terminal; a
// restarted daemon derives the same id for the same pane.
type Key struct {
	Socket    string
	ServerPID int
	Pane      string
	PanePID   int
	PaneStart uint64
}

// ID is "term_" + 26 base32 characters of an HMAC-SHA256 of the
// key under the store's secret: stable, unguessable, and revealing nothing
// of the pane.
func ID(secret []byte, k Key) string {
	return "term_" + Derive(secret, "terminal", k.Socket, strconv.Itoa(k.ServerPID), k.Pane,
		strconv.Itoa(k.PanePID), strconv.FormatUint(k.PaneStart, 10))
}

// Derive is a 26-character id of kind and parts under secret.
func Derive(secret []byte, kind string, parts ...string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(kind + "\x00" + strings.Join(parts, "\x00")))
	return idEncoding.EncodeToString(m.Sum(nil))[:26]
}

// SessionID is the AKK session id of a native session: stable for the
// same agent conversation, whatever pane it runs in.
func SessionID(secret []byte, agent, native string) string {
	if native == "" {
		return ""
	}
	return "ses_" + Derive(secret, "session", agent, native)
}
