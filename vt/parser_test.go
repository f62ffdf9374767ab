package vt

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// recorder is a performer that logs every call, for testing the parser
// apart from any screen.
type recorder struct{ log []string }

func (r *recorder) printASCII(data []byte) int {
	n := asciiRun(data)
	r.add("print %q", data[:n])
	return n
}
func (r *recorder) printRune(c rune, width int) { r.add("rune %q w%d", c, width) }
func (r *recorder) printNarrow(run []rune)      { r.add("narrow %q", string(run)) }
func (r *recorder) execute(b byte)              { r.add("exec %#x", b) }
func (r *recorder) escDispatch(final byte, interm []byte) bool {
	r.add("esc %q %q", interm, final)
	return true
}
func (r *recorder) csiDispatch(final byte, interm []byte, ps *params) bool {
	var parts []string
	for i := 0; i < ps.n; i++ {
		switch p := ps.list[i]; p.kind {
		case paramMissing:
			parts = append(parts, "_")
		case paramNumber:
			parts = append(parts, fmt.Sprint(p.num))
		case paramString:
			parts = append(parts, string(ps.sub(i)))
		}
	}
	list := ""
	if len(parts) > 0 {
		list = " " + strings.Join(parts, ",")
	}
	r.add("csi %q%s %q", interm, list, final)
	return true
}
func (r *recorder) oscDispatch(data []byte) { r.add("osc %q", data) }
func (r *recorder) apcDispatch(data []byte) { r.add("apc %q", data) }
func (r *recorder) add(f string, a ...any)  { r.log = append(r.log, fmt.Sprintf(f, a...)) }

func TestParserSequences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ab", []string{`print "ab"`}},
		{"\x1b[1;2H", []string{`csi "" 1,2 'H'`}},
		{"\x1b[;5m", []string{`csi "" _,5 'm'`}},
		{"\x1b[38:2::1:2:3m", []string{`csi "" 38:2::1:2:3 'm'`}},
		{"\x1b[?25l", []string{`csi "?" 25 'l'`}},
		{"\x1b[ q", []string{`csi " " 'q'`}},
		{"\x1b[1?2h", nil},                                  // private marker after a parameter: ignored
		{"\x1b[1\nA", []string{"exec 0xa", `csi "" 1 'A'`}}, // C0 executes mid-sequence
		{"\x1b[1\x18A", []string{"exec 0x18", `print "A"`}}, // CAN cancels
		{"\x1b]0;title\x07", []string{`osc "0;title"`}},
		{"\x1b]2;t\x1b\\", []string{`osc "2;t"`, `esc "" '\\'`}},
		{"\x1bP1$qm\x1b\\x", []string{`print "x"`}}, // DCS swallowed
		{"\x1b_apc\x1b\\x", []string{`apc "apc"`, `esc "" '\\'`, `print "x"`}},
		{"\x1b(0", []string{`esc "(" '0'`}},
		{"\xe4\xb8\x96", []string{`rune '世' w2`}},
		{"A\xffB\xc3(C", []string{`print "A"`, `print "B"`, `print "(C"`}},
		{"\xe4\xc3\xa9x", []string{`print "x"`}},                  // bad continuation drops the whole sequence
		{"\xc3\x1b[m\xa9", []string{`csi "" 'm'`, `rune 'é' w1`}}, // an escape does not abandon UTF-8
		{"\xed\xa0\x80", nil},                                     // surrogate
		{"\xe0\x80\xaf", nil},                                     // overlong
		{"\xc2\x85", nil},                                         // C1 as UTF-8: wcwidth -1
		{"\x1b[" + strings.Repeat("1;", 23) + "1m", nil},          // 24 parameters: dropped
		{"\x1b[" + strings.Repeat("1;", 22) + "1m", []string{`csi "" ` + strings.TrimSuffix(strings.Repeat("1,", 23), ",") + ` 'm'`}},
		{"\x1b[99999999999m", nil},                     // above 2^31-1: dropped
		{"\x1b[" + strings.Repeat("1", 64) + "m", nil}, // parameter overflow: discarded
		{"\x1b[1!!!!p", nil},                           // intermediate overflow
		{"\x1b[;m\x1b[1;m", []string{`csi "" _,_ 'm'`, `csi "" 1,_ 'm'`}},
		{"\x1b[123456789;1234567890m", []string{`csi "" 123456789,1234567890 'm'`}},
		{"\x1b[2147483647m\x1b[2147483648m", []string{`csi "" 2147483647 'm'`}},
		{"\x1b[" + strings.Repeat("123456789;", 6) + "123m", []string{`csi "" ` + strings.Repeat("123456789,", 6) + `123 'm'`}}, // 63 bytes
		{"\x1b[" + strings.Repeat("123456789;", 6) + "1234m", nil},                                                              // 64: discarded
		{"\x1b[1;2\x1b[3H", []string{`csi "" 3 'H'`}},
		{"\x1b[1\x7f;2H", []string{`csi "" 1,2 'H'`}}, // DEL is ignored inside
	}
	for _, tt := range tests {
		// Whole, the common sequences take the parser's one-pass path;
		// byte by byte, they go through the state machine: both must agree.
		for _, bytewise := range []bool{false, true} {
			var p parser
			var r recorder
			if bytewise {
				for i := 0; i < len(tt.in); i++ {
					p.feed([]byte{tt.in[i]}, &r)
				}
			} else {
				p.feed([]byte(tt.in), &r)
			}
			got, want := r.log, tt.want
			if bytewise {
				got, want = joinPrints(got), joinPrints(want)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%q (bytewise %v):\n got %q\nwant %q", tt.in, bytewise, got, want)
			}
		}
	}
}

