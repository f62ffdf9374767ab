package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"log/slog"
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
	// SessionIdle ends a session not seen for this long.
	SessionIdle = 30 * 24 * time.Hour
	// maxCodes bounds the codes waiting at once.
	maxCodes = 16
)

// Session is one paired browser.
type Session struct {
	// ID names the browser in its controller (web:<ID>); it is not a
	// secret and is not the cookie.
	ID string
	// CSRF must accompany every POST of this session.
	CSRF    string
	Created time.Time
	seen    time.Time
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
	codes    map[[32]byte]time.Time // code hash -> expiry
	sessions map[[32]byte]*Session  // cookie hash -> session
}

// NewSessions returns an empty store (now nil: time.Now).
func NewSessions(now func() time.Time) *Sessions {
	if now == nil {
		now = time.Now
	}
	return &Sessions{now: now, codes: map[[32]byte]time.Time{}, sessions: map[[32]byte]*Session{}}
}

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

// Redeem consumes a pairing code and returns the new session and the
// cookie value that names it (ok false: unknown, used or expired).
func (s *Sessions) Redeem(code string) (sess *Session, cookie string, ok bool) {
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
	sess = &Session{ID: secret32(10), CSRF: secret64(32), Created: now, seen: now}
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
	if now.Sub(sess.seen) > SessionIdle {
		delete(s.sessions, h)
		return nil, false
	}
	sess.seen = now
	return sess, true
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
