package loadgen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/cli"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// Config says what to drive and how hard.
type Config struct {
	// URL is the service's base URL (for example http://127.0.0.1:8080). Required: see
	// StartService for a service of one's own.
	URL string
	// Token is the bearer token for /v1, if the service needs one.
	Token string
	// Scenarios names the scenarios to run, in order: trivial, calls10, resume. Default all.
	Scenarios []string
	// Concurrency is how many runs are in flight at once per scenario. Default 16.
	Concurrency int
	// Duration is how long each scenario runs (after its warm-up). Default 10 s.
	Duration time.Duration
	// Warmup is how long each scenario runs before measuring. Default 1 s.
	Warmup time.Duration
	// ToolsetHost is the address the generator's toolset listens on; the service must be able
	// to reach it. Default 127.0.0.1:0 (a free port on loopback).
	ToolsetHost string
	// Counter, when set, counts what each scenario cost the database per run (Result.Counts).
	Counter *Counter
	// DatabaseURL, when set and the database runs on this machine, has each scenario measure
	// the processor time a run costs this process and PostgreSQL (Result.CPU).
	DatabaseURL string
}

func (c Config) withDefaults() Config {
	if len(c.Scenarios) == 0 {
		for _, s := range scenarios {
			c.Scenarios = append(c.Scenarios, s.name)
		}
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 16
	}
	if c.Duration <= 0 {
		c.Duration = 10 * time.Second
	}
	if c.Warmup < 0 {
		c.Warmup = 0
	} else if c.Warmup == 0 {
		c.Warmup = time.Second
	}
	if c.ToolsetHost == "" {
		c.ToolsetHost = "127.0.0.1:0"
	}
	return c
}

// Result is what one scenario measured.
type Result struct {
	Scenario    string        `json:"scenario"`
	Measures    string        `json:"measures"`
	Concurrency int           `json:"concurrency"`
	Runs        int           `json:"runs"`   // runs finished correctly in the measured window
	Errors      int           `json:"errors"` // runs that failed or ended wrongly
	FirstError  string        `json:"firstError,omitempty"`
	Elapsed     time.Duration `json:"elapsed"`
	RunsPerSec  float64       `json:"runsPerSec"`
	Latency     Latency       `json:"latency"`
	// CeilingRatio is RunsPerSec divided by its ceiling's, when one was measured (RatiosTo).
	CeilingRatio float64 `json:"ceilingRatio,omitempty"`
	// Counts is what a run cost the database, when Config.Counter was set.
	Counts *Counts `json:"counts,omitempty"`
	// CPU is the processor time a run cost, when it could be measured (Config.DatabaseURL).
	CPU *CPUPerRun `json:"cpuPerRun,omitempty"`
	// Machine is how the machine's processors were spent meanwhile, when it could be read
	// (Linux, with the database on this machine): whether other work shared them.
	Machine *MachineLoad `json:"machine,omitempty"`
	// PerCallP50 is, on calls10's results, what a call adds to a run's p50: calls10's p50 less
	// trivial's at the same concurrency, divided by the calls of a run (PerCall). In ns.
	PerCallP50 time.Duration `json:"perCallP50,omitempty"`
	// CallTime is the mean duration of the scenario's tool calls as the service timed them
	// (codemode_worker_tool_call_duration_seconds: start to outcome, before the outcome is
	// recorded), read from its /metrics before and after; 0 when it made none or does not
	// serve the metric. For CallsCeilingScenario, the mean of its exchanges with the toolset
	// as its own client timed them (request to answer read), with no service on the way. In
	// ns.
	CallTime time.Duration `json:"callTime,omitempty"`
	// ToolsetTime is, on calls10's results, the toolset's own time for a call at the same
	// concurrency: the mean exchange with it of CallsCeilingScenario, whose client has no
	// service on the way (BeyondToolset). In ns.
	ToolsetTime time.Duration `json:"toolsetTime,omitempty"`
	// P50BeyondToolset is calls10's p50 less the toolset's own time for its calls
	// (ToolsetTime times the calls of a run), and PerCallBeyondToolset its PerCallP50 less
	// ToolsetTime: what the service adds to a run, and to each call, beyond the time the
	// toolset takes to answer. In ns.
	P50BeyondToolset     time.Duration `json:"p50BeyondToolset,omitempty"`
	PerCallBeyondToolset time.Duration `json:"perCallBeyondToolset,omitempty"`
}

// BeyondToolset sets ToolsetTime, P50BeyondToolset and (after PerCall) PerCallBeyondToolset on
// each calls10 result for which results holds a CallsCeilingScenario result with as many runs
// in flight that timed its exchanges.
func BeyondToolset(results []Result) {
	exchange := map[int]time.Duration{}
	for _, r := range results {
		if r.Scenario == CallsCeilingScenario && r.CallTime > 0 {
			exchange[r.Concurrency] = r.CallTime
		}
	}
	for i, r := range results {
		t, ok := exchange[r.Concurrency]
		if !ok || r.Scenario != "calls10" || r.Runs == 0 {
			continue
		}
		results[i].ToolsetTime = t
		results[i].P50BeyondToolset = r.Latency.P50 - callsPerRun*t
		if r.PerCallP50 != 0 {
			results[i].PerCallBeyondToolset = r.PerCallP50 - t
		}
	}
}

