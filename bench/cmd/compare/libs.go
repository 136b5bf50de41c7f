package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/codemode/codemode/bench"
)

// libEntry is one row of the library set's JSON report: median nanoseconds per call of main
// on each engine (0 when the engine failed) and the ratios of ours to the others (0 when
// either side failed), and the median load times (compiling the program and evaluating the
// library). The geomeans are 0 when there is no ratio.
type libEntry struct {
	Name              string  `json:"name"`
	Version           string  `json:"version"`
	OursNS            int64   `json:"ours_ns"`
	GojaNS            int64   `json:"goja_ns"`
	NodeJitlessNS     int64   `json:"node_jitless_ns"`
	Ratio             float64 `json:"ratio"`
	RatioNodeJitless  float64 `json:"ratio_node_jitless"`
	OursLoadNS        int64   `json:"ours_load_ns"`
	GojaLoadNS        int64   `json:"goja_load_ns"`
	NodeJitlessLoadNS int64   `json:"node_jitless_load_ns"`
}

// libFailure is an engine that could not run a library, or gave another output than node.
type libFailure struct {
	Name   string `json:"name"`
	Engine string `json:"engine"`
	Error  string `json:"error"`
}

// libReport is the JSON document written by -json for -set libs.
type libReport struct {
	Benchmarks         []libEntry   `json:"benchmarks"`
	Geomean            float64      `json:"geomean"`
	GeomeanNodeJitless float64      `json:"geomean_node_jitless"`
	Failures           []libFailure `json:"failures"`
}

// compareLibs checks every selected library program on every engine (engines[0] is ours,
// then goja and node --jitless), times the ones that passed and prints the table. It returns
// the report and the number of unexpected failures of ours: a library marked as needing a
// missing feature is reported but not counted.
func compareLibs(ctx context.Context, progs []bench.Program, re *regexp.Regexp, runs int, engines [3]bench.LibEngine, stdout, stderr io.Writer) (libReport, int) {
	rep := libReport{Benchmarks: []libEntry{}, Failures: []libFailure{}}
	var vsGoja, vsNode []float64
	failed := 0
	fmt.Fprintf(stdout, "%-16s %-8s %11s %11s %12s %9s %9s\n", "name", "version", "ours", "goja", "node-jitless", "ours/goja", "ours/node")
	for _, p := range progs {
		if !re.MatchString(p.Name) {
			continue
		}
		var ok [3]bool
		for i, e := range engines {
			err := checkLib(ctx, e, p)
			ok[i] = err == nil
			if err != nil {
				rep.Failures = append(rep.Failures, libFailure{Name: p.Name, Engine: e.Name(), Error: err.Error()})
				fmt.Fprintf(stderr, "compare: %v\n", err)
				if i == 0 && p.Needs == "" {
					failed++
				}
			}
		}
		ns, load, err := timeLib(ctx, p, runs, engines, ok)
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "compare: %v\n", err)
			continue
		}
		e := libEntry{
			Name: p.Name, Version: p.Version, OursNS: ns[0], GojaNS: ns[1], NodeJitlessNS: ns[2],
			OursLoadNS: load[0], GojaLoadNS: load[1], NodeJitlessLoadNS: load[2],
		}
		if ok[0] && ok[1] {
			e.Ratio = float64(ns[0]) / float64(ns[1])
			vsGoja = append(vsGoja, e.Ratio)
		}
		if ok[0] && ok[2] {
			e.RatioNodeJitless = float64(ns[0]) / float64(ns[2])
			vsNode = append(vsNode, e.RatioNodeJitless)
		}
		rep.Benchmarks = append(rep.Benchmarks, e)
		fmt.Fprintf(stdout, "%-16s %-8s %11s %11s %12s %9s %9s\n", p.Name, p.Version,
			cell(ns[0], ok[0]), cell(ns[1], ok[1]), cell(ns[2], ok[2]), ratioCell(e.Ratio), ratioCell(e.RatioNodeJitless))
	}
	fmt.Fprintf(stdout, "geomean ratio vs goja: %s (%d libraries)\n", geoCell(vsGoja), len(vsGoja))
	fmt.Fprintf(stdout, "geomean ratio vs node --jitless: %s (%d libraries)\n", geoCell(vsNode), len(vsNode))
	if len(vsGoja) > 0 {
		rep.Geomean = bench.Geomean(vsGoja)
	}
	if len(vsNode) > 0 {
		rep.GeomeanNodeJitless = bench.Geomean(vsNode)
	}
	printLoads(stdout, rep.Benchmarks)
	return rep, failed
}

// printLoads prints the load times: compiling each program and evaluating its library, not
// part of the ratios above.
func printLoads(stdout io.Writer, rows []libEntry) {
	fmt.Fprintf(stdout, "\nload (compile and evaluate the library, median):\n%-16s %11s %11s %12s\n", "name", "ours", "goja", "node-jitless")
	for _, e := range rows {
		fmt.Fprintf(stdout, "%-16s %11s %11s %12s\n", e.Name,
			cell(e.OursLoadNS, e.OursLoadNS > 0), cell(e.GojaLoadNS, e.GojaLoadNS > 0), cell(e.NodeJitlessLoadNS, e.NodeJitlessLoadNS > 0))
	}
}

// timeLib times a program runs times on each engine that passed its check, alternating the
// engines, and returns the median time per call of main and the median load time (0 for the
// others).
func timeLib(ctx context.Context, p bench.Program, runs int, engines [3]bench.LibEngine, ok [3]bool) (ns, load [3]int64, err error) {
	var times, loads [3][]time.Duration
	for range runs {
		for i, e := range engines {
			if !ok[i] {
				continue
			}
			rctx, cancel := context.WithTimeout(ctx, runTimeout)
			r, err := e.RunLib(rctx, p.Text, p.Iterations)
			cancel()
			if err != nil {
				return ns, load, fmt.Errorf("%s on %s: %w", p.Name, e.Name(), err)
			}
			times[i] = append(times[i], r.Elapsed)
			loads[i] = append(loads[i], r.Load)
		}
	}
	for i := range engines {
		if ok[i] {
			ns[i] = max(1, bench.Median(times[i]).Nanoseconds()/int64(p.Iterations))
			load[i] = max(1, bench.Median(loads[i]).Nanoseconds())
		}
	}
	return ns, load, nil
}

func checkLib(ctx context.Context, e bench.LibEngine, p bench.Program) error {
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	return bench.CheckLib(ctx, e, p)
}

func cell(ns int64, ok bool) string {
	if !ok {
		return "fails"
	}
	return time.Duration(ns).Round(time.Microsecond).String()
}

func ratioCell(r float64) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", r)
}

// geoCell prints the geometric mean of ratios, "n/a" for none.
func geoCell(ratios []float64) string {
	if len(ratios) == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", bench.Geomean(ratios))
}

// loadLibPrograms assembles every library program of the set in dir.
func loadLibPrograms(dir string) ([]bench.Program, error) {
	set, err := bench.LoadLibraries(dir)
	if err != nil {
		return nil, err
	}
	var progs []bench.Program
	for _, lib := range set.Libraries {
		p, err := set.Program(lib)
		if err != nil {
			return nil, err
		}
		progs = append(progs, p)
	}
	return progs, nil
}
