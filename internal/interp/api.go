package interp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// Config configures a VM. Zero values mean "no limit" or the default.
type Config struct {
	// Host receives calls of host functions (NewHostFunction); may be nil.
	Host Host
	// Log receives console output lines (level and text); nil drops them.
	Log func(level, text string)
	// Now is the clock of Date.now and new Date(); default time.Now.
	Now func() time.Time
	// RandomSeed seeds Math.random.
	RandomSeed uint64
	// MaxMemoryBytes is the heap accounting limit in bytes; 0 = none.
	MaxMemoryBytes int64
	// MaxCallDepth caps JavaScript frames; default 10000. Exceeding it throws a RangeError.
	MaxCallDepth int
	// Modules names the globals a program may import by their name as Node modules (import
	// declarations, import() and require; see module.go), besides the built-in url, util and
	// buffer. It is not part of snapshots: a restored VM is given it again.
	Modules []string
}

// Host handles calls of functions made with NewHostFunction.
type Host interface {
	CallHost(vm *VM, id string, this Value, args []Value) (Value, error)
}

// NotCallableHost is implemented by a Host that wants a say when a program calls something
// that is not a function through a static path (`tools.math.ad(...)`): callee is the path as
// written. Returning ok throws the returned value instead of the usual TypeError.
type NotCallableHost interface {
	NotCallable(vm *VM, callee string) (err Value, ok bool)
}

// Status tells why Run returned.
type Status int

const (
	// StatusDone means the program finished: see Result.
	StatusDone Status = iota
	// StatusWaiting means nothing is runnable: only host promises are pending.
	StatusWaiting
	// StatusPaused means RunOptions.MaxSteps ran out; Run again to continue.
	StatusPaused
)

// RunOptions bound one Run call.
type RunOptions struct {
	// MaxSteps pauses the run after this many instructions; 0 = no step limit.
	MaxSteps int64
	// Pause, when closed, pauses the run at its next safe point: an instruction boundary of
	// the program's own code, within about a thousand instructions (a loop nested in a
	// native, such as an Array.prototype.map callback, pauses once it returns). Run then
	// returns StatusPaused, as for MaxSteps, and the state can be snapshotted.
	Pause <-chan struct{}
}

// New creates a VM with a fresh realm. Its value stack is made when the program starts, to the
// size of the program's top-level code (see startProgram).
func New(cfg Config) *VM { return newVM(cfg) }

// newVM creates a VM with a fresh realm and no value stack (Restore sizes it to the frames
// it restores).
func newVM(cfg Config) *VM {
	vm := &VM{}
	vm.maxMemory = cfg.MaxMemoryBytes
	vm.logf = cfg.Log
	vm.initRuntime()
	vm.exec.cfg = cfg
	vm.exec.maxCallDepth = cfg.MaxCallDepth
	if vm.exec.maxCallDepth <= 0 {
		vm.exec.maxCallDepth = 10000
	}
	vm.positionHook = vm.currentPosition
	return vm
}

// Start queues the program to run; Run executes it.
func (vm *VM) Start(p *Program) error {
	ex := &vm.exec
	if ex.started {
		return errors.New("interp: Start called twice")
	}
	ex.started = true
	ex.program = p
	return nil
}

// Run runs the program and its microtasks until the program's promise settles
// and the queue is empty (StatusDone), nothing is runnable (StatusWaiting), or
// MaxSteps instructions ran (StatusPaused).
func (vm *VM) Run(ctx context.Context, opts RunOptions) (st Status, err error) {
	ex := &vm.exec
	if ex.program == nil {
		return StatusDone, errors.New("interp: Run before Start")
	}
	ex.paused = false
	ex.stepLimit = 0
	ex.checkAt = 0
	if opts.MaxSteps > 0 {
		ex.stepLimit = ex.steps + opts.MaxSteps
	}
	atomic.StoreUint32(&ex.interrupt, 0)
	stop := context.AfterFunc(ctx, func() { atomic.OrUint32(&ex.interrupt, interruptStop) })
	defer stop()
	select {
	case <-opts.Pause: // nil: never
		atomic.OrUint32(&ex.interrupt, interruptPause)
	default:
		if opts.Pause == nil {
			break
		}
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-opts.Pause:
				atomic.OrUint32(&ex.interrupt, interruptPause)
			case <-done:
			}
		}()
	}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Exception); ok {
				// an exception escaped a job: report it as an unhandled failure
				err = &Diagnostic{Kind: "ExecutionFailure", Message: vm.describeValue(e.Value)}
				return
			}
			if a, ok := r.(*abortSignal); ok {
				err = a.err
				return
			}
			panic(r)
		}
	}()
	if !ex.programStarted {
		ex.programStarted = true
		vm.startProgram()
	}
	for {
		// An interrupt wins over a pause: a call made from native code returns early when
		// interrupted, leaving frames a snapshot must not see.
		if atomic.LoadUint32(&ex.interrupt)&interruptStop != 0 {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return StatusPaused, &Diagnostic{Kind: "TimeoutExceeded", Message: "the run exceeded its time limit"}
			}
			return StatusPaused, fmt.Errorf("interp: run interrupted: %w", ctx.Err())
		}
		if ex.paused {
			return StatusPaused, nil
		}
		if len(ex.frames) > 0 {
			vm.run(0)
			continue
		}
		if len(ex.jobs) == 0 {
			break
		}
		j := ex.jobs[0]
		ex.jobs[0] = job{}
		ex.jobs = ex.jobs[1:]
		vm.runJob(j)
	}
	ps := promiseOf(ex.programPromise)
	if ps != nil && ps.status == promisePending {
		return StatusWaiting, nil
	}
	return StatusDone, nil
}