// joinPrints merges consecutive ASCII print runs, which byte-by-byte
// feeding splits.
func joinPrints(log []string) []string {
	var out []string
	for _, e := range log {
		run, ok := strings.CutPrefix(e, "print ")
		if last := len(out) - 1; ok && last >= 0 && strings.HasPrefix(out[last], "print ") {
			a, _ := strconv.Unquote(strings.TrimPrefix(out[last], "print "))
			b, _ := strconv.Unquote(run)
			out[last] = fmt.Sprintf("print %q", a+b)
			continue
		}
		out = append(out, e)
	}
	return out
}

// TestParserTotal runs every byte through every state: the parser must
// never panic and must always land in a valid state.
func TestParserTotal(t *testing.T) {
	for st := parserState(0); st < numStates; st++ {
		for b := 0; b < 256; b++ {
			p := parser{state: st}
			p.nRaw, p.nInter = maxParamBytes, maxIntermBytes
			s := New(10, 3, Options{})
			p.feed([]byte{byte(b)}, s)
			if p.state >= numStates {
				t.Fatalf("state %v byte %#x: invalid state %d", st, b, p.state)
			}
		}
	}
}

// TestChunkingInvariant feeds streams whole and byte by byte: the screen
// must not depend on where writes are cut.
func TestChunkingInvariant(t *testing.T) {
	streams := []string{
		"\x1b[1;31mred\x1b[0m \xe4\xb8\x96\xe7\x95\x8c e\u0301 \x1b]0;t\x07\x1b(0lqk\x1b(B",
		"\x1b[?1049h\x1b[2J\x1b[5;10r\x1b[6;1Hx\x1b[3L\x1b[2M\x1b[?1049l",
		"abc\x1b[2b\xf0\x9f\x8e\x89\x1b[38:2::10:20:30mrgb\x1b[4:3m~",
	}
	for _, in := range streams {
		whole := New(20, 8, Options{})
		whole.Write([]byte(in))
		bytewise := New(20, 8, Options{})
		for i := 0; i < len(in); i++ {
			bytewise.Write([]byte{in[i]})
		}
		if a, b := whole.Fingerprint(whole.Bounds()), bytewise.Fingerprint(bytewise.Bounds()); a != b {
			t.Errorf("%q: whole and byte-by-byte screens differ:\n%s\n%s", in, whole.ANSI(whole.Bounds()), bytewise.ANSI(bytewise.Bounds()))
		}
		if whole.Cursor() != bytewise.Cursor() {
			t.Errorf("%q: cursors differ: %+v %+v", in, whole.Cursor(), bytewise.Cursor())
		}
	}
}
