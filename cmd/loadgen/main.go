// Command loadgen measures a codemode service under load: runs per second and latency
// percentiles for a trivial run, a run of 10 sequential tool calls, and a run that suspends on
// a durable call and is resumed by an outcome POST (see docs/architecture.md, "Benchmarks").
//
//	go run ./cmd/loadgen                      # starts codemode dev on a private PostgreSQL
//	go run ./cmd/loadgen -ceiling             # the same, after measuring the PostgreSQL ceiling
//	go run ./cmd/loadgen -url http://127.0.0.1:8080 -concurrency 32 -duration 20s
//
// With -ceiling it first measures, with pgbench on the service's own database, the bare
// lifecycle of a run in three transactions (create the run and its job; take the job; store
// the result), the most the database allows, and prints each scenario's runs/s as a ratio to
// it. With calls10 among the scenarios it also measures the least a run of 10 sequential calls
// costs under the promise that a completed call is never repeated (each call's toolset exchange,
// then its journal write, with nothing of the service around them), and prints calls10 as a
// ratio to that. With -url, -ceiling needs -database-url (DATABASE_URL).
//
// With -workers N (and no -url) it starts N-1 worker processes besides codemode dev's worker, on
// the same database, to see how the service scales out (scripts/scaleout.sh runs 1, 2 and 4).
//
// With -pg-counts it counts what a run of each scenario costs the database (statements, round
// trips, writing transactions, commits, WAL flushes), and a call and a resume on top of a
// trivial run: figures that hold on a busy machine, unlike the rates.
//
// It serves its own toolset on loopback and registers it as "loadgen"; the service must be
// able to reach it. With -json it prints the results as JSON instead of a table.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/loadgen"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", os.Getenv("CODEMODE_URL"), "service base URL (CODEMODE_URL); empty: start codemode dev on a private PostgreSQL")
	token := fs.String("token", os.Getenv("CODEMODE_API_TOKEN"), "bearer token (CODEMODE_API_TOKEN)")
	data := fs.String("data", "", "with no -url: directory for the private PostgreSQL (default: a temporary directory, removed at the end)")
	names := fs.String("scenarios", "trivial,calls10,resume", "comma-separated scenarios")
	concurrencyList := fs.String("concurrency", "16", "runs in flight at once; a comma-separated list (16,1) runs every scenario at each, in order, so a saturated machine's throughput and an unloaded run's latency come out of one measurement")
	duration := fs.Duration("duration", 10*time.Second, "measured time per scenario")
	warmup := fs.Duration("warmup", time.Second, "unmeasured time before each scenario")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	ceiling := fs.Bool("ceiling", false, "first measure the raw PostgreSQL ceiling with pgbench (and, with calls10, the least a run of 10 calls costs) and print ratios to them")
	dbURL := fs.String("database-url", os.Getenv("DATABASE_URL"), "with -url and -ceiling: the service's database (DATABASE_URL)")
	pgSettings := map[string]string{}
	fs.Func("pg-setting", "with no -url: a PostgreSQL server setting name=value for the private cluster (repeatable), e.g. shared_preload_libraries=pg_stat_statements",
		func(v string) error {
			name, value, ok := strings.Cut(v, "=")
			if !ok || name == "" {
				return fmt.Errorf("want name=value, got %q", v)
			}
			pgSettings[name] = value
			return nil
		})
	syncJournal := fs.Bool("synchronous-journal", false, "with no -url: run codemode dev with --synchronous-journal (every record waits for the disk), to see what asynchronous journal commits buy")
	pgCounts := fs.Bool("pg-counts", false, "count what each scenario costs the database per run (statements, round trips, writing transactions, commits, WAL flushes) and the derived cost per call and per resume; with no -url the private cluster loads pg_stat_statements, with -url its server must (needs -database-url)")
	pgTop := fs.Int("pg-top", 0, "with -pg-counts: list this many of the most frequent statements of each scenario")
	workers := fs.Int("workers", 1, "with no -url: worker processes driving runs, codemode dev's own included (the others are this program again, with -worker-process)")
	workerProcess := fs.Bool(workerProcessFlag, false, "be a worker process of the service another loadgen started, on -database-url with the key in -secret-file, until interrupted")
	secretFile := fs.String("secret-file", "", "with -worker-process: the file holding the service's secret key")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process (with no -url: the service too) to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *workerProcess {
		return runWorkerProcess(ctx, *dbURL, *secretFile, *syncJournal, stderr)
	}
	concurrencies, err := parseConcurrencies(*concurrencyList)
	if err != nil {
		return err
	}
	if *workers < 1 || (*workers > 1 && *url != "") {
		return fmt.Errorf("-workers wants a positive number, and more than one only with no -url")
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
		defer pprof.StopCPUProfile()
	}
	inProcess := *url == ""
	if *pgCounts && inProcess {
		if cur := pgSettings["shared_preload_libraries"]; cur == "" {
			pgSettings["shared_preload_libraries"] = "pg_stat_statements"
		} else if !strings.Contains(cur, "pg_stat_statements") {
			pgSettings["shared_preload_libraries"] = cur + ",pg_stat_statements"
		}
	}
	if *url == "" {
		dir := *data
		if dir == "" {
			tmp, err := os.MkdirTemp("", "loadgen")
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			dir = tmp
		}
		svc, err := loadgen.StartService(ctx, dir, stderr, pgSettings, devFlags(*syncJournal, slices.Max(concurrencies))...)
		if err != nil {
			return err
		}
		defer svc.Stop()
		*url = svc.URL
		*dbURL = svc.DatabaseURL
		if *workers > 1 {
			stopWorkers, err := startWorkers(*workers-1, svc.DatabaseURL, dir, *syncJournal, stderr)
			if err != nil {
				return err
			}
			defer stopWorkers()
		}
	}
	scenarioNames := strings.Split(*names, ",")
	var results []loadgen.Result
	if *ceiling {
		if *dbURL == "" {
			return fmt.Errorf("-ceiling with -url needs -database-url (or DATABASE_URL)")
		}
		c, err := loadgen.Ceiling(ctx, *dbURL, concurrencies[0], *duration)
		if err != nil {
			return err
		}
		results = append(results, c)
		if slices.Contains(scenarioNames, "calls10") {
			c, err := loadgen.CallsCeiling(ctx, *dbURL, concurrencies[0], *duration, *warmup, *syncJournal)
			if err != nil {
				return err
			}
			results = append(results, c)
		}
	}
	var counter *loadgen.Counter
	if *pgCounts {
		if *dbURL == "" {
			return fmt.Errorf("-pg-counts with -url needs -database-url (or DATABASE_URL)")
		}
		counter = &loadgen.Counter{DatabaseURL: *dbURL, Top: *pgTop}
		if inProcess && *workers == 1 { // other processes' round trips are not seen here
			counter.RoundTrips = durable.RoundTrips
		}
	}
	var measured []loadgen.Result
	for _, concurrency := range concurrencies {
		m, err := loadgen.Run(ctx, loadgen.Config{
			URL: *url, Token: *token, Scenarios: scenarioNames,
			Concurrency: concurrency, Duration: *duration, Warmup: *warmup, Counter: counter,
			DatabaseURL: *dbURL,
		})
		if err != nil {
			return err
		}
		measured = append(measured, m...)
	}
	if *ceiling {
		loadgen.RatiosTo(results, measured)
	}
	loadgen.PerCall(measured)
	results = append(results, measured...)
	loadgen.BeyondToolset(results)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(results)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tin flight\truns/s\t÷ ceiling\truns\terrors\tp50\tp90\tp99\tmax\tcpu/run client+pg\tothers+steal\tlatency of")
	for _, r := range results {
		ratio := "-"
		if r.CeilingRatio > 0 {
			ratio = fmt.Sprintf("%.2f", r.CeilingRatio)
		}
		cpu := "-"
		if r.CPU != nil {
			cpu = fmt.Sprintf("%.2f+%.2fms", float64(r.CPU.Client)/1e6, float64(r.CPU.Postgres)/1e6)
		}
		others := "-"
		if r.Machine != nil {
			others = fmt.Sprintf("%.0f%%+%.0f%%", 100*r.Machine.Others, 100*r.Machine.Steal)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Scenario, r.Concurrency, r.RunsPerSec, ratio, r.Runs, r.Errors,
			ms(r.Latency.P50), ms(r.Latency.P90), ms(r.Latency.P99), ms(r.Latency.Max), cpu, others, r.Measures)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		if r.PerCallP50 != 0 {
			fmt.Fprintf(stdout, "a call, %d in flight: (calls10 p50 - trivial p50) / 10 = %s", r.Concurrency, ms2(r.PerCallP50))
			if r.CallTime > 0 {
				fmt.Fprintf(stdout, "; its exchange with the toolset, as the service timed it (mean): %s", ms2(r.CallTime))
			}
			if r.ToolsetTime > 0 {
				label := ", with no service"
				if r.CallTime == 0 {
					label = "; its exchange with the toolset with no service"
				}
				fmt.Fprintf(stdout, "%s (calls10-ceiling's client): %s", label, ms2(r.ToolsetTime))
			}
			fmt.Fprintln(stdout)
		}
		if r.ToolsetTime > 0 {
			fmt.Fprintf(stdout, "beyond the toolset's own time (its exchange with no service), %d in flight:", r.Concurrency)
			if r.PerCallBeyondToolset != 0 {
				fmt.Fprintf(stdout, " a call %s,", ms2(r.PerCallBeyondToolset))
			}
			fmt.Fprintf(stdout, " calls10 p50 %s (%s less 10 x %s)\n", ms2(r.P50BeyondToolset), ms2(r.Latency.P50), ms2(r.ToolsetTime))
		}
	}
	for _, r := range results {
		if r.FirstError != "" {
			fmt.Fprintf(stdout, "%s: first error: %s\n", r.Scenario, r.FirstError)
		}
	}
	if *pgCounts {
		return printCounts(stdout, measured)
	}
	return nil
}

