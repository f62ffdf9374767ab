package recordings

import "unicode/utf8"

// OutputSplitter turns pane output chunks into o and x events: valid UTF-8
// goes into o, every byte that is not part of a valid UTF-8 sequence into
// x, and an incomplete rune at the end of a chunk is carried into the next
// one. The concatenated payloads of its events, in order, are exactly the
// bytes it was given (after Flush).
type OutputSplitter struct {
	carry []byte // an incomplete but so far valid rune (at most 3 bytes)
}

// Split appends the events for chunk, all stamped t, to dst.
func (s *OutputSplitter) Split(dst []Event, t float64, chunk []byte) []Event {
	buf := chunk
	if len(s.carry) > 0 {
		buf = append(s.carry[:len(s.carry):len(s.carry)], chunk...)
		s.carry = s.carry[:0]
	}
	var text, raw []byte
	flushText := func() {
		if len(text) > 0 {
			dst = append(dst, Event{Time: t, Code: Output, Data: text})
			text = nil
		}
	}
	flushRaw := func() {
		if len(raw) > 0 {
			dst = append(dst, Event{Time: t, Code: OutputRaw, Data: raw})
			raw = nil
		}
	}
	i := 0
	for i < len(buf) {
		c := buf[i]
		if c < utf8.RuneSelf {
			j := i + 1
			for j < len(buf) && buf[j] < utf8.RuneSelf {
				j++
			}
			flushRaw()
			text = append(text, buf[i:j]...)
			i = j
			continue
		}
		r, n := utf8.DecodeRune(buf[i:])
		switch {
		case r != utf8.RuneError || n > 1:
			flushRaw()
			text = append(text, buf[i:i+n]...)
			i += n
		case validPrefix(buf[i:]):
			flushText()
			flushRaw()
			s.carry = append(s.carry, buf[i:]...)
			return dst
		default:
			flushText()
			raw = append(raw, c)
			i++
		}
	}
	flushText()
	flushRaw()
	return dst
}

// Flush appends the carried bytes, if any, as an x event.
func (s *OutputSplitter) Flush(dst []Event, t float64) []Event {
	if len(s.carry) > 0 {
		dst = append(dst, Event{Time: t, Code: OutputRaw, Data: append([]byte(nil), s.carry...)})
		s.carry = s.carry[:0]
	}
	return dst
}

// validPrefix reports whether b (starting with a byte >= 0x80) is a proper
// prefix of some valid UTF-8 encoding: a lead byte and fewer continuation
// bytes than it needs, each in its allowed range.
func validPrefix(b []byte) bool {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 2
	case c == 0xE0:
		need, lo = 3, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 3
	case c == 0xED:
		need, hi = 3, 0x9F
	case c == 0xF0:
		need, lo = 4, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 4
	case c == 0xF4:
		need, hi = 4, 0x8F
	default:
		return false
	}
	if len(b) >= need {
		return false
	}
	for k, c := range b[1:] {
		if k == 0 && (c < lo || c > hi) || k > 0 && (c < 0x80 || c > 0xBF) {
			return false
		}
	}
	return true
}

// OutputBytes concatenates the o and x payloads of events: the pane's
// bytes as recorded.
func OutputBytes(events []Event) []byte {
	var b []byte
	for _, e := range events {
		if e.Code == Output || e.Code == OutputRaw {
			b = append(b, e.Data...)
		}
	}
	return b
}
