package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
)

// keys.go is the only place that builds or parses keys. A key is
// "<kind>/<id>[/<sub>]". Kinds used so far: meta, terminal, binding, event,
// outbox, watch, reservation, fence, turn, qualification.
// Event ids are 8-byte big-endian sequence numbers so that keys sort in
// append order.

const (
	kindMeta     = "meta"
	kindTerminal = "terminal"
	kindBinding  = "binding"
	kindEvent    = "event"

	kindReservation = "reservation"
	kindFence       = "fence"
	kindTurn        = "turn"

	kindQualification = "qualification"
)

func key(kind, id string) []byte { return []byte(kind + "/" + id) }

func metaKey(name string) []byte   { return key(kindMeta, name) }
func terminalKey(id string) []byte { return key(kindTerminal, id) }
func bindingKey(id string) []byte  { return key(kindBinding, id) }

func reservationKey(id string) []byte { return key(kindReservation, id) }
func fenceKey(k string) []byte        { return key(kindFence, k) }
func turnKey(id string) []byte        { return key(kindTurn, id) }

// qualificationKey: an agent's binary by its identity hash.
func qualificationKey(agent, identity string) []byte {
	return key(kindQualification, agent+"@"+identity)
}

// prefix is every key of a kind: [prefix, prefixEnd) bounds an iterator.
func prefix(kind string) []byte { return []byte(kind + "/") }

// prefixEnd is the first key after every key of kind.
func prefixEnd(kind string) []byte { return []byte(kind + "0") } // '0' follows '/'

func eventKey(seq uint64) []byte {
	k := make([]byte, len(kindEvent)+1+8)
	copy(k, kindEvent+"/")
	binary.BigEndian.PutUint64(k[len(kindEvent)+1:], seq)
	return k
}

// parseEventKey returns the sequence number of an event key.
func parseEventKey(k []byte) (uint64, error) {
	p := prefix(kindEvent)
	if !bytes.HasPrefix(k, p) || len(k) != len(p)+8 {
		return 0, fmt.Errorf("%w: event key %q", ErrFormat, k)
	}
	return binary.BigEndian.Uint64(k[len(p):]), nil
}

// parseID returns the id of a "<kind>/<id>" key.
func parseID(kind string, k []byte) (string, error) {
	s, ok := strings.CutPrefix(string(k), kind+"/")
	if !ok || s == "" {
		return "", fmt.Errorf("%w: %s key %q", ErrFormat, kind, k)
	}
	return s, nil
}

// Kinds of the callbacks outbox and the Terminal Watches (seed 003).
const (
	kindOutbox = "outbox"
	kindWatch  = "watch"
)

func outboxKey(id string) []byte { return key(kindOutbox, id) }
func watchKey(id string) []byte  { return key(kindWatch, id) }
