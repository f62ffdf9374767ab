package watchers

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// simFile is a file as the tail core sees it: an identity and its bytes.
type simFile struct {
	exists bool
	id     evidence.FileID
	data   []byte
}

func (f *simFile) stat() Stat { return Stat{Exists: f.exists, ID: f.id, Size: int64(len(f.data))} }

// drive runs the tail against f until it has nothing to read and returns
// what it reported: lines as "off:text", changes as "!change@gen".
func drive(t *testing.T, tl *Tail, f *simFile, maxRead int) []string {
	t.Helper()
	var out []string
	emit := func(l Line) {
		if l.TooLong {
			out = append(out, fmt.Sprintf("%d:LONG(%d)", l.Offset, l.Len))
			return
		}
		if l.Len != len(l.Data) {
			t.Fatalf("line at %d: Len %d, data %d", l.Offset, l.Len, len(l.Data))
		}
		out = append(out, fmt.Sprintf("%d:%s", l.Offset, l.Data))
	}
	for range 10000 {
		st := f.stat()
		s := tl.Next(st)
		if s.Change != nil {
			out = append(out, fmt.Sprintf("!%s@%d", s.Change.Change, s.Change.Gen))
		}
		if s.ReadLen == 0 {
			return out
		}
		if maxRead > 0 && s.ReadLen > maxRead {
			t.Fatalf("read of %d bytes exceeds the bound %d", s.ReadLen, maxRead)
		}
		end := s.ReadAt + int64(s.ReadLen)
		if ch := tl.Feed(f.data[s.ReadAt:end], emit); ch != nil {
			out = append(out, fmt.Sprintf("!%s@%d", ch.Change, ch.Gen))
		}
	}
	t.Fatal("tail did not settle")
	return nil
}

func TestTailTornLinesEverySplit(t *testing.T) {
	text := "{\"a\":1}\n{\"b\":22}\n\n{\"c\":333}\n"
	want := []string{"!appeared@0", `0:{"a":1}`, `8:{"b":22}`, "17:", `18:{"c":333}`}
	for i := 0; i <= len(text); i++ {
		for j := i; j <= len(text); j++ {
			f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 1}}
			tl := NewTail(0, 0)
			var got []string
			for _, cut := range []int{i, j, len(text)} {
				f.data = []byte(text[:cut])
				got = append(got, drive(t, tl, f, 0)...)
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("cuts %d,%d: got %q want %q", i, j, got, want)
			}
		}
	}
}

// TestTailRandomChunks appends random lines in random pieces, reads with a
// small bound, and checks every line comes out once, in order, at its
// offset.
func TestTailRandomChunks(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 7))
		var all strings.Builder
		var want []string
		for n := range 200 {
			line := strings.Repeat(string(rune('a'+n%26)), r.IntN(80))
			want = append(want, fmt.Sprintf("%d:%s", all.Len(), line))
			all.WriteString(line + "\n")
		}
		text := all.String()
		maxRead := 1 + r.IntN(100)
		tl := NewTail(0, maxRead)
		if maxRead < 2*guardLen {
			maxRead = 2 * guardLen
		}
		f := &simFile{exists: true, id: evidence.FileID{Dev: 3, Ino: 9}}
		got := []string{}
		for len(f.data) < len(text) {
			n := len(f.data) + 1 + r.IntN(120)
			f.data = []byte(text[:min(n, len(text))])
			for _, s := range drive(t, tl, f, maxRead) {
				if s[0] != '!' {
					got = append(got, s)
				}
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("seed %d: %d lines, want %d", seed, len(got), len(want))
		}
		if tl.Offset() != int64(len(text)) || tl.Held() != 0 {
			t.Fatalf("seed %d: offset %d held %d", seed, tl.Offset(), tl.Held())
		}
	}
}

// TestTailRewritten: a file that shrinks is truncated; one rewritten in
// place to a size at least the old offset is caught by the guard bytes,
// not by its size. Either way it is read again from 0.
func TestTailRewritten(t *testing.T) {
	for _, tc := range []struct {
		name, before, after, want string
	}{
		{"truncate", "one\ntwo\nthr", "x\n", "!appeared@0|0:one|4:two|!truncated@1|0:x"},
		{"rewrite in place", "aaaa\nbbbb\n", "cccc\ndddd\neeee\n", "!appeared@0|0:aaaa|5:bbbb|!truncated@1|0:cccc|5:dddd|10:eeee"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 2}, data: []byte(tc.before)}
			tl := NewTail(0, 0)
			got := drive(t, tl, f, 0)
			f.data = []byte(tc.after)
			got = append(got, drive(t, tl, f, 0)...)
			if strings.Join(got, "|") != tc.want {
				t.Fatalf("got %q want %q", got, tc.want)
			}
		})
	}
}

