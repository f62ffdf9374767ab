package recognizers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"hash"
	"strings"
)

// Key is the secret the public ids are derived with (the daemon creates
// one in its store). Ids are HMAC-SHA256 over the profile, the prompt's
// styled fingerprint and the position, in base32: stable for the same
// prompt, different for any other, and unguessable without the key.
type Key []byte

// TestKey is the fixed key of `akk recognize`, which has no store. It is
// public on purpose: ids made with it authorize nothing.
var TestKey = Key("akk recognize: fixed test key, public, authorizes nothing")

// idLen is the length of an id's hash part (130 bits of base32).
const idLen = 26

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// id derives prefix + 26 base32 characters from the parts with mac, an
// HMAC-SHA256 keyed with the Key, which it resets first: a prompt's ids
// share one keyed state instead of keying a new HMAC each (most of the
// cost of an id).
func id(mac hash.Hash, prefix string, parts ...[]byte) string {
	mac.Reset()
	var n [4]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint32(n[:], uint32(len(p)))
		mac.Write(n[:])
		mac.Write(p)
	}
	var sum [sha256.Size]byte
	var enc [52]byte // base32 of 32 bytes
	idEncoding.Encode(enc[:], mac.Sum(sum[:0]))
	return prefix + string(enc[:idLen])
}

// ids derives the ids of one prompt.
type ids struct {
	key     Key
	profile []byte
	fp      []byte
	mac     hash.Hash // keyed with key on first use; copies share it
}

func (d *ids) hmac() hash.Hash {
	if d.mac == nil {
		d.mac = hmac.New(sha256.New, d.key)
	}
	return d.mac
}

func (d *ids) interaction() string {
	return id(d.hmac(), "int_", []byte("interaction"), d.profile, d.fp)
}

func (d *ids) question(q int) string {
	return id(d.hmac(), "q_", []byte("question"), d.profile, d.fp, []byte(itoa(q)))
}

// option names row i of question q, or a derived choice by its label.
func (d *ids) option(q, i int, derived string) string {
	return id(d.hmac(), "opt_", []byte("option"), d.profile, d.fp, []byte(itoa(q)), []byte(itoa(i)), []byte(derived))
}

// isID reports whether s has the shape of an id with prefix.
func isID(s, prefix string) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok || len(rest) != idLen {
		return false
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= '2' && r <= '7') {
			return false
		}
	}
	return true
}
