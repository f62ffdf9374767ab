package recordings

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOutputSplitter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string // events as "o:..." / "x:..." joined by " | "
	}{
		{"ascii", []string{"abc"}, `o:"abc"`},
		{"rune split 2", []string{"a\xe2\x9d", "\xaf b"}, `o:"a" | o:"❯ b"`},
		{"rune split 3", []string{"\xe2", "\x9d", "\xaf"}, `o:"❯"`},
		{"four byte", []string{"\xf0\x9f", "\x98\x80!"}, `o:"😀!"`},
		{"invalid lead", []string{"a\xffb"}, `o:"a" | x:"\xff" | o:"b"`},
		{"broken carry", []string{"a\xe2\x9d", "b"}, `o:"a" | x:"\xe2\x9d" | o:"b"`},
		{"surrogate", []string{"\xed\xa0\x80"}, `x:"\xed\xa0\x80"`},
		{"overlong", []string{"\xc0\xaf"}, `x:"\xc0\xaf"`},
		{"flush carry", []string{"\xf0\x9f\x98"}, `x:"\xf0\x9f\x98"`},
		{"stray continuation", []string{"\x80\x80z"}, `x:"\x80\x80" | o:"z"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s OutputSplitter
			var evs []Event
			for i, c := range tc.chunks {
				evs = s.Split(evs, float64(i), []byte(c))
			}
			evs = s.Flush(evs, 9)
			var got []string
			for _, e := range evs {
				got = append(got, fmt.Sprintf("%c:%q", e.Code, e.Data))
			}
			if g := strings.Join(got, " | "); g != tc.want {
				t.Errorf("got  %s\nwant %s", g, tc.want)
			}
			if !bytes.Equal(OutputBytes(evs), []byte(strings.Join(tc.chunks, ""))) {
				t.Errorf("bytes lost: %q", OutputBytes(evs))
			}
		})
	}
}

// FuzzOutputSplitter: any bytes cut anywhere come back exactly, o payloads
// are valid UTF-8, and the events survive encoding and decoding.
func FuzzOutputSplitter(f *testing.F) {
	f.Add([]byte("a\xe2\x9d\xafb\xff"), uint8(2))
	f.Add([]byte("\xf0\x9f\x98\x80\x1b[31m"), uint8(1))
	f.Add([]byte("\xed\xa0\x80\xc0"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		step := int(cut%7) + 1
		var s OutputSplitter
		var evs []Event
		for i := 0; i < len(data); i += step {
			evs = s.Split(evs, float64(i), data[i:min(i+step, len(data))])
		}
		evs = s.Flush(evs, 1e6)
		if got := OutputBytes(evs); !bytes.Equal(got, data) {
			t.Fatalf("got %q, want %q", got, data)
		}
		rec := &Recording{Header: Header{Width: 80, Height: 24}, Events: evs}
		for _, e := range evs {
			if e.Code == Output && !utf8.Valid(e.Data) {
				t.Fatalf("o event not UTF-8: %q", e.Data)
			}
		}
		enc, err := Encode(rec)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := Decode(enc)
		if err != nil {
			t.Fatalf("decode: %v\n%s", err, enc)
		}
		if got := OutputBytes(dec.Events); !bytes.Equal(got, data) {
			t.Fatalf("after decode %q, want %q", got, data)
		}
	})
}

// FuzzDecode: no input panics, and whatever decodes re-encodes to
// something that decodes to the same events.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("{\"version\":2,\"width\":80,\"height\":24}\n[0.5, \"o\", \"hi\\u001b\"]\n[1, \"x\", \"/w==\"]\n"))
	f.Add([]byte("{\"version\":2,\"width\":80,\"height\":24}\n[1, \"m\", \"expect:idle {}\"]\n[2, \"r\", \"80x24\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Decode(data)
		if err != nil {
			return
		}
		enc, err := Encode(rec)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		again, err := Decode(enc)
		if err != nil {
			t.Fatalf("decode of re-encoding: %v\n%s", err, enc)
		}
		if len(again.Events) != len(rec.Events) {
			t.Fatalf("%d events, then %d", len(rec.Events), len(again.Events))
		}
		for i := range rec.Events {
			a, b := rec.Events[i], again.Events[i]
			if a.Code != b.Code || !bytes.Equal(a.Data, b.Data) {
				t.Fatalf("event %d changed: %c %q -> %c %q", i, a.Code, a.Data, b.Code, b.Data)
			}
		}
		_, _, _ = Markers(rec)
		_, _ = Replay(rec, vtOptions, nil)
	})
}
