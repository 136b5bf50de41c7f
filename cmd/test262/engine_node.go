package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// nodeWorker is the program each node process runs: it reads one JSON job per line, runs
// the script in a fresh vm context (with print and $262.global), waits for the job queue to
// drain and writes one JSON result per line. A SyntaxError from compiling the script is
// reported as a compile error of kind ParseError, as the interpreter reports it. Unhandled
// rejections are ignored, as test262 expects of a host.
const nodeWorker = `
const vm = require('vm');
const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin, terminal: false });
process.on('unhandledRejection', () => {});
function describe(e) {
  if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
    let name = '';
    try { name = e.constructor && e.constructor.name ? e.constructor.name : String(e.name); } catch (_) {}
    let message = '';
    try { message = e.message === undefined ? '' : String(e.message); } catch (_) {}
    return { name, message };
  }
  let message = '';
  try { message = String(e); } catch (_) {}
  return { name: '', message };
}
rl.on('line', (line) => {
  const job = JSON.parse(line);
  const prints = [];
  const out = { prints };
  const context = vm.createContext({});
  context.print = (v) => { prints.push(String(v)); };
  vm.runInContext('this.$262 = { global: this };', context);
  let script;
  try {
    script = new vm.Script(job.source);
  } catch (e) {
    out.compileError = { name: e instanceof SyntaxError || e.name === 'SyntaxError' ? 'ParseError' : describe(e).name, message: String(e.message) };
    process.stdout.write(JSON.stringify(out) + '\n');
    return;
  }
  try {
    script.runInContext(context, { timeout: job.timeoutMs });
  } catch (e) {
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') out.err = 'timeout'; else out.thrown = describe(e);
  }
  setImmediate(() => process.stdout.write(JSON.stringify(out) + '\n'));
});
`

// nodeJob and nodeResult are the line protocol of nodeWorker.
type nodeJob struct {
	Source    string `json:"source"`
	TimeoutMS int64  `json:"timeoutMs"`
}

type nodeResult struct {
	CompileError *jsError `json:"compileError"`
	Thrown       *jsError `json:"thrown"`
	Err          string   `json:"err"`
	Prints       []string `json:"prints"`
}

// nodeEngine runs tests on node (a reference engine, to check the runner itself: node
// should pass nearly everything the runner selects). It keeps a pool of node processes,
// one per concurrent test; a process that does not answer in time is killed.
type nodeEngine struct {
	bin  string
	mu   sync.Mutex
	idle []*nodeProc
}

var _ engine = (*nodeEngine)(nil)

type nodeProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func newNodeEngine(bin string) *nodeEngine { return &nodeEngine{bin: bin} }

func (e *nodeEngine) get() (*nodeProc, error) {
	e.mu.Lock()
	if n := len(e.idle); n > 0 {
		p := e.idle[n-1]
		e.idle = e.idle[:n-1]
		e.mu.Unlock()
		return p, nil
	}
	e.mu.Unlock()
	cmd := exec.Command(e.bin, "-e", nodeWorker)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("node stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("node stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start node: %w", err)
	}
	return &nodeProc{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<16)}, nil
}

func (e *nodeEngine) put(p *nodeProc) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.idle = append(e.idle, p)
}

func (p *nodeProc) kill() {
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}

// Close stops the idle node processes.
func (e *nodeEngine) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range e.idle {
		_ = p.stdin.Close()
		_ = p.cmd.Wait()
	}
	e.idle = nil
}

// Run implements engine.
func (e *nodeEngine) Run(ctx context.Context, job engineJob) engineResult {
	p, err := e.get()
	if err != nil {
		return engineResult{Err: err}
	}
	timeout := defaultTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	line, err := json.Marshal(nodeJob{Source: job.Source, TimeoutMS: timeout.Milliseconds()})
	if err != nil {
		p.kill()
		return engineResult{Err: fmt.Errorf("encode node job: %w", err)}
	}
	type reply struct {
		line []byte
		err  error
	}
	done := make(chan reply, 1)
	go func() {
		if _, err := p.stdin.Write(append(line, '\n')); err != nil {
			done <- reply{err: err}
			return
		}
		l, err := p.out.ReadBytes('\n')
		done <- reply{line: l, err: err}
	}()
	select {
	case <-ctx.Done():
		p.kill()
		return engineResult{Err: fmt.Errorf("%w: %w", ErrTestTimeout, ctx.Err())}
	case r := <-done:
		if r.err != nil {
			p.kill()
			return engineResult{Err: fmt.Errorf("node: %w", r.err)}
		}
		e.put(p)
		var nr nodeResult
		if err := json.Unmarshal(r.line, &nr); err != nil {
			return engineResult{Err: fmt.Errorf("decode node result: %w", err)}
		}
		res := engineResult{CompileError: nr.CompileError, Thrown: nr.Thrown, Prints: nr.Prints}
		if nr.Err != "" {
			res.Err = fmt.Errorf("%w: node: %s", ErrTestTimeout, nr.Err)
		}
		return res
	}
}