// PerCall sets the PerCallP50 of each calls10 result for which results holds a trivial one
// measured with as many runs in flight.
func PerCall(results []Result) {
	trivial := map[int]time.Duration{}
	for _, r := range results {
		if r.Scenario == "trivial" && r.Runs > 0 {
			trivial[r.Concurrency] = r.Latency.P50
		}
	}
	for i, r := range results {
		if t, ok := trivial[r.Concurrency]; ok && r.Scenario == "calls10" && r.Runs > 0 {
			results[i].PerCallP50 = (r.Latency.P50 - t) / callsPerRun
		}
	}
}

// RatiosTo sets the CeilingRatio of each result measured with as many runs in flight as its
// ceiling to its runs/s divided by the ceiling's: calls10's ceiling is CallsCeilingScenario
// when among ceilings, every other scenario's (and calls10's otherwise) CeilingScenario.
// Others keep none: at another concurrency the rates do not compare.
func RatiosTo(ceilings []Result, results []Result) {
	byName := map[string]Result{}
	for _, c := range ceilings {
		byName[c.Scenario] = c
	}
	for i := range results {
		ceiling, ok := byName[CeilingScenario]
		if c, found := byName[CallsCeilingScenario]; found && results[i].Scenario == "calls10" {
			ceiling, ok = c, true
		}
		if !ok || ceiling.RunsPerSec <= 0 || results[i].Concurrency != ceiling.Concurrency {
			continue
		}
		results[i].CeilingRatio = results[i].RunsPerSec / ceiling.RunsPerSec
	}
}

// toolsetName is the name the generator registers its toolset under.
const toolsetName = "loadgen"

// Run registers the generator's toolset with the service and runs each scenario in turn.
func Run(ctx context.Context, cfg Config) ([]Result, error) {
	cfg = cfg.withDefaults()
	if cfg.URL == "" {
		return nil, errors.New("loadgen: no service URL")
	}
	var picked []scenario
	for _, name := range cfg.Scenarios {
		i := indexOf(name)
		if i < 0 {
			return nil, fmt.Errorf("loadgen: unknown scenario %q (have trivial, calls10, resume)", name)
		}
		picked = append(picked, scenarios[i])
	}
	client, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	toolsetURL, stop, err := serveToolset(cfg.ToolsetHost)
	if err != nil {
		return nil, err
	}
	defer stop()
	if err := registerToolset(ctx, client, toolsetURL); err != nil {
		return nil, err
	}
	var counting *pgx.Conn
	if cfg.Counter != nil {
		if counting, err = cfg.Counter.connect(ctx); err != nil {
			return nil, err
		}
		defer counting.Close(context.WithoutCancel(ctx))
	}
	var meter *cpuMeter
	if cfg.DatabaseURL != "" {
		conn, err := pgx.Connect(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, fmt.Errorf("loadgen: %w", err)
		}
		meter = newCPUMeter(ctx, conn)
		conn.Close(context.WithoutCancel(ctx))
	}
	var results []Result
	for _, s := range picked {
		res, err := drive(ctx, client, s, cfg, counting, meter)
		if err != nil {
			return results, err
		}
		results = append(results, res)
	}
	return results, nil
}

func indexOf(name string) int {
	for i, s := range scenarios {
		if s.name == name {
			return i
		}
	}
	return -1
}

func newClient(cfg Config) (*client.ClientWithResponses, error) {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = cfg.Concurrency * 2
	httpClient := &http.Client{Transport: transport, Timeout: 2 * waitSeconds * time.Second}
	return cli.NewAPIClient(cfg.URL, cfg.Token, client.WithHTTPClient(httpClient))
}

// serveToolset serves the test toolset (echo, approvals.request, ...) on host.
func serveToolset(host string) (string, func(), error) {
	h, err := toolsettest.NewHandler(toolsettest.Options{})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", host)
	if err != nil {
		return "", nil, fmt.Errorf("loadgen: toolset listen: %w", err)
	}
	srv := &fasthttp.Server{
		Handler:               echoFirst{next: fasthttpadaptor.NewFastHTTPHandler(h)}.serve,
		ReadTimeout:           time.Minute,
		MaxRequestBodySize:    maxToolsetRequest,
		NoDefaultDate:         true,
		NoDefaultServerHeader: true,
	}
	// Labelled so that a CPU profile (-cpuprofile) tells the toolset's own time from the
	// service's: the connections' goroutines inherit the label.
	go pprof.Do(context.Background(), pprof.Labels("part", "toolset"), func(context.Context) { _ = srv.Serve(ln) })
	return "http://" + ln.Addr().String(), func() { _ = srv.Shutdown() }, nil
}

