package watchers

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// FuzzTail cuts a byte stream into reads of fuzzed sizes and checks the
// tail returns exactly the stream's lines at their offsets.
func FuzzTail(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), []byte{1, 2, 3}, uint8(4))
	f.Add([]byte("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\ny\n"), []byte{40, 1}, uint8(8))
	f.Fuzz(func(t *testing.T, data, cuts []byte, maxLine uint8) {
		ml := int(maxLine) + 1
		tl := NewTail(ml, 0)
		f := &simFile{exists: true, id: evidence.FileID{Dev: 1, Ino: 1}}
		var got []string
		emit := func(l Line) {
			if l.TooLong {
				got = append(got, fmt.Sprintf("%d:LONG%d", l.Offset, l.Len))
			} else {
				got = append(got, fmt.Sprintf("%d:%s", l.Offset, l.Data))
			}
		}
		for i := 0; len(f.data) < len(data); i++ {
			n := len(data) - len(f.data)
			if i < len(cuts) {
				n = min(n, int(cuts[i])+1)
			}
			f.data = data[:len(f.data)+n]
			for {
				s := tl.Next(f.stat())
				if s.Change != nil && s.Change.Change != evidence.FileAppeared {
					t.Fatalf("change %v on an append-only file", s.Change.Change)
				}
				if s.ReadLen == 0 {
					break
				}
				if ch := tl.Feed(f.data[s.ReadAt:s.ReadAt+int64(s.ReadLen)], emit); ch != nil {
					t.Fatalf("change %v on an append-only file", ch.Change)
				}
			}
		}
		var want []string
		off := 0
		for {
			i := bytes.IndexByte(data[off:], '\n')
			if i < 0 {
				break
			}
			if i > ml {
				want = append(want, fmt.Sprintf("%d:LONG%d", off, i))
			} else {
				want = append(want, fmt.Sprintf("%d:%s", off, data[off:off+i]))
			}
			off += i + 1
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}
