package vt

import (
	"bytes"
	"unicode/utf8"
)

// Strings: OSC titles and hyperlinks, APC titles, the title stack.

// oscDispatch handles OSC 0/2 (title) and OSC 8 (hyperlink); tmux 3.3a has
// no hyperlinks, so links never change what tmux shows, only what akk keeps.
func (s *Screen) oscDispatch(data []byte) {
	if len(data) == 0 || data[0] < '0' || data[0] > '9' {
		return
	}
	option := 0
	i := 0
	for i < len(data) && data[i] >= '0' && data[i] <= '9' && option < 1<<20 {
		option = option*10 + int(data[i]-'0')
		i++
	}
	if i < len(data) && data[i] == ';' {
		i++
	}
	arg := data[i:]
	switch option {
	case 0, 2:
		s.setTitle(arg)
	case 8:
		s.setLink(arg)
	}
}

// maxTitles bounds the title stack (tmux's is unbounded; xterm keeps 10).
const maxTitles = 32

func (s *Screen) pushTitle() {
	if len(s.titles) == maxTitles {
		s.titles = append(s.titles[:0], s.titles[1:]...)
	}
	s.titles = append(s.titles, s.title)
}

func (s *Screen) popTitle() {
	if n := len(s.titles); n > 0 {
		s.setTitle([]byte(s.titles[n-1]))
		s.titles = s.titles[:n-1]
	}
}

// apcDispatch takes an APC string as the title, as tmux does (screen's
// convention).
func (s *Screen) apcDispatch(data []byte) { s.setTitle(data) }

// setTitle is screen_set_title: a title that is not valid, printable UTF-8
// (tmux's utf8_isvalid) leaves the old one.
func (s *Screen) setTitle(t []byte) {
	if titleValid(t) {
		s.title = string(t)
	}
}

func titleValid(t []byte) bool {
	for i := 0; i < len(t); {
		size := leadSize(t[i])
		if size == 0 {
			if t[i] < 0x20 || t[i] > 0x7e {
				return false
			}
			i++
			continue
		}
		if i+size > len(t) {
			return false
		}
		var d utf8Decoder
		ok := false
		for _, b := range t[i : i+size] {
			_, _, ok = d.add(b)
		}
		if !ok {
			return false
		}
		i += size
	}
	return true
}

// setLink parses "params;uri" of OSC 8; an empty uri ends the link.
func (s *Screen) setLink(arg []byte) {
	semi := bytes.IndexByte(arg, ';')
	if semi < 0 {
		return
	}
	var l link
	if uri := arg[semi+1:]; len(uri) > 0 && utf8.Valid(uri) {
		l.uri = string(uri)
		for _, kv := range bytes.Split(arg[:semi], []byte(":")) {
			if id, ok := bytes.CutPrefix(kv, []byte("id=")); ok && utf8.Valid(id) {
				l.id = string(id)
			}
		}
	}
	p := s.pen
	p.link = s.internLink(l)
	s.setPen(p)
}
