package controlmode

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzDecoder feeds arbitrary streams, with arbitrary expectations, to
// the decoder three ways (whole, byte by byte, line by line). It must
// never panic, the three must agree, and every Output must be what tmux
// would have had to escape to produce the line.
func FuzzDecoder(f *testing.F) {
	files, _ := filepath.Glob("testdata/decoder/*.txt")
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		in, _, _ := bytes.Cut(raw, []byte("\n----\n"))
		var stream []byte
		for _, l := range strings.Split(string(in), "\n") {
			if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "::") {
				continue
			}
			stream = append(append(stream, l...), '\n')
		}
		f.Add([]byte{3, 0x11, 0x82, 0x01}, stream)
	}
	f.Add([]byte{}, []byte("%begin 1 2 1\n%end 1 2 1\n%output %0 \\033\n"))
	f.Fuzz(func(t *testing.T, exp []byte, stream []byte) {
		var exps []Expectation
		for i, b := range exp {
			if i >= 16 {
				break
			}
			exps = append(exps, Expectation{Tag: uint64(i + 1), Blocks: 1 + int(b&3), FlowIn: uint64(b >> 4)})
		}
		whole := decodeAll(exps, func(d *Decoder, emit func([]Event)) { emit(d.Feed(stream)) })
		bytewise := decodeAll(exps, func(d *Decoder, emit func([]Event)) {
			for i := range stream {
				emit(d.Feed(stream[i : i+1]))
			}
		})
		linewise := decodeAll(exps, func(d *Decoder, emit func([]Event)) {
			rest := stream
			for {
				i := bytes.IndexByte(rest, '\n')
				if i < 0 {
					return
				}
				emit(d.FeedLine(rest[:i]))
				rest = rest[i+1:]
			}
		})
		if whole != bytewise || whole != linewise {
			t.Fatalf("feeding modes disagree:\nwhole:\n%s\nbytes:\n%s\nlines:\n%s", whole, bytewise, linewise)
		}
		// Output data is exactly what the payload stands for.
		var d Decoder
		for _, l := range bytes.Split(stream, []byte("\n")) {
			for _, e := range d.FeedLine(l) {
				if o, ok := e.(*Output); ok {
					payload := l[bytes.IndexByte(l[len("%output "):], ' ')+len("%output ")+1:]
					if got := appendUnescaped(nil, payload); !bytes.Equal(got, o.Data) {
						t.Fatalf("output %q decoded to %q", payload, o.Data)
					}
				}
			}
		}
	})
}

func decodeAll(exps []Expectation, feed func(*Decoder, func([]Event))) string {
	var d Decoder
	for _, e := range exps {
		d.Expect(e)
	}
	var b strings.Builder
	feed(&d, func(evs []Event) {
		for _, e := range evs {
			b.WriteString(e.String())
			b.WriteByte('\n')
		}
	})
	return b.String()
}

// FuzzOutput checks the %output unescaping: it never panics, and
// escaping then unescaping gives back any bytes.
func FuzzOutput(f *testing.F) {
	f.Add([]byte("\\033[1mhi\\134\\015\\012"))
	f.Add([]byte("\\"))
	f.Add([]byte("\\777\\400\\0"))
	f.Add([]byte{0, 0x1b, 0x5c, 0x7f, 0x80, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = appendUnescaped(nil, b)
		esc := AppendEscaped(nil, b)
		if got := appendUnescaped(nil, esc); !bytes.Equal(got, b) {
			t.Fatalf("round trip of %q: %q", b, got)
		}
		// The escaped form is one %output line: no newline, no control byte.
		for _, c := range esc {
			if c < ' ' {
				t.Fatalf("escaped form holds %#x", c)
			}
		}
	})
}

// FuzzParseLayout: layouts never panic the parser.
func FuzzParseLayout(f *testing.F) {
	f.Add("820e,80x24,0,0{40x24,0,0,2,39x24,41,0,3}")
	f.Add("a1b2,80x24,0,0[80x12,0,0,1,80x11,0,13{40x11,0,13,4,39x11,41,13,5}]")
	f.Fuzz(func(t *testing.T, s string) {
		g, ok := parseLayout(s)
		if !ok && g != nil {
			t.Fatalf("failed parse returned panes")
		}
	})
}
