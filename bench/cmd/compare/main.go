// Command compare runs the benchmark scripts on codemode's interpreter and on goja in the
// same process, several times each (alternating engines), and prints the median times,
// the ratio ours/goja per script and the geometric mean of the ratios.
//
//	cd bench && go run ./cmd/compare [-json OUT] [-runs N] [-filter RE] [-set scripts|libs]
//
// Before timing, each script's value is checked on both engines against node's value; a
// script that fails on an engine is reported and left out of the geometric mean.
//
// -set libs runs the library set (libs/, installed by libs/fetch.sh) instead, on codemode,
// goja and node --jitless (a subprocess), and reports per library the median time of one call
// of its workload on each engine, the ratios ours/goja and ours/node-jitless and their
// geometric means. An engine that fails a library (an error, or another output than node's)
// is listed with its error and left out of the ratios.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/codemode/codemode/bench"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// runTimeout bounds one run of one script on one engine.
const runTimeout = 2 * time.Minute

// entry is one row of the JSON report.
type entry struct {
	Name   string  `json:"name"`
	OursNS int64   `json:"ours_ns"`
	GojaNS int64   `json:"goja_ns"`
	Ratio  float64 `json:"ratio"`
}

// report is the JSON document written by -json.
type report struct {
	Benchmarks []entry `json:"benchmarks"`
	Geomean    float64 `json:"geomean"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.String("json", "", "write the JSON report to this file")
	runs := fs.Int("runs", 5, "timed runs per script and engine (the median is reported)")
	filter := fs.String("filter", "", "run only scripts whose name matches this regular expression")
	set := fs.String("set", "scripts", "benchmark set: scripts (scripts/*.js) or libs (the library set in -libs)")
	libsDir := fs.String("libs", bench.LibsDir, "the library set's directory (-set libs)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	re, err := regexp.Compile(*filter)
	if err != nil {
		fmt.Fprintln(stderr, "compare: -filter:", err)
		return 2
	}
	if *runs < 1 {
		fmt.Fprintln(stderr, "compare: -runs must be at least 1")
		return 2
	}
	switch *set {
	case "scripts":
	case "libs":
		return runLibs(ctx, *libsDir, re, *runs, *jsonOut, stdout, stderr)
	default:
		fmt.Fprintln(stderr, "compare: -set must be scripts or libs")
		return 2
	}
	scripts, err := bench.Scripts()
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	rep, failed := compare(ctx, scripts, re, *runs, bench.Ours{}, bench.Goja{}, stdout, stderr)
	if *jsonOut != "" {
		if err := writeReport(*jsonOut, rep); err != nil {
			fmt.Fprintln(stderr, "compare:", err)
			return 1
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "compare: %d script(s) failed\n", failed)
		return 1
	}
	return 0
}

// compare checks and times every selected script on both engines and prints the table.
// It returns the report and the number of scripts that failed on an engine.
func compare(ctx context.Context, scripts []bench.Script, re *regexp.Regexp, runs int, ours, goja bench.Engine, stdout, stderr io.Writer) (report, int) {
	rep := report{Benchmarks: []entry{}}
	var ratios []float64
	failed := 0
	fmt.Fprintf(stdout, "%-22s %12s %12s %8s\n", "name", "ours", "goja", "ratio")
	for _, s := range scripts {
		if !re.MatchString(s.Name) {
			continue
		}
		e, err := measure(ctx, s, runs, ours, goja)
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "%-22s %12s %12s %8s\n", s.Name, "-", "-", "error")
			fmt.Fprintf(stderr, "compare: %v\n", err)
			continue
		}
		ratios = append(ratios, e.Ratio)
		rep.Benchmarks = append(rep.Benchmarks, e)
		fmt.Fprintf(stdout, "%-22s %12s %12s %7.2fx\n", s.Name, round(e.OursNS), round(e.GojaNS), e.Ratio)
	}
	if len(ratios) == 0 {
		fmt.Fprintln(stdout, "geomean ratio vs goja: n/a")
		return rep, failed
	}
	rep.Geomean = bench.Geomean(ratios)
	fmt.Fprintf(stdout, "geomean ratio vs goja: %.3f\n", rep.Geomean)
	return rep, failed
}

// measure checks a script's value on both engines, then times it runs times on each,
// alternating, and returns the medians.
func measure(ctx context.Context, s bench.Script, runs int, ours, goja bench.Engine) (entry, error) {
	engines := []bench.Engine{ours, goja}
	times := make([][]time.Duration, len(engines))
	for _, e := range engines {
		if err := checkOnce(ctx, e, s); err != nil {
			return entry{}, err
		}
	}
	for range runs {
		for i, e := range engines {
			rctx, cancel := context.WithTimeout(ctx, runTimeout)
			d, err := bench.Time(rctx, e, s.Source)
			cancel()
			if err != nil {
				return entry{}, fmt.Errorf("%s: %w", s.Name, err)
			}
			times[i] = append(times[i], d)
		}
	}
	oursNS := bench.Median(times[0]).Nanoseconds()
	gojaNS := bench.Median(times[1]).Nanoseconds()
	return entry{Name: s.Name, OursNS: oursNS, GojaNS: gojaNS, Ratio: float64(oursNS) / float64(gojaNS)}, nil
}

func checkOnce(ctx context.Context, e bench.Engine, s bench.Script) error {
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	return bench.Check(ctx, e, s)
}

func round(ns int64) string {
	return time.Duration(ns).Round(10 * time.Microsecond).String()
}

// runLibs runs the library set on codemode, goja and node --jitless.
func runLibs(ctx context.Context, dir string, re *regexp.Regexp, runs int, jsonOut string, stdout, stderr io.Writer) int {
	progs, err := loadLibPrograms(dir)
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	engines := [3]bench.LibEngine{bench.Ours{}, bench.Goja{}, bench.Node{Jitless: true}}
	rep, failed := compareLibs(ctx, progs, re, runs, engines, stdout, stderr)
	if jsonOut != "" {
		if err := writeReport(jsonOut, rep); err != nil {
			fmt.Fprintln(stderr, "compare:", err)
			return 1
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "compare: %d library(ies) failed on ours\n", failed)
		return 1
	}
	return 0
}

func writeReport(file string, rep any) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