// parseConcurrencies reads -concurrency: one positive number or a comma-separated list.
func parseConcurrencies(list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-concurrency wants positive numbers separated by commas, got %q", list)
		}
		out = append(out, n)
	}
	return out, nil
}

// printCounts prints what a run of each scenario cost the database, and what a tool call and a
// suspension with its resume cost on top of a trivial run.
func printCounts(w io.Writer, results []loadgen.Result) error {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "per run of\truns\tstatements\tpgss\tround trips\twrite xacts\tcommits\tWAL flushes")
	byName := map[string]*loadgen.Counts{} // the differences are taken at the first concurrency
	for _, r := range results {
		if r.Counts == nil {
			continue
		}
		name := r.Scenario
		if r.Concurrency != results[0].Concurrency {
			name = fmt.Sprintf("%s (%d in flight)", r.Scenario, r.Concurrency)
		} else {
			byName[r.Scenario] = r.Counts
		}
		printCountsRow(tw, name, strconv.Itoa(r.Counts.Runs), *r.Counts)
	}
	if t, c := byName["trivial"], byName["calls10"]; t != nil && c != nil {
		printCountsRow(tw, "a call: (calls10 - trivial) / 10", "", diffCounts(*c, *t, 10))
	}
	if t, r := byName["resume"], byName["trivial"]; t != nil && r != nil {
		printCountsRow(tw, "suspend + resume: resume - trivial", "", diffCounts(*t, *r, 1))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		if r.Counts == nil || len(r.Counts.Top) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s: statements per run\n", r.Scenario)
		for _, s := range r.Counts.Top {
			fmt.Fprintf(w, "%8.2f  %s\n", s.Calls, s.Query)
		}
	}
	return nil
}

