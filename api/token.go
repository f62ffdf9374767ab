package api

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// TokenName is the file beside the daemon's API socket, in the socket's
// 0700 directory, that holds the bearer token of akk's HTTP faces
// (`akk mcp --http`). The daemon creates it; a person copies it into a
// host's configuration with `akk mcp --print-token`. It is what the unix
// socket's 0600 mode is to a TCP port, which any local user may reach
// (DESIGN invariant 10).
const TokenName = "mcp-token"

// tokenBytes is the token's entropy: 32 random bytes, 64 hex digits.
const tokenBytes = 32

// TokenPath is the token file beside the API socket at socket.
func TokenPath(socket string) string { return filepath.Join(filepath.Dir(socket), TokenName) }

// Token errors.
var (
	// ErrNoToken: no token file (no daemon has started with this socket).
	ErrNoToken = errors.New("api: no MCP token file")
	// ErrTokenFile: a token file that others may read, that another uid
	// owns, or that holds no token. It authorises nobody.
	ErrTokenFile = errors.New("api: MCP token file refused")
)

// Token is a bearer token. Its String, GoString and LogValue never show
// it: the only way to its text is Reveal.
type Token struct{ secret string }

// IsZero: no token (it matches nothing).
func (t Token) IsZero() bool { return t.secret == "" }

// Reveal is the token's text: for a person to copy into a host's
// configuration (`akk mcp --print-token`) and for an HTTP client's
// Authorization header. Never log it.
func (t Token) Reveal() string { return t.secret }

// Matches compares a presented token in constant time (for equal
// lengths; a length says nothing about the token). A zero Token matches
// nothing, not even "".
func (t Token) Matches(presented string) bool {
	if t.secret == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(t.secret), []byte(presented)) == 1
}

// String never shows the token.
func (t Token) String() string {
	if t.secret == "" {
		return "api.Token(none)"
	}
	return "api.Token(redacted)"
}

// GoString is String: %#v must not print the field either.
func (t Token) GoString() string { return t.String() }

// LogValue is String.
func (t Token) LogValue() slog.Value { return slog.StringValue(t.String()) }

// ReadToken reads the token file at path. A missing file is ErrNoToken
// (wrapping fs.ErrNotExist); a file that group or others may read, that
// is not a regular file of this uid, or that does not hold 64 hex digits
// is ErrTokenFile: a token that may have leaked authorises nobody.
func ReadToken(path string) (Token, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Token{}, fmt.Errorf("%w %s: %w", ErrNoToken, path, fs.ErrNotExist)
	}
	if err != nil {
		return Token{}, fmt.Errorf("api: MCP token: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return Token{}, fmt.Errorf("%w: %s is not a regular file", ErrTokenFile, path)
	case !ok || int(st.Uid) != os.Getuid():
		return Token{}, fmt.Errorf("%w: %s is not owned by uid %d", ErrTokenFile, path, os.Getuid())
	case fi.Mode().Perm()&0o077 != 0:
		return Token{}, fmt.Errorf("%w: %s has mode %v; it must be 0600 (the daemon makes a new one when it starts)",
			ErrTokenFile, path, fi.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Token{}, fmt.Errorf("api: MCP token: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if _, err := hex.DecodeString(s); err != nil || len(s) != 2*tokenBytes {
		// The content is not quoted: it might be a secret of some other kind.
		return Token{}, fmt.Errorf("%w: %s does not hold %d hex digits", ErrTokenFile, path, 2*tokenBytes)
	}
	return Token{secret: s}, nil
}

// EnsureToken makes sure a good token file is at path, in a directory
// that exists (the socket's): a good one is kept (a host configured with
// it keeps working across daemon restarts), a missing one is created and
// a refused one (readable by others, say) is replaced. The new token is
// written 0600 to a temporary file in the same directory and then linked
// (or, to replace, renamed) into place, so that no reader sees it half
// written. created says whether the file is new. The token is never
// logged or returned.
func EnsureToken(path string) (created bool, err error) {
	_, rerr := ReadToken(path)
	switch {
	case rerr == nil:
		return false, nil
	case !errors.Is(rerr, ErrNoToken) && !errors.Is(rerr, ErrTokenFile):
		return false, rerr
	}
	var b [tokenBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return false, fmt.Errorf("api: MCP token: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+TokenName+"-*") // 0600
	if err != nil {
		return false, fmt.Errorf("api: MCP token: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a link, or a failure; a rename consumed it
	_, werr := f.WriteString(hex.EncodeToString(b[:]) + "\n")
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return false, fmt.Errorf("api: MCP token: %w", err)
	}
	if errors.Is(rerr, ErrTokenFile) {
		if err := os.Rename(tmp, path); err != nil {
			return false, fmt.Errorf("api: MCP token: %w", err)
		}
		return true, nil
	}
	// Link, not rename: if another daemon made one meanwhile, its token
	// stands and ours goes.
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("api: MCP token: %w", err)
	}
	return true, nil
}
