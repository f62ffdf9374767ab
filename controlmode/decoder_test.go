package controlmode

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata files")

// A decoder testdata file is the stream tmux writes, one line per line,
// then a line "----", then the events, one per line (Event.String). Lines
// starting with "::" are directives: ":: expect TAG BLOCKS [FLOWBITS]"
// registers an Expectation at that point of the stream, and
// ":: raw <go-quoted line>" is a stream line holding bytes a text file
// should not (ESC, high bytes). Lines starting with "#" before the first
// stream line are comments.
//
// Each file is decoded three ways (FeedLine per line, Feed per segment
// between directives, Feed byte by byte) and all three must agree.
func TestDecoderTestdata(t *testing.T) {
	files, err := filepath.Glob("testdata/decoder/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			input, want, ok := bytes.Cut(raw, []byte("\n----\n"))
			if !ok {
				t.Fatalf("no ---- separator")
			}
			segs := parseScript(t, input)
			got := runScript(segs, feedLines)
			for _, mode := range []feedMode{feedChunks, feedBytes} {
				if other := runScript(segs, mode); other != got {
					t.Errorf("mode %d disagrees with FeedLine:\n%s\nvs\n%s", mode, other, got)
				}
			}
			if *rewrite {
				out := append(append(bytes.Clone(input), "\n----\n"...), got...)
				if err := os.WriteFile(file, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != string(want) {
				t.Errorf("events differ (go test -run TestDecoderTestdata -rewrite to accept)\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

type segment struct {
	expect *Expectation
	lines  [][]byte
}

func parseScript(t *testing.T, input []byte) []segment {
	t.Helper()
	var segs []segment
	header := true
	for _, l := range strings.Split(string(input), "\n") {
		if header && strings.HasPrefix(l, "#") {
			continue
		}
		header = false
		if d, ok := strings.CutPrefix(l, ":: "); ok {
			verb, arg, _ := strings.Cut(d, " ")
			switch verb {
			case "expect":
				var e Expectation
				f := strings.Fields(arg)
				if len(f) < 2 {
					t.Fatalf("bad directive %q", l)
				}
				e.Tag, _ = strconv.ParseUint(f[0], 10, 64)
				e.Blocks, _ = strconv.Atoi(f[1])
				if len(f) > 2 {
					e.FlowIn, _ = strconv.ParseUint(f[2], 2, 64)
				}
				segs = append(segs, segment{expect: &e})
				continue
			case "raw":
				s, err := strconv.Unquote(arg)
				if err != nil {
					t.Fatalf("bad raw line %q: %v", l, err)
				}
				l = s
			default:
				t.Fatalf("unknown directive %q", l)
			}
		}
		if len(segs) == 0 || segs[len(segs)-1].expect != nil {
			segs = append(segs, segment{})
		}
		segs[len(segs)-1].lines = append(segs[len(segs)-1].lines, []byte(l))
	}
	return segs
}

type feedMode int

const (
	feedLines feedMode = iota
	feedChunks
	feedBytes
)

func runScript(segs []segment, mode feedMode) string {
	var d Decoder
	var b strings.Builder
	dump := func(evs []Event) {
		for _, e := range evs {
			b.WriteString(e.String())
			b.WriteByte('\n')
		}
	}
	for _, s := range segs {
		if s.expect != nil {
			d.Expect(*s.expect)
			continue
		}
		switch mode {
		case feedLines:
			for _, l := range s.lines {
				dump(d.FeedLine(l))
			}
		case feedChunks:
			var chunk []byte
			for _, l := range s.lines {
				chunk = append(append(chunk, l...), '\n')
			}
			dump(d.Feed(chunk))
		case feedBytes:
			for _, l := range s.lines {
				for _, c := range append(bytes.Clone(l), '\n') {
					dump(d.Feed([]byte{c}))
				}
			}
		}
	}
	if d.InBlock() {
		b.WriteString("(block open)\n")
	}
	if n := d.Pending(); n > 0 {
		fmt.Fprintf(&b, "(pending %d)\n", n)
	}
	return b.String()
}

func TestUnescapeRoundTrip(t *testing.T) {
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	esc := AppendEscaped(nil, all)
	for _, c := range esc {
		if c < ' ' {
			t.Fatalf("escaped form holds control byte %#x", c)
		}
	}
	if got := appendUnescaped(nil, esc); !bytes.Equal(got, all) {
		t.Fatalf("round trip: got %q", got)
	}
}

func TestUnescapeTable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, ``},
		{`abc`, `abc`},
		{`\033[1m`, "\x1b[1m"},
		{`\134`, `\`},
		{`\134033`, `\033`},
		{`\000\377`, "\x00\xff"},
		{`\400`, `\400`}, // not a byte value: literal
		{`\03`, `\03`},   // too short: literal
		{`a\`, `a\`},
		{`\\012`, "\\\n"},
		{"\xff\x7f", "\xff\x7f"},
	} {
		if got := string(appendUnescaped(nil, []byte(tc.in))); got != tc.want {
			t.Errorf("unescape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseLayout(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"b25d,80x24,0,0,0", "[%0:80x24+0+0]"},
		{"820e,80x24,0,0{40x24,0,0,2,39x24,41,0,3}", "[%2:40x24+0+0 %3:39x24+41+0]"},
		{"a1b2,80x24,0,0[80x12,0,0,1,80x11,0,13{40x11,0,13,4,39x11,41,13,5}]", "[%1:80x12+0+0 %4:40x11+0+13 %5:39x11+41+13]"},
		{"bad", "!"},
		{"b25d,80x24,0,0", "!"},
		{"b25d,80x24,0,0{40x24,0,0,2", "!"},
		{"b25d,80x24,0,0,0,", "!"},
		{"b25d,80x24,0,0{}", "!"},
	} {
		g, ok := parseLayout(tc.in)
		got := "!"
		if ok {
			parts := make([]string, len(g))
			for i, p := range g {
				parts[i] = fmt.Sprintf("%v:%dx%d+%d+%d", p.Pane, p.Width, p.Height, p.X, p.Y)
			}
			got = "[" + strings.Join(parts, " ") + "]"
		}
		if got != tc.want {
			t.Errorf("parseLayout(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestIDs(t *testing.T) {
	if p, err := ParsePaneID("%12"); err != nil || p != 12 || p.String() != "%12" {
		t.Errorf("ParsePaneID: %v %v", p, err)
	}
	for _, bad := range []string{"", "%", "12", "@1", "%1x", "%99999999999"} {
		if _, err := ParsePaneID(bad); err == nil {
			t.Errorf("ParsePaneID(%q) accepted", bad)
		}
	}
	if w, err := ParseWindowID("@3"); err != nil || w.String() != "@3" {
		t.Errorf("ParseWindowID: %v %v", w, err)
	}
	if s, err := ParseSessionID("$0"); err != nil || s.String() != "$0" {
		t.Errorf("ParseSessionID: %v %v", s, err)
	}
	if NoPane.String() != "-" {
		t.Errorf("NoPane prints %q", NoPane.String())
	}
}
