// Command libprof runs one library of the library set once on one engine, for profiling and
// for counting instructions:
//
//	cd bench && go run ./cmd/libprof -lib dayjs [-n 10] [-engine ours|goja|node]
//	    [-cpuprofile FILE] [-memprofile FILE] [-workload FILE]
//
// It prints the bytes and objects the Go heap allocated during the run (ours and goja) and the
// load and elapsed times, and checks the output against node's. -workload replaces the
// library's workload with another file (its output is then printed, not checked), to time
// parts of a library. Under valgrind, run it with GOMAXPROCS=1 and
// GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off (valgrind knows neither the preemption signals
// nor RDTSCP); GOGC=off leaves the collector out of the count.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/codemode/codemode/bench"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "libprof:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("libprof", flag.ContinueOnError)
	lib := fs.String("lib", "", "the library's name (libs/libs.json)")
	n := fs.Int("n", 10, "timed calls of main after the first")
	engine := fs.String("engine", "ours", "ours, goja or node (node --jitless)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	memProfile := fs.String("memprofile", "", "write an allocation profile of the run to this file")
	workload := fs.String("workload", "", "a file replacing the library's workload")
	if err := fs.Parse(args); err != nil {
		return err
	}
	set, err := bench.LoadLibraries(bench.LibsDir)
	if err != nil {
		return err
	}
	var p bench.Program
	for _, l := range set.Libraries {
		if l.Name == *lib {
			if p, err = set.Program(l); err != nil {
				return err
			}
		}
	}
	if p.Name == "" {
		return fmt.Errorf("no library %q", *lib)
	}
	if *workload != "" {
		w, err := os.ReadFile(*workload)
		if err != nil {
			return err
		}
		orig, err := os.ReadFile(filepath.Join(bench.LibsDir, "workloads", p.Name+".js"))
		if err != nil {
			return err
		}
		p.Text, p.Expected = strings.Replace(p.Text, string(orig), string(w), 1), ""
	}
	var e bench.LibEngine
	switch *engine {
	case "ours":
		e = bench.Ours{}
	case "goja":
		e = bench.Goja{}
	case "node":
		e = bench.Node{Jitless: true}
	default:
		return fmt.Errorf("unknown engine %q", *engine)
	}
	if *memProfile != "" {
		runtime.MemProfileRate = 512
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := e.RunLib(context.Background(), p.Text, *n)
	runtime.ReadMemStats(&after)
	if *cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "allocated %d bytes in %d objects, %d GCs\n",
		after.TotalAlloc-before.TotalAlloc, after.Mallocs-before.Mallocs, after.NumGC-before.NumGC)
	if *memProfile != "" {
		f, err := os.Create(*memProfile)
		if err != nil {
			return err
		}
		werr := pprof.Lookup("allocs").WriteTo(f, 0)
		if err := errors.Join(werr, f.Close()); err != nil {
			return err
		}
	}
	if p.Expected == "" {
		fmt.Fprintln(stdout, r.Output)
	} else if r.Output != p.Expected {
		return fmt.Errorf("%s: the output differs from node's", p.Name)
	}
	fmt.Fprintf(stdout, "%s load %v elapsed %v\n", p.Name, r.Load, r.Elapsed)
	return nil
}