func TestTailTruncateReportsDroppedAndOldOffset(t *testing.T) {
	f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 2}, data: []byte("one\ntwo\nthr")}
	tl := NewTail(0, 0)
	drive(t, tl, f, 0)
	f.data = f.data[:2]
	s := tl.Next(f.stat())
	c := s.Change
	if c == nil || c.Change != evidence.FileTruncated || c.OldOffset != 11 || c.Dropped != 3 || c.Size != 2 || c.OldGen != 0 || c.Gen != 1 {
		t.Fatalf("change %+v", c)
	}
	if s.ReadAt != 0 || s.ReadLen != 2 {
		t.Fatalf("step %+v", s)
	}
}

func TestTailReplaceDeleteRecreate(t *testing.T) {
	f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 2}, data: []byte("a\nb")}
	tl := NewTail(0, 0)
	got := drive(t, tl, f, 0)
	f.id, f.data = evidence.FileID{Dev: 1, Ino: 3}, []byte("c\n")
	got = append(got, drive(t, tl, f, 0)...)
	f.exists = false
	got = append(got, drive(t, tl, f, 0)...)
	got = append(got, drive(t, tl, f, 0)...) // still gone: nothing new
	f.exists, f.id, f.data = true, evidence.FileID{Dev: 1, Ino: 4}, []byte("d\n")
	got = append(got, drive(t, tl, f, 0)...)
	want := "!appeared@0|0:a|!replaced@1|0:c|!deleted@1|!appeared@2|0:d"
	if strings.Join(got, "|") != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestTailLongLines(t *testing.T) {
	long := strings.Repeat("x", 25)
	text := "ok\n" + long + "\n" + "fine\n" + long + long + "\nend\n"
	want := "!appeared@0|0:ok|3:LONG(25)|29:fine|34:LONG(50)|85:end"
	for step := 1; step <= len(text); step++ {
		f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 1}}
		tl := NewTail(10, 0)
		var got []string
		for n := step; ; n += step {
			f.data = []byte(text[:min(n, len(text))])
			got = append(got, drive(t, tl, f, 0)...)
			if n >= len(text) {
				break
			}
		}
		if strings.Join(got, "|") != want {
			t.Fatalf("step %d: got %q want %q", step, got, want)
		}
		if tl.Held() != 0 {
			t.Fatalf("held %d", tl.Held())
		}
	}
}

func TestTailHeldIsBounded(t *testing.T) {
	f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 1}}
	tl := NewTail(64, 0)
	for range 100 {
		f.data = append(f.data, strings.Repeat("y", 50)...)
		drive(t, tl, f, 0)
		if cap(tl.pend) > 128 {
			t.Fatalf("held buffer grew to %d", cap(tl.pend))
		}
	}
	f.data = append(f.data, "\nz\n"...)
	got := drive(t, tl, f, 0)
	if strings.Join(got, "|") != "0:LONG(5000)|5001:z" {
		t.Fatalf("got %q", got)
	}
}

func TestTailResume(t *testing.T) {
	f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 1}, data: []byte("a\nb\nc\n")}
	tl := NewTail(0, 0)
	tl.Resume(evidence.FileID{Dev: 1, Ino: 1}, 4)
	if got := strings.Join(drive(t, tl, f, 0), "|"); got != "!appeared@0|4:c" {
		t.Fatalf("got %q", got)
	}
	other := NewTail(0, 0)
	other.Resume(evidence.FileID{Dev: 1, Ino: 9}, 4) // another file: from 0
	if got := strings.Join(drive(t, other, f, 0), "|"); got != "!appeared@0|0:a|2:b|4:c" {
		t.Fatalf("got %q", got)
	}
}

func TestTailShortReadIsTruncation(t *testing.T) {
	f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 1}, data: []byte("aaaaaaaaaaaaaaaaaaaa\n")}
	tl := NewTail(0, 0)
	drive(t, tl, f, 0)
	f.data = append(f.data, "b\n"...)
	s := tl.Next(f.stat())
	// The file shrank between the stat and the read: fewer bytes than the
	// guard come back.
	if ch := tl.Feed(f.data[s.ReadAt:s.ReadAt+3], func(Line) { t.Fatal("line") }); ch == nil || ch.Change != evidence.FileTruncated {
		t.Fatalf("change %+v", ch)
	}
}