// registerToolset registers (or re-registers, with the new URL) the generator's toolset.
func registerToolset(ctx context.Context, c *client.ClientWithResponses, url string) error {
	// Forced: runs of an earlier generation still in flight must not keep it registered.
	force := true
	if _, err := c.DeleteToolsetWithResponse(ctx, toolsetName, &client.DeleteToolsetParams{Force: &force}); err != nil {
		return fmt.Errorf("loadgen: %w", err)
	}
	resp, err := c.CreateToolsetWithResponse(ctx, client.ToolsetCreate{Name: toolsetName, Url: &url})
	if err != nil {
		return fmt.Errorf("loadgen: register toolset: %w", err)
	}
	if resp.StatusCode() != http.StatusCreated {
		return fmt.Errorf("loadgen: register toolset: status %d: %s", resp.StatusCode(), resp.Body)
	}
	return nil
}

// drive runs s with cfg.Concurrency runs in flight (measure). With cfg.Counter the database's
// counters are read before the warm-up and after the last run, and divided by every run driven.
func drive(ctx context.Context, c *client.ClientWithResponses, s scenario, cfg Config, counting *pgx.Conn, meter *cpuMeter) (Result, error) {
	res := Result{Scenario: s.name, Measures: s.measures, Concurrency: cfg.Concurrency}
	metrics := &http.Client{Timeout: 10 * time.Second}
	callsBefore, timed, err := readCallTimes(ctx, metrics, cfg.URL, cfg.Token)
	if err != nil {
		return res, err
	}
	cpuBefore := meter.sample()
	var before sample
	if counting != nil {
		var err error
		if before, err = cfg.Counter.sample(ctx, counting); err != nil {
			return res, err
		}
	}
	w := measure(ctx, cfg.Concurrency, cfg.Duration, cfg.Warmup, func(ctx context.Context) (time.Duration, error) {
		return s.run(ctx, c, toolsetName)
	})
	if err := ctx.Err(); err != nil {
		return res, err
	}
	cpuAfter := meter.sample()
	w.report(&res, cfg.Duration, perRun(cpuBefore, cpuAfter, w.driven, false))
	res.Machine = machineLoad(cpuBefore, cpuAfter)
	if timed {
		callsAfter, _, err := readCallTimes(ctx, metrics, cfg.URL, cfg.Token)
		if err != nil {
			return res, err
		}
		res.CallTime = meanCallTime(callsBefore, callsAfter)
	}
	if counting != nil {
		settle := cfg.Counter.Settle
		if settle == 0 {
			settle = 11 * time.Second
		}
		if settle > 0 {
			select {
			case <-ctx.Done():
				return res, ctx.Err()
			case <-time.After(settle):
			}
		}
		after, err := cfg.Counter.sample(ctx, counting)
		if err != nil {
			return res, err
		}
		res.Counts = cfg.Counter.counts(before, after, w.driven)
	}
	return res, nil
}

// window is what measure saw.
type window struct {
	latencies  []time.Duration // of the runs that ended well inside the measured window
	errors     int             // runs that ended inside it with an error
	firstError string
	driven     int // every run driven, warm-up included
}

// report sets what res says of a window of duration: runs, errors, rate and latency, and the
// CPU a run cost.
func (w window) report(res *Result, duration time.Duration, cpu *CPUPerRun) {
	res.Runs, res.Errors, res.FirstError = len(w.latencies), w.errors, w.firstError
	res.Elapsed = duration
	res.RunsPerSec = float64(res.Runs) / duration.Seconds()
	res.Latency = summarize(w.latencies)
	res.CPU = cpu
}

// measure calls run over and over with concurrency calls in flight: a warm-up, then the
// measured window. A run counts when it ends inside the window, so the rate is completions per
// second.
func measure(ctx context.Context, concurrency int, duration, warmup time.Duration, run func(context.Context) (time.Duration, error)) window {
	var (
		w       window
		mu      sync.Mutex
		wg      sync.WaitGroup
		warmEnd = time.Now().Add(warmup)
		end     = warmEnd.Add(duration)
	)
	for range concurrency {
		wg.Add(1)
		go pprof.Do(ctx, pprof.Labels("part", "client"), func(ctx context.Context) {
			defer wg.Done()
			for ctx.Err() == nil {
				if !time.Now().Before(end) {
					return
				}
				d, err := run(ctx)
				done := time.Now()
				mu.Lock()
				w.driven++
				if done.Before(warmEnd) || done.After(end) {
					mu.Unlock()
					continue
				}
				if err != nil {
					w.errors++
					if w.firstError == "" {
						w.firstError = err.Error()
					}
				} else {
					w.latencies = append(w.latencies, d)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return w
}
