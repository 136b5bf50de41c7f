package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Process isolation: with -isolate (the default) the runner starts -j worker processes of
// itself (-worker) and hands them one test path at a time over stdin, reading one JSON
// result per line from stdout. A worker that dies (a Go fatal error such as a stack
// overflow or running out of memory cannot be recovered in-process) or does not answer in
// time is killed and replaced, and its test is reported failed; the run goes on.

// workerSlack is added to a test's timeout and grace before the parent kills its worker.
const workerSlack = 3 * time.Second

// crashTail is how much of a dead worker's stderr is kept to explain the crash.
const crashTail = 64 << 10

// serveWorker is the worker side: it runs each path read from in with r and writes its
// result as a JSON line to out.
func serveWorker(ctx context.Context, r *runner, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		p := sc.Text()
		if p == "" {
			continue
		}
		if err := enc.Encode(r.runOne(ctx, p)); err != nil {
			return fmt.Errorf("write result: %w", err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read paths: %w", err)
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// crashSummary picks the line that explains a crash from a dead process's stderr: the
// first "fatal error:" or "panic:" line (with the line after it for stack overflows),
// otherwise the last non-empty line.
func crashSummary(stderr string) string {
	lines := strings.Split(stderr, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") {
			if i > 0 && strings.HasPrefix(lines[i-1], "runtime:") {
				return strings.TrimSpace(lines[i-1]) + "; " + strings.TrimSpace(l)
			}
			return strings.TrimSpace(l)
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" {
			return s
		}
	}
	return "no output"
}

// workerProc is one running worker process.
type workerProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr *tailBuffer
	lines  chan workerLine
}

type workerLine struct {
	data []byte
	err  error
}

func startWorker(command func() *exec.Cmd) (*workerProc, error) {
	cmd := command()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("worker stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("worker stdout: %w", err)
	}
	tail := &tailBuffer{max: crashTail}
	cmd.Stderr = tail
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	w := &workerProc{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<16), stderr: tail, lines: make(chan workerLine, 1)}
	go func() {
		for {
			l, err := w.out.ReadBytes('\n')
			w.lines <- workerLine{data: l, err: err}
			if err != nil {
				return
			}
		}
	}()
	return w, nil
}

// stop ends the worker: closing stdin lets it exit; kill makes sure.
func (w *workerProc) stop(kill bool) {
	_ = w.stdin.Close()
	if kill {
		_ = w.cmd.Process.Kill()
	}
	_ = w.cmd.Wait()
}

// isolatedRun runs paths on jobs worker processes made by command and returns the results
// in the order of paths. wait is how long one test may take before its worker is killed.
func isolatedRun(ctx context.Context, paths []string, jobs int, wait time.Duration, command func() *exec.Cmd, progress io.Writer) []result {
	results := make([]result, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	finished := 0
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w *workerProc
			defer func() {
				if w != nil {
					w.stop(false)
				}
			}()
			for i := range next {
				var res result
				res, w = runInWorker(ctx, paths[i], w, wait, command)
				results[i] = res
				if progress != nil {
					mu.Lock()
					finished++
					if finished%progressEvery == 0 {
						fmt.Fprintf(progress, "test262: %d/%d\n", finished, len(paths))
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// runInWorker runs one test on w (starting a worker when w is nil) and returns the result
// and the worker to use next (nil when w had to be stopped).
func runInWorker(ctx context.Context, p string, w *workerProc, wait time.Duration, command func() *exec.Cmd) (result, *workerProc) {
	fail := func(msg string) result { return result{Path: p, Status: statusFail, Message: msg} }
	if w == nil {
		var err error
		if w, err = startWorker(command); err != nil {
			return fail(err.Error()), nil
		}
	}
	if _, err := io.WriteString(w.stdin, p+"\n"); err != nil {
		w.stop(true)
		return fail(fmt.Sprintf("%v: %s", ErrWorkerCrashed, crashSummary(w.stderr.String()))), nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case l := <-w.lines:
		if l.err != nil {
			w.stop(true)
			return fail(fmt.Sprintf("%v: %s", ErrWorkerCrashed, crashSummary(w.stderr.String()))), nil
		}
		var res result
		if err := json.Unmarshal(bytes.TrimSpace(l.data), &res); err != nil || res.Path != p {
			w.stop(true)
			return fail(fmt.Sprintf("%v: bad reply %q", ErrWorkerCrashed, l.data)), nil
		}
		return res, w
	case <-timer.C:
		w.stop(true)
		return fail(fmt.Sprintf("%v (%s): worker killed", ErrTestTimeout, wait)), nil
	case <-ctx.Done():
		w.stop(true)
		return fail(ctx.Err().Error()), nil
	}
}
