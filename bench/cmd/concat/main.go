// Command concat times string building with += in a loop on codemode's interpreter and on
// goja for several lengths, to show how each engine's time grows with the number of
// appends (linear: doubling n doubles the time; quadratic: it quadruples it).
//
//	cd bench && go run ./cmd/concat [-n 20000,40000,80000] [-runs N]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/codemode/codemode/bench"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// concatScript builds a string of n appends of one character.
func concatScript(n int) string {
	return fmt.Sprintf(`function main() {
  let s = "";
  for (let i = 0; i < %d; i++) {
    s += "x";
  }
  return s.length;
}
`, n)
}

func parseSizes(list string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-n: %q is not a positive integer", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("concat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	list := fs.String("n", "20000,40000,80000", "comma-separated numbers of appends")
	runs := fs.Int("runs", 3, "timed runs per size and engine (the median is reported)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	sizes, err := parseSizes(*list)
	if err != nil || *runs < 1 {
		fmt.Fprintln(stderr, "concat: bad flags:", err)
		return 2
	}
	engines := []bench.Engine{bench.Ours{}, bench.Goja{}}
	fmt.Fprintf(stdout, "%-8s %10s %12s %10s\n", "engine", "n", "time", "growth")
	failed := false
	for _, e := range engines {
		var prev time.Duration
		prevN := 0
		for _, n := range sizes {
			src := concatScript(n)
			want := strconv.Itoa(n)
			var times []time.Duration
			for range *runs {
				start := time.Now()
				got, err := e.Run(ctx, src)
				d := time.Since(start)
				if err == nil && got != want {
					err = fmt.Errorf("%w: got %s, want %s", bench.ErrWrongValue, got, want)
				}
				if err != nil {
					fmt.Fprintf(stderr, "concat: %s n=%d: %v\n", e.Name(), n, err)
					failed = true
					break
				}
				times = append(times, d)
			}
			if len(times) == 0 {
				continue
			}
			med := bench.Median(times)
			growth := "-"
			if prev > 0 {
				// The growth of time per doubling of n normalised to the size ratio: 1.0 is linear.
				growth = fmt.Sprintf("%.2fx", float64(med)/float64(prev)/(float64(n)/float64(prevN)))
			}
			fmt.Fprintf(stdout, "%-8s %10d %12s %10s\n", e.Name(), n, med.Round(10*time.Microsecond), growth)
			prev, prevN = med, n
		}
	}
	fmt.Fprintln(stdout, "growth: time ratio over size ratio against the previous n (1.0 linear, 2.0 quadratic)")
	if failed {
		return 1
	}
	return 0
}
