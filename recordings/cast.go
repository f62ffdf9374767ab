package recordings

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Errors of the codec. Every error Decode returns wraps ErrFormat.
var (
	// ErrFormat: a line is not what the recording format allows.
	ErrFormat = errors.New("recordings: bad format")
	// ErrNotUTF8: text that must be UTF-8 is not (an i, r, s or m payload).
	ErrNotUTF8 = errors.New("recordings: not UTF-8")
)

// RecorderVersion names the recording format's producer in Akk.Recorder.
const RecorderVersion = "akk-rig/1"

// Header is the first line of a recording.
type Header struct {
	Version   int               `json:"version"` // always 2
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Akk       *Akk              `json:"akk,omitempty"`
}

// Akk is akk's object in the header.
type Akk struct {
	Agent    string `json:"agent"`   // "claude", "codex", or "" for a plain pane
	Version  string `json:"version"` // the agent's version
	Scenario string `json:"scenario"`
	Recorder string `json:"recorder"` // "akk-rig/N" or "akk-record/N"
}

// Event codes.
const (
	Output    = 'o'
	OutputRaw = 'x'
	Input     = 'i'
	Resize    = 'r'
	SeedEvent = 's'
	MarkerEv  = 'm'
)

// Event is one event line. Data holds the payload as bytes: decoded
// base64 for x, the exact bytes for o and i, the text for r, s and m.
type Event struct {
	Time float64 // seconds since the start
	Code byte
	Data []byte
}

// Recording is a whole decoded recording.
type Recording struct {
	Header Header
	Events []Event
}

// appendEvent appends the JSON line of e (with its newline) to dst.
func appendEvent(dst []byte, e Event) ([]byte, error) {
	dst = append(dst, '[')
	dst = strconv.AppendFloat(dst, e.Time, 'f', 6, 64)
	dst = append(dst, ", \""...)
	dst = append(dst, e.Code)
	dst = append(dst, "\", "...)
	switch e.Code {
	case OutputRaw:
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, e.Data)
		dst = append(dst, '"')
	case Output, Input, Resize, SeedEvent, MarkerEv:
		if !utf8.Valid(e.Data) {
			return dst, fmt.Errorf("%w: %c event payload %q", ErrNotUTF8, e.Code, e.Data)
		}
		dst = appendJSONString(dst, e.Data)
	default:
		return dst, fmt.Errorf("%w: event code %q", ErrFormat, e.Code)
	}
	return append(dst, "]\n"...), nil
}

// appendJSONString appends s as a JSON string, escaping only what JSON
// requires (no HTML escaping), with control characters as \uXXXX.
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20 || c == 0x7f:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// EncodeHeader returns the header line (with its newline).
func EncodeHeader(h Header) ([]byte, error) {
	if h.Version == 0 {
		h.Version = 2
	}
	if err := h.validate(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("recordings: header: %w", err)
	}
	return append(b, '\n'), nil
}

func (h Header) validate() error {
	if h.Version != 2 {
		return fmt.Errorf("%w: asciicast version %d, want 2", ErrFormat, h.Version)
	}
	if h.Width < 1 || h.Height < 1 || h.Width > 10000 || h.Height > 10000 {
		return fmt.Errorf("%w: size %dx%d", ErrFormat, h.Width, h.Height)
	}
	return nil
}

// Encode returns the whole recording as asciicast v2 text.
func Encode(r *Recording) ([]byte, error) {
	out, err := EncodeHeader(r.Header)
	if err != nil {
		return nil, err
	}
	for i, e := range r.Events {
		if out, err = appendEvent(out, e); err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
	}
	return out, nil
}

// AppendEvent appends one event line to dst.
func AppendEvent(dst []byte, e Event) ([]byte, error) { return appendEvent(dst, e) }

// Decode parses a whole recording. Blank lines are skipped.
func Decode(data []byte) (*Recording, error) {
	r := &Recording{}
	n, header := 0, false
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		n++
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !header {
			header = true
			h, err := DecodeHeader(line)
			if err != nil {
				return nil, err
			}
			r.Header = h
			continue
		}
		e, err := DecodeEvent(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		r.Events = append(r.Events, e)
	}
	if !header {
		return nil, fmt.Errorf("%w: empty recording", ErrFormat)
	}
	return r, nil
}

// DecodeHeader parses the header line.
func DecodeHeader(line []byte) (Header, error) {
	var h Header
	if err := json.Unmarshal(line, &h); err != nil {
		return h, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	if err := h.validate(); err != nil {
		return h, err
	}
	return h, nil
}

// DecodeEvent parses one event line.
func DecodeEvent(line []byte) (Event, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return Event{}, fmt.Errorf("%w: event: %v", ErrFormat, err)
	}
	if len(raw) != 3 {
		return Event{}, fmt.Errorf("%w: event has %d fields, want 3", ErrFormat, len(raw))
	}
	var e Event
	var code, data string
	if err := json.Unmarshal(raw[0], &e.Time); err != nil || e.Time < 0 {
		return e, fmt.Errorf("%w: event time %s", ErrFormat, raw[0])
	}
	if err := json.Unmarshal(raw[1], &code); err != nil || len(code) != 1 {
		return e, fmt.Errorf("%w: event code %s", ErrFormat, raw[1])
	}
	if err := unmarshalExactString(raw[2], &data); err != nil {
		return e, fmt.Errorf("%w: event data: %v", ErrFormat, err)
	}
	e.Code = code[0]
	switch e.Code {
	case OutputRaw:
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return e, fmt.Errorf("%w: x event: %v", ErrFormat, err)
		}
		e.Data = b
	case Output, Input, SeedEvent, MarkerEv:
		e.Data = []byte(data)
	case Resize:
		if _, _, err := ParseSize(data); err != nil {
			return e, err
		}
		e.Data = []byte(data)
	default:
		return e, fmt.Errorf("%w: event code %q", ErrFormat, code)
	}
	return e, nil
}

// unmarshalExactString decodes a JSON string, refusing escapes that
// cannot round-trip (lone surrogates) and invalid UTF-8, which
// encoding/json would silently turn into U+FFFD.
func unmarshalExactString(raw json.RawMessage, s *string) error {
	if !utf8.Valid(raw) {
		return ErrNotUTF8
	}
	if err := json.Unmarshal(raw, s); err != nil {
		return err
	}
	if strings.ContainsRune(*s, utf8.RuneError) && !bytes.Contains(raw, []byte("\uFFFD")) &&
		!bytes.Contains(bytes.ToLower(raw), []byte(`\ufffd`)) {
		return fmt.Errorf("string does not round-trip (lone surrogate)")
	}
	return nil
}

// ParseSize parses "WxH".
func ParseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(s, "x")
	if ok {
		w, err = strconv.Atoi(a)
		if err == nil {
			h, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || w < 1 || h < 1 || w > 10000 || h > 10000 {
		return 0, 0, fmt.Errorf("%w: size %q", ErrFormat, s)
	}
	return w, h, nil
}

// FormatSize formats "WxH".
func FormatSize(w, h int) string { return fmt.Sprintf("%dx%d", w, h) }