func printCountsRow(w io.Writer, name, runs string, c loadgen.Counts) {
	trips := "-"
	if c.RoundTrips != 0 {
		trips = fmt.Sprintf("%.2f", c.RoundTrips)
	}
	fmt.Fprintf(w, "%s\t%s\t%.2f\t%.2f\t%s\t%.2f\t%.2f\t%.2f\n", name, runs, c.Statements, c.Tracked, trips, c.WriteXacts, c.Commits, c.WALSyncs)
}

// diffCounts is (a - b) / n for each count.
func diffCounts(a, b loadgen.Counts, n float64) loadgen.Counts {
	return loadgen.Counts{
		Statements: (a.Statements - b.Statements) / n, Tracked: (a.Tracked - b.Tracked) / n, RoundTrips: (a.RoundTrips - b.RoundTrips) / n,
		WriteXacts: (a.WriteXacts - b.WriteXacts) / n, Commits: (a.Commits - b.Commits) / n,
		WALSyncs: (a.WALSyncs - b.WALSyncs) / n,
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond)) }

// devFlags are the flags of the codemode dev it starts: its worker drives as many runs at once
// as are kept in flight (at least the default 10), so that every run is driven at once rather
// than waiting in the queue for a free slot.
func devFlags(syncJournal bool, inFlight int) []string {
	flags := []string{"--runs", strconv.Itoa(max(inFlight, 10))}
	if syncJournal {
		flags = append(flags, "--synchronous-journal")
	}
	return flags
}

// ms2 prints d in milliseconds to two decimals, for the parts of a run a call's figures are.
func ms2(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }
