package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
)

// Pairing and sessions. A pairing code is a one-time secret shown to the
// person (link or QR); redeeming it makes a browser session whose secret
// lives only in an HttpOnly cookie. The server keeps hashes of both, so a
// memory dump of it holds nothing a browser could replay.
const (
	// CodeTTL is how long a pairing code may be redeemed.
	CodeTTL = 10 * time.Minute
	// DefaultSessionMaxAge is how long a paired browser stays paired
	// (web.session_max_age sets another): the cookie's Max-Age, and the
	// server ends the session then too.
	DefaultSessionMaxAge = 30 * 24 * time.Hour
	// maxCodes bounds the codes waiting at once.
	maxCodes = 16
	// maxUserAgent bounds the user agent a session is named by.
	maxUserAgent = 200
)

// Session is one paired browser.
type Session struct {
	// ID names the browser in its controller (web:<ID>); it is not a
	// secret and is not the cookie.
	ID string
	// CSRF must accompany every POST of this session.
	CSRF    string
	Created time.Time
	// UserAgent is the browser's, as it paired: what `akk web sessions`
	// names it by (not authority: a browser may say anything).
	UserAgent string
	seen      time.Time
}

// Controller is the session's controller name: its own offers.
func (s *Session) Controller() string { return "web:" + s.ID }

// LogValue keeps the CSRF token out of logs.
func (s *Session) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", s.ID), slog.Time("created", s.Created))
}

// String is LogValue as text.
func (s *Session) String() string { return s.LogValue().String() }

// Sessions holds the pairing codes and paired browsers of one `akk web`.
type Sessions struct {
	mu       sync.Mutex
	now      func() time.Time
	maxAge   time.Duration
	codes    map[[32]byte]time.Time // code hash -> expiry
	sessions map[[32]byte]*Session  // cookie hash -> session
}

// NewSessions returns an empty store (now nil: time.Now; maxAge 0:
// DefaultSessionMaxAge).
func NewSessions(now func() time.Time, maxAge time.Duration) *Sessions {
	if now == nil {
		now = time.Now
	}
	if maxAge <= 0 {
		maxAge = DefaultSessionMaxAge
	}
	return &Sessions{now: now, maxAge: maxAge, codes: map[[32]byte]time.Time{}, sessions: map[[32]byte]*Session{}}
}

// MaxAge is how long a session lasts from its pairing.
func (s *Sessions) MaxAge() time.Duration { return s.maxAge }

// NewCode makes a pairing code valid for CodeTTL.
func (s *Sessions) NewCode() string {
	code := secret32(16)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for h, exp := range s.codes {
		if !now.Before(exp) || len(s.codes) >= maxCodes {
			delete(s.codes, h)
		}
	}
	s.codes[sha256.Sum256([]byte(code))] = now.Add(CodeTTL)
	return code
}

// Redeem consumes a pairing code and returns the new session (named by
// userAgent) and the cookie value that names it (ok false: unknown, used
// or expired).
func (s *Sessions) Redeem(code, userAgent string) (sess *Session, cookie string, ok bool) {
	h := sha256.Sum256([]byte(code))
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, found := s.codes[h]
	delete(s.codes, h) // one use, even when expired
	now := s.now()
	if !found || !now.Before(exp) {
		return nil, "", false
	}
	cookie = secret64(32)
	if len(userAgent) > maxUserAgent {
		userAgent = strings.ToValidUTF8(userAgent[:maxUserAgent], "") + "…"
	}
	sess = &Session{ID: secret32(10), CSRF: secret64(32), Created: now, UserAgent: userAgent, seen: now}
	s.sessions[sha256.Sum256([]byte(cookie))] = sess
	return sess, cookie, true
}

// Lookup finds the session of a cookie value.
func (s *Sessions) Lookup(cookie string) (*Session, bool) {
	if cookie == "" {
		return nil, false
	}
	h := sha256.Sum256([]byte(cookie))
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[h]
	if !ok {
		return nil, false
	}
	now := s.now()
	if now.Sub(sess.Created) >= s.maxAge {
		delete(s.sessions, h)
		return nil, false
	}
	sess.seen = now
	return sess, true
}

// SessionInfo is a paired browser as `akk web sessions` lists it.
type SessionInfo struct {
	ID        string    `json:"id"`
	UserAgent string    `json:"user_agent"`
	Created   time.Time `json:"created"`
	LastSeen  time.Time `json:"last_seen"`
	Expires   time.Time `json:"expires"`
}

// List is the live sessions, oldest first.
func (s *Sessions) List() []SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var out []SessionInfo
	for h, sess := range s.sessions {
		if now.Sub(sess.Created) >= s.maxAge {
			delete(s.sessions, h)
			continue
		}
		out = append(out, SessionInfo{ID: sess.ID, UserAgent: sess.UserAgent, Created: sess.Created,
			LastSeen: sess.seen, Expires: sess.Created.Add(s.maxAge)})
	}
	slices.SortFunc(out, func(a, b SessionInfo) int { return a.Created.Compare(b.Created) })
	return out
}

// Revoke ends the session id names: its cookie opens nothing from the
// next request on (ok false: no such session).
func (s *Sessions) Revoke(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for h, sess := range s.sessions {
		if sess.ID == id {
			delete(s.sessions, h)
			return true
		}
	}
	return false
}

// CheckCSRF reports whether token is the session's CSRF token.
func (s *Session) CheckCSRF(token string) bool {
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.CSRF)) == 1
}

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

func secret32(n int) string { return strings.ToLower(b32.EncodeToString(random(n))) }

func secret64(n int) string { return base64.RawURLEncoding.EncodeToString(random(n)) }

func random(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return b
}
