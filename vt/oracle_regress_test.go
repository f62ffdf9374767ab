package vt

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Regression streams: every difference the oracle found, minimised, kept
// under testdata/regress and replayed against tmux on every run. A file is
// text: '#' comment lines, "size WxH", then one or more "data <Go-quoted
// string>" lines whose contents are concatenated, and for a difference
// that needs particular write boundaries, "cuts <offset> ...".

type regressCase struct {
	Note          string
	Width, Height int
	Data          []byte
	Cuts          []int // write boundaries the difference needs; nil if none
}

func writeRegress(path string, c regressCase) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# akk vt regression stream: tmux 3.3a and the model must agree on it.\n")
	for _, line := range strings.Split(c.Note, "\n") {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	fmt.Fprintf(&b, "size %dx%d\n", c.Width, c.Height)
	for rest := c.Data; len(rest) > 0; {
		n := min(len(rest), 64)
		fmt.Fprintf(&b, "data %q\n", rest[:n])
		rest = rest[n:]
	}
	if c.Cuts != nil {
		fmt.Fprintf(&b, "cuts")
		for _, n := range c.Cuts {
			fmt.Fprintf(&b, " %d", n)
		}
		fmt.Fprintf(&b, "\n")
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func readRegress(path string) (regressCase, error) {
	var c regressCase
	f, err := os.Open(path)
	if err != nil {
		return c, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "size":
			if _, err := fmt.Sscanf(val, "%dx%d", &c.Width, &c.Height); err != nil {
				return c, fmt.Errorf("%s:%d: size: %w", path, n, err)
			}
		case "data":
			s, err := strconv.Unquote(val)
			if err != nil {
				return c, fmt.Errorf("%s:%d: data: %w", path, n, err)
			}
			c.Data = append(c.Data, s...)
		case "cuts":
			c.Cuts = []int{}
			for _, f := range strings.Fields(val) {
				k, err := strconv.Atoi(f)
				if err != nil {
					return c, fmt.Errorf("%s:%d: cuts: %w", path, n, err)
				}
				c.Cuts = append(c.Cuts, k)
			}
		default:
			return c, fmt.Errorf("%s:%d: unknown line %q", path, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	if c.Width < 1 || c.Height < 1 {
		return c, fmt.Errorf("%s: no size", path)
	}
	for i, k := range c.Cuts {
		if k <= 0 || k >= len(c.Data) || i > 0 && k <= c.Cuts[i-1] {
			return c, fmt.Errorf("%s: cut %d out of order or range", path, k)
		}
	}
	return c, nil
}

// TestTmuxOracleRegress replays every regression stream: the model must
// agree with tmux fed in one write, one byte per write, and random chunks.
func TestTmuxOracleRegress(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "regress", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no regression streams yet")
	}
	rig := newTmuxRig(t)
	title := rig.initialTitle(t)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			c, err := readRegress(path)
			if err != nil {
				t.Fatal(err)
			}
			v, err := rig.Run(context.Background(), c.Data, c.Width, c.Height)
			if err != nil {
				t.Fatal(err)
			}
			feeds := []struct {
				name   string
				chunks [][]byte
			}{
				{"one write", [][]byte{c.Data}},
				{"byte by byte", splitBytes(c.Data)},
				{"random chunks", randomChunks(c.Data, path)},
			}
			if c.Cuts != nil {
				feeds = append(feeds, struct {
					name   string
					chunks [][]byte
				}{fmt.Sprintf("pieces cut at %v", c.Cuts), chunksAt(c.Data, c.Cuts)})
			}
			for _, feed := range feeds {
				if diffs, rep := checkStreamRetrying(t, rig, c.Data, feed.chunks, c.Width, c.Height, v, title); diffs != nil {
					t.Errorf("%s (%dx%d), fed %s:\n%s", path, c.Width, c.Height, feed.name, rep)
				}
			}
		})
	}
}

// randomChunks cuts data at places that depend only on name.
func randomChunks(data []byte, name string) [][]byte {
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(h.Sum64(), 1))
	var out [][]byte
	for len(data) > 0 {
		n := min(1+r.IntN(16), len(data))
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

func TestRegressFileRoundTrip(t *testing.T) {
	want := regressCase{Note: "a\nb", Width: 7, Height: 3, Data: []byte(strings.Repeat("\x1b[1mé\x00\xff", 20)), Cuts: []int{3, 70}}
	path := filepath.Join(t.TempDir(), "x.txt")
	if err := writeRegress(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := readRegress(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Width != want.Width || got.Height != want.Height || !bytes.Equal(got.Data, want.Data) ||
		fmt.Sprint(got.Cuts) != fmt.Sprint(want.Cuts) {
		t.Fatalf("round trip: got %+v", got)
	}
}
