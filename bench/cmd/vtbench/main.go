// Command vtbench measures akk's vt and github.com/charmbracelet/x/vt side by
// side in one process: every consumer x input x chunking, in interleaved
// rounds whose order alternates (forward, then backward), and prints a
// Markdown table of medians with their min-max and the akk / x-vt
// throughput ratio per input and chunking (the median of per-round ratios).
//
//	go run ./cmd/vtbench              # 7 rounds, 16 MiB inputs
//	go run ./cmd/vtbench -rounds 1 -bytes 1000000 -consumers x-vt
//
// Progress goes to stderr, the table to stdout.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/bench"
	"github.com/agent-knock-knock/akk/internal/benchinput"
)

func main() {
	rounds := flag.Int("rounds", 7, "interleaved rounds (at least 5 for a quotable median)")
	size := flag.Int("bytes", benchinput.DefaultSize, "size of each input in bytes")
	chunk := flag.Int("chunk", bench.ChunkSize, "mean write size in bytes")
	consumers := flag.String("consumers", "akk,x-vt", "comma-separated consumers")
	inputs := flag.String("inputs", "agent,log", "comma-separated inputs")
	flag.Parse()
	if *rounds < 1 || *size < 1 || *chunk < 2 {
		fmt.Fprintln(os.Stderr, "vtbench: -rounds, -bytes and -chunk must be positive")
		os.Exit(2)
	}

	cs, err := pick(bench.Consumers, *consumers, func(c bench.Consumer) string { return c.Name })
	if err != nil {
		fmt.Fprintln(os.Stderr, "vtbench:", err)
		os.Exit(2)
	}
	ins, err := pick(bench.Inputs, *inputs, func(in bench.Input) string { return in.Name })
	if err != nil {
		fmt.Fprintln(os.Stderr, "vtbench:", err)
		os.Exit(2)
	}

	// The cases, in table order.
	type key struct{ input, cut, consumer string }
	type testCase struct {
		key
		c      bench.Consumer
		chunks [][]byte
	}
	var cases []testCase
	sizes := map[string]int{}
	nchunks := map[key]int{}
	for _, in := range ins {
		data := in.Gen(*size)
		sizes[in.Name] = len(data)
		for _, cut := range benchinput.Cuts {
			chunks := benchinput.Chunks(data, *chunk, cut)
			nchunks[key{in.Name, cut.String(), ""}] = len(chunks)
			for _, c := range cs {
				cases = append(cases, testCase{key{in.Name, cut.String(), c.Name}, c, chunks})
			}
		}
	}

	start := time.Now()
	load0 := loadavg()
	results := map[key][]bench.Result{}
	for r := range *rounds {
		order := slices.Clone(cases)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, tc := range order {
			res := bench.Measure(tc.c, tc.chunks)
			results[tc.key] = append(results[tc.key], res)
			fmt.Fprintf(os.Stderr, "round %d/%d  %-5s %-5s %-5s %8.1f MB/s %12.0f allocs/MB %14.0f B/MB\n",
				r+1, *rounds, tc.input, tc.cut, tc.consumer, res.MBps(), res.AllocsPerMB(), res.BytesPerMB())
		}
	}

	w := os.Stdout
	fmt.Fprintf(w, "vtbench %s: %d rounds, order alternated; %s\n", start.UTC().Format(time.RFC3339), *rounds, time.Since(start).Round(time.Second))
	fmt.Fprintf(w, "%s %s/%s, %s, %d CPUs, GOMAXPROCS %d; load average before %s, after %s\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), load0, loadavg())
	for _, in := range ins {
		fmt.Fprintf(w, "input %s: %d bytes (%.1f MB)", in.Name, sizes[in.Name], float64(sizes[in.Name])/bench.MB)
		for _, cut := range benchinput.Cuts {
			fmt.Fprintf(w, "; %s cut: %d chunks", cut, nchunks[key{in.Name, cut.String(), ""}])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "each pass: fresh %dx%d emulator, warmed with %d bytes of the input (untimed), GC, then the whole input in ~%d-byte writes\n\n",
		bench.Width, bench.Height, bench.WarmBytes, *chunk)

	fmt.Fprintln(w, "| input | cut | consumer | MB/s median (min–max) | allocs/MB median (min–max) | bytes/MB median (min–max) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, tc := range cases {
		rs := results[tc.key]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", tc.input, tc.cut, tc.consumer,
			spread(rs, bench.Result.MBps, "%.1f"),
			spread(rs, bench.Result.AllocsPerMB, "%.0f"),
			spread(rs, bench.Result.BytesPerMB, "%.0f"))
	}

	if len(cs) == 2 {
		a, b := cs[0].Name, cs[1].Name
		fmt.Fprintf(w, "\n| input | cut | %s ÷ %s MB/s, median of per-round ratios (min–max) |\n|---|---|---|\n", a, b)
		for _, in := range ins {
			for _, cut := range benchinput.Cuts {
				ra := results[key{in.Name, cut.String(), a}]
				rb := results[key{in.Name, cut.String(), b}]
				ratios := make([]float64, len(ra))
				for i := range ra {
					ratios[i] = ra[i].MBps() / rb[i].MBps()
				}
				fmt.Fprintf(w, "| %s | %s | %s |\n", in.Name, cut, spreadOf(ratios, "%.2f"))
			}
		}
	}
}

// pick returns the items named in the comma-separated list, in list order.
func pick[T any](all []T, list string, name func(T) string) ([]T, error) {
	var out []T
	for n := range strings.SplitSeq(list, ",") {
		n = strings.TrimSpace(n)
		i := slices.IndexFunc(all, func(t T) bool { return name(t) == n })
		if i < 0 {
			var names []string
			for _, t := range all {
				names = append(names, name(t))
			}
			return nil, fmt.Errorf("unknown %q (have %s)", n, strings.Join(names, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

func spread(rs []bench.Result, f func(bench.Result) float64, format string) string {
	vs := make([]float64, len(rs))
	for i, r := range rs {
		vs[i] = f(r)
	}
	return spreadOf(vs, format)
}

// spreadOf formats the median of vs and, for more than one value, its
// min-max.
func spreadOf(vs []float64, format string) string {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	if n == 1 {
		return fmt.Sprintf(format, med)
	}
	return fmt.Sprintf(format+" ("+format+"–"+format+")", med, s[0], s[n-1])
}

func cpuModel() string {
	b, err := readFile("/proc/cpuinfo")
	if err != nil {
		return "cpu unknown"
	}
	for line := range strings.SplitSeq(b, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "cpu unknown"
}

func loadavg() string {
	b, err := readFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(b)
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func readFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}