// startProgram pushes the program's top-level frame.
func (vm *VM) startProgram() {
	ex := &vm.exec
	p := ex.program
	code := p.Funcs[0]
	// room for the callee, this and the top-level frame, and a little more: a program whose
	// top-level code is small often calls nothing, and the stack grows when it does
	vm.sizeStack(2 + frameNeed(code))
	fn := vm.newObject(vm.realm.FunctionPrototype, ClassFunction)
	fn.flags |= objCallable
	cl := &closureSlots{prog: p, code: code, obj: fn}
	fn.slots = cl
	this := undefinedValue
	if p.script {
		this = objectValue(vm.realm.Global)
	}
	ex.stack[0] = objectValue(fn)
	ex.stack[1] = this
	ex.sp = 2
	f := vm.pushFrame(cl, fn, 2, 0, this, nil, retExit)
	// The program runs as an async function (scripts too: their completion
	// settles the same promise).
	f.co = &coroutine{kind: coAsync, fr: f, promise: vm.newPromise(), status: genExecuting}
	ex.programPromise = f.co.promise
	promiseOf(ex.programPromise).handled = true
}

// Result returns the program's completion: its value, and thrown=true when it
// ended with an uncaught exception.
func (vm *VM) Result() (v Value, thrown bool) {
	ps := promiseOf(vm.exec.programPromise)
	if ps == nil || ps.status == promisePending {
		return undefinedValue, false
	}
	return ps.value, ps.status == promiseRejected
}

// describeValue renders a thrown value for a diagnostic.
func (vm *VM) describeValue(v Value) string {
	name, msg, _, _ := vm.DescribeError(v)
	if name == "" {
		return msg
	}
	return name + ": " + msg
}

// StackFrame is one frame of an error's stack: the function's name ("" for the program or an
// anonymous function) and the 1-based line and column of the call or of the error.
type StackFrame struct {
	Function     string
	Line, Column int
}

// ErrorStack returns the frames of an error made by the program, innermost first (the error's
// own position first); nil for other values and errors without a recorded position.
func (vm *VM) ErrorStack(v Value) []StackFrame {
	o := v.asObject()
	if o == nil {
		return nil
	}
	ed, ok := o.slots.(*errorData)
	if !ok || ed.line == 0 {
		return nil
	}
	out := []StackFrame{{Function: ed.fn, Line: ed.line, Column: ed.column}}
	for _, f := range ed.callers {
		if f.line > 0 {
			out = append(out, StackFrame{Function: f.fn, Line: f.line, Column: f.column})
		}
	}
	return out
}

// DescribeError gives the name, message and position of an error value.
func (vm *VM) DescribeError(v Value) (name, message string, line, column int) {
	ex := &vm.exec
	if ex.lastThrow.kind != KindUndefined && SameValue(ex.lastThrow, v) {
		line, column = ex.lastThrowLine, ex.lastThrowColumn
	}
	o := v.asObject()
	if v.kind == KindBigInt {
		return "", vm.safeString(v) + "n", line, column // as node prints it: Uncaught 5n
	}
	if o == nil {
		return "", vm.safeString(v), line, column
	}
	ed, isError := o.slots.(*errorData)
	if isError && ed.line > 0 {
		line, column = ed.line, ed.column
	}
	m := vm.safeGet(o, strKey("message"))
	if !isError && m.kind != KindString {
		// a thrown object that is no error ({code: 7}) is described as node prints it
		return "", vm.safeInspect(v), line, column
	}
	n := vm.safeGet(o, keyName)
	return vm.safeString(n), vm.safeString(m), line, column
}

// safeInspect formats v as node's util.inspect does; a getter that throws on the way gives
// the plain string conversion instead.
func (vm *VM) safeInspect(v Value) (s string) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Exception); !ok {
				panic(r)
			}
			s = vm.safeString(v)
		}
	}()
	return vm.inspect(v, 2)
}

// currentPosition is the line and column of the instruction running now.
func (vm *VM) currentPosition() (line, column int) {
	ex := &vm.exec
	if len(ex.frames) == 0 {
		return 0, 0
	}
	f := ex.frames[len(ex.frames)-1]
	return f.code.PosAt(f.pc - 1)
}

func (vm *VM) safeGet(o *Object, k PropertyKey) (v Value) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Exception); !ok {
				panic(r)
			}
			v = undefinedValue
		}
	}()
	return vm.getProp(o, k)
}

func (vm *VM) safeString(v Value) (s string) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Exception); !ok {
				panic(r)
			}
			s = v.String()
		}
	}()
	if v.kind == KindUndefined {
		return ""
	}
	return vm.ToGoString(v)
}

// UnhandledRejections lists the reasons of rejected promises nobody handled, in the order the
// promises were created.
func (vm *VM) UnhandledRejections() []Value {
	ps := make([]*Object, 0, len(vm.exec.unhandled))
	for _, p := range vm.exec.unhandled {
		if p != vm.exec.programPromise {
			ps = append(ps, p)
		}
	}
	slices.SortStableFunc(ps, func(a, b *Object) int { return cmp.Compare(promiseOf(a).seq, promiseOf(b).seq) })
	out := make([]Value, len(ps))
	for i, p := range ps {
		out[i] = promiseOf(p).value
	}
	return out
}
