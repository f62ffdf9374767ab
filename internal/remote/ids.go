package remote

import (
	"bufio"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Semantic ids keep their form across hosts: a remote "term_<26>" shows
// as "term_<26>" too, the 26 characters an HMAC over (host, remote id)
// under a key of this machine's user. The client maps it back through a
// table it keeps (an id seen in one command is used in the next), so an
// id names its host without ever carrying the host's name, and the same
// remote id on two hosts never collides.

// semanticID is the form of every id the contract carries: a lower-case
// prefix and 26 base32 characters (term_, turn_, watch_, ses_, int_, q_,
// opt_, ntf_, rcpt_, and any later one).
var semanticID = regexp.MustCompile(`^[a-z]{1,8}_[a-z2-7]{26}$`)

// IDs maps ids between hosts and this client. Safe for concurrent use.
type IDs struct {
	key  []byte
	path string // the table, appended to ("" : memory only)

	mu     sync.Mutex
	remote map[string]hostID // local id -> host and remote id
}

type hostID struct {
	Host string `json:"h"`
	ID   string `json:"r"`
	Loc  string `json:"l"`
}

// OpenIDs loads (or creates) the key and the table in dir, both 0600.
func OpenIDs(dir string) (*IDs, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("remote ids: %w", err)
	}
	key, err := loadKey(filepath.Join(dir, "hosts.key"))
	if err != nil {
		return nil, err
	}
	m := &IDs{key: key, path: filepath.Join(dir, "hosts.ids"), remote: map[string]hostID{}}
	m.load()
	return m, nil
}

// NewIDs is a table in memory only, under key (tests).
func NewIDs(key []byte) *IDs { return &IDs{key: key, remote: map[string]hostID{}} }

func loadKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		key, derr := hex.DecodeString(strings.TrimSpace(string(b)))
		if derr == nil && len(key) == 32 {
			return key, nil
		}
		return nil, fmt.Errorf("remote ids: %s is not a key of 32 bytes in hex", path)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("remote ids: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	// O_EXCL: two first runs at once keep the one key written first.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return loadKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("remote ids: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		return nil, fmt.Errorf("remote ids: %w", err)
	}
	return key, nil
}

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// local is the id this client shows for host's id.
func (m *IDs) local(host, id string) string {
	prefix, _, _ := strings.Cut(id, "_")
	mac := hmac.New(sha256.New, m.key)
	mac.Write([]byte(host))
	mac.Write([]byte{0})
	mac.Write([]byte(id))
	return prefix + "_" + strings.ToLower(b32.EncodeToString(mac.Sum(nil)))[:26]
}

// Local maps host's id to this client's, and remembers it.
func (m *IDs) Local(host, id string) string {
	loc := m.local(host, id)
	m.mu.Lock()
	_, known := m.remote[loc]
	if !known {
		m.remote[loc] = hostID{Host: host, ID: id, Loc: loc}
	}
	m.mu.Unlock()
	if !known && m.path != "" {
		m.append(hostID{Host: host, ID: id, Loc: loc})
	}
	return loc
}

// append adds one entry in one write (O_APPEND: entries of two clients
// at once do not interleave). A failed write only costs a later lookup.
func (m *IDs) append(e hostID) {
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	f, err := os.OpenFile(m.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(b, '\n'))
}

// Remote is the host and remote id behind a local id. An id another
// client listed since this one started is read from the table again.
func (m *IDs) Remote(loc string) (host, id string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.remote[loc]
	if !ok && m.path != "" && semanticID.MatchString(loc) {
		m.load()
		e, ok = m.remote[loc]
	}
	return e.Host, e.ID, ok
}

// load reads the table (m.mu held, or m not yet shared).
func (m *IDs) load() {
	f, err := os.Open(m.path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e hostID
		// A torn last line (a client killed mid-append) is skipped: the
		// next listing writes it again.
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Loc == m.local(e.Host, e.ID) {
			m.remote[e.Loc] = e
		}
	}
}
