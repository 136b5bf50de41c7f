package interp

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// The snapshot document.
//
// Snapshot writes the whole state of a VM between Run calls as one JSON
// document:
//
//	{"format": 1,
//	 "source": "...", "script": false,        // the program (recompiled on restore)
//	 "code": "...",                           // its CodeFingerprint (absent in older snapshots)
//	 "compiled": {...},                       // its compiled code: snapshot_code.go (absent in older snapshots)
//	 "heap": {...},                           // objects, records, symbols: snapshot_heap.go
//	 "exec": {"stack": [...], "frames": [...], "jobs": [...], "host": [[id, promise]...],
//	          "next": N, "program": promise, "started": bool, "unhandled": [...],
//	          "steps": N, "templates": [[index, object]...], "priv": [[object, [[name, value]...]]...],
//	          "random": ["s0", "s1"], "throw": [value, line, column]}}
//
// Code is referred to by function index and pc. Restore compiles the embedded
// source again and uses that program when its fingerprint is the snapshot's
// "code"; otherwise (a release whose compiler generates different code) it
// rebuilds the program the snapshot was running from "compiled" (restoreProgram).
// Frames, coroutines, environments and promise reactions are records of the heap
// section (see snapshot_state.go). The upgrade guarantee is described in
// docs/snapshots.md.

// snapshotFormat is the version of the JSON snapshot format; snapshotFormat2 is the binary
// format (snapshot_bin.go), which Snapshot writes. Restore reads both, told apart by the first
// byte.
const (
	snapshotFormat  = 1
	snapshotFormat2 = 2
)

// ErrCodeChanged is returned by Restore when the snapshot's program compiles to different code
// in this version than in the one that wrote it (see Program.CodeFingerprint) and the snapshot
// does not carry its compiled code (snapshots written before it did): frames and closures refer
// to code by index, so the run cannot continue.
var ErrCodeChanged = errors.New("interp: the program compiles to different code than when the snapshot was taken")

// ErrSnapshotBusy is returned by Snapshot when native code is running (only
// possible when Snapshot is called from inside a host function).
var ErrSnapshotBusy = errors.New("interp: snapshot outside a safe point")

// Snapshot encodes the VM's state in format 2. Call it between Run calls (every return of
// Run is at a safe point).
func (vm *VM) Snapshot() ([]byte, error) { return vm.snapshot(snapshotFormat2) }

// SnapshotFormat1 encodes the VM's state in format 1, the JSON document: for comparisons
// and for the readers of format 1 (which Restore keeps reading).
func (vm *VM) SnapshotFormat1() ([]byte, error) { return vm.snapshot(snapshotFormat) }

// snapshot encodes the VM's state in the given format.
func (vm *VM) snapshot(format int) ([]byte, error) {
	ex := &vm.exec
	if ex.depth > 0 || ex.noPause > 0 {
		return nil, ErrSnapshotBusy
	}
	if ex.program == nil {
		return nil, errors.New("interp: snapshot before Start")
	}
	e := vm.newHeapEncoder()
	w := e.w
	if format == snapshotFormat2 {
		w.tab = &e.tab
	}
	w.beginObject()
	w.key("stack")
	e.values(ex.stack[:ex.sp])
	w.key("frames")
	w.beginArray()
	for _, f := range ex.frames {
		e.node(f)
	}
	w.endArray()
	w.key("jobs")
	w.beginArray()
	for _, j := range ex.jobs {
		w.beginArray()
		e.nodeOrNull(j.r)
		e.value(j.arg)
		e.value(j.thenable)
		e.value(j.then)
		e.object(j.target)
		w.endArray()
	}
	w.endArray()
	w.key("host")
	w.beginArray()
	for _, id := range vm.pendingHostPromises() {
		w.beginArray()
		w.int(int64(id))
		e.object(ex.hostPromise[id])
		w.endArray()
	}
	w.endArray()
	w.key("next")
	w.int(int64(ex.nextHostID))
	w.key("program")
	e.object(ex.programPromise)
	w.key("started")
	w.bool(ex.programStarted)
	w.key("unhandled")
	w.beginArray()
	for _, p := range ex.unhandled {
		e.object(p)
	}
	w.endArray()
	w.key("steps")
	w.int(ex.steps)
	w.key("promiseSeq")
	w.int(int64(ex.promiseSeq))
	w.key("templates")
	w.beginArray()
	keys := make([]templateKey, 0, len(ex.templates))
	for k := range ex.templates {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b templateKey) int { return a.idx - b.idx })
	for _, k := range keys {
		w.beginArray()
		w.int(int64(k.idx))
		e.object(ex.templates[k])
		w.endArray()
	}
	w.endArray()
	w.key("priv")
	w.beginArray()
	for _, o := range vm.privateOwners() {
		pe := ex.privMap[o]
		w.beginArray()
		e.object(o)
		w.beginArray()
		for i, pn := range pe.names {
			w.beginArray()
			e.object(privateObject(pn, ex))
			e.value(pe.values[i])
			w.endArray()
		}
		w.endArray()
		w.endArray()
	}
	w.endArray()
	rs := vm.mathRandomState()
	w.key("random")
	w.beginArray()
	w.string(fmt.Sprintf("%x", rs[0]))
	w.string(fmt.Sprintf("%x", rs[1]))
	w.endArray()
	w.key("throw")
	w.beginArray()
	e.value(ex.lastThrow)
	w.int(int64(ex.lastThrowLine))
	w.int(int64(ex.lastThrowColumn))
	w.endArray()
	if l := &ex.legacy; l.input != nil {
		// The legacy RegExp statics' last match; written only once there is one.
		w.key("legacy")
		w.beginArray()
		e.value(stringValue(l.input))
		w.int(int64(l.numGroups))
		for _, c := range l.caps {
			w.int(int64(c))
		}
		w.endArray()
	}
	w.endObject()
	execBytes := w.buf
	if format == snapshotFormat2 {
		return vm.finishBin(e, execBytes)
	}
	// The document is assembled in one buffer, sized from the previous snapshot's objects.
	h := vm.snapshotHint
	size := max(h.docBytes, h.objBytes+h.nodeBytes+len(execBytes)+len(ex.program.quoted())+len(ex.program.compiledJSON())) + 1024
	out := &jsonWriter{buf: make([]byte, 0, size+size/32)}
	out.beginObject()
	out.key("format")
	out.int(snapshotFormat)
	out.key("source")
	out.raw(ex.program.quoted())
	out.key("script")
	out.bool(ex.program.script)
	out.key("code")
	out.string(ex.program.CodeFingerprint())
	out.key("compiled")
	out.raw(ex.program.compiledJSON())
	out.key("heap")
	if err := e.finishTo(out, len(execBytes)+16); err != nil {
		return nil, fmt.Errorf("snapshot heap: %w", err)
	}
	e.release()
	out.key("exec")
	out.raw(execBytes)
	out.endObject()
	vm.snapshotHint.docBytes = len(out.buf)
	return out.buf, nil
}

// privateOwners lists the objects with private elements in a deterministic order
// (by the order they were first given one).
func (vm *VM) privateOwners() []*Object {
	ex := &vm.exec
	out := make([]*Object, 0, len(ex.privMap))
	for _, o := range ex.privOrder {
		if _, ok := ex.privMap[o]; ok {
			out = append(out, o)
		}
	}
	return out
}

// privateObject returns the stack object that carries a private name (created on demand).
func privateObject(pn *privateName, ex *execState) *Object {
	if pn.holder == nil {
		pn.holder = &Object{class: ClassOther, slots: pn}
	}
	return pn.holder
}

// Restore rebuilds a VM from a snapshot made by Snapshot. cfg is the new VM's
// configuration (host, limits, clock).
func Restore(data []byte, cfg Config) (*VM, error) {
	vm, n, err := RestorePrefix(data, cfg)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data[n:])) > 0 {
		return nil, fmt.Errorf("restore: text after the snapshot: %w", ErrSnapshotCorrupt)
	}
	return vm, nil
}

// RestorePrefix is Restore of the snapshot that data starts with, which the text of a larger
// document may follow (a snapshot embedded as a member of an object); it also returns the
// index just after the snapshot.
func RestorePrefix(data []byte, cfg Config) (*VM, int, error) {
	if len(data) > 0 && data[0] == binMarker {
		return restoreBin(data, cfg)
	}
	r := &jsonReader{data: data}
	var (
		format             int64  = -1
		source             []byte // the source's JSON string, quotes included
		script, haveSource bool
		code               string // the compiled code's fingerprint; "" in older snapshots
		compiled           []byte // the compiled code (snapshot_code.go); nil in older snapshots
		heapStart, heapEnd = -1, -1
		execStart, execEnd = -1, -1
		vm                 *VM
		d                  *heapDecoder
		heapDone           bool
	)
	// Snapshot writes format, source and script before the heap, and the heap before exec:
	// then the sections are decoded where they stand, in one pass. Members in another order
	// are located first and decoded afterwards.
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "format":
			format = r.int()
		case "source":
			raw, _ := r.stringRaw()
			source = r.data[r.pos-len(raw)-2 : r.pos]
			haveSource = r.err == nil
		case "script":
			script = r.bool()
		case "code":
			code = r.goString()
		case "compiled":
			r.peek()
			start := r.pos
			r.skip()
			compiled = r.data[start:r.pos]
		case "heap":
			heapStart = r.pos
			if format == snapshotFormat && haveSource && r.err == nil {
				var err error
				vm, err = restoreVM(source, script, code, compiled, cfg)
				switch {
				case err == nil:
					d = vm.newHeapDecoder()
					if err := d.readHeap(r); err != nil {
						return nil, 0, fmt.Errorf("restore heap: %w", err)
					}
					heapDone = true
				case compiled == nil:
					// The compiled code may follow: decode the heap afterwards.
					vm = nil
					r.skip()
				default:
					return nil, 0, err
				}
			} else {
				r.skip()
			}
			heapEnd = r.pos
		case "exec":
			execStart = r.pos
			if heapDone {
				vm.readExec(d, r)
				if r.err != nil {
					return nil, 0, fmt.Errorf("restore exec: %w", r.err)
				}
			} else {
				r.skip()
			}
			execEnd = r.pos
		default:
			r.skip()
		}
	}
	if r.err != nil {
		return nil, 0, fmt.Errorf("restore: %w", r.err)
	}
	end := r.pos
	if format != snapshotFormat {
		return nil, 0, fmt.Errorf("restore: format %d: %w", format, ErrSnapshotUnsupported)
	}
	if !haveSource || heapStart < 0 || execStart < 0 {
		return nil, 0, fmt.Errorf("restore: missing sections: %w", ErrSnapshotCorrupt)
	}
	if heapDone && execStart > heapStart {
		d.release()
		return vm, end, nil
	}
	vm, err := restoreVM(source, script, code, compiled, cfg)
	if err != nil {
		return nil, 0, err
	}
	d = vm.newHeapDecoder()
	hr := &jsonReader{data: data[:heapEnd], pos: heapStart}
	if err := d.readHeap(hr); err != nil {
		return nil, 0, fmt.Errorf("restore heap: %w", err)
	}
	er := &jsonReader{data: data[:execEnd], pos: execStart}
	vm.readExec(d, er)
	if er.err != nil {
		return nil, 0, fmt.Errorf("restore exec: %w", er.err)
	}
	d.release()
	return vm, end, nil
}

// restoreVM finds the program a snapshot was running (restoreProgram) and makes the VM its
// state is decoded into.
func restoreVM(quoted []byte, script bool, code string, compiled []byte, cfg Config) (*VM, error) {
	prog, err := sharedPrograms.restoreProgram(quoted, script, code, compiled)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	return vmOnProgram(prog, cfg), nil
}

// restorePackedVM is restoreVM for the "program" member of a format-2 snapshot.
func restorePackedVM(packed []byte, script bool, code string, cfg Config) (*VM, error) {
	prog, err := sharedPrograms.restorePacked(packed, script, code)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	return vmOnProgram(prog, cfg), nil
}

// vmOnProgram returns a VM to restore a snapshot of prog into.
func vmOnProgram(prog *Program, cfg Config) *VM {
	vm := newVM(cfg)
	ex := &vm.exec
	ex.program = prog
	ex.started = true
	return vm
}

// readExec reads the exec section.
func (vm *VM) readExec(d *heapDecoder, r *jsonReader) {
	ex := &vm.exec
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "stack":
			vals := d.values(r)
			vm.sizeStack(len(vals))
			copy(ex.stack, vals)
			ex.sp = len(vals)
		case "frames":
			r.beginArray()
			for f := true; r.more(f); f = false {
				fr, ok := d.node(r).(*frame)
				if !ok || fr == nil {
					r.fail("expected a frame")
					return
				}
				ex.frames = append(ex.frames, fr)
			}
		case "jobs":
			r.beginArray()
			for f := true; r.more(f); f = false {
				var j job
				r.beginArray()
				r.more(true)
				if n := d.node(r); n != nil {
					rc, ok := n.(*reaction)
					if !ok {
						r.fail("expected a reaction")
						return
					}
					j.r = rc
				}
				r.more(false)
				j.arg = d.value(r)
				r.more(false)
				j.thenable = d.value(r)
				r.more(false)
				j.then = d.value(r)
				r.more(false)
				j.target = d.object(r)
				r.more(false)
				if j.r == nil && (j.target == nil || promiseOf(j.target) == nil) {
					r.fail("bad job")
					return
				}
				ex.jobs = append(ex.jobs, j)
			}
		case "host":
			ex.hostPromise = map[uint64]*Object{}
			r.beginArray()
			for f := true; r.more(f); f = false {
				r.beginArray()
				r.more(true)
				id := uint64(r.int())
				r.more(false)
				p := d.object(r)
				r.more(false)
				if promiseOf(p) == nil {
					r.fail("host promise %d is not a promise", id)
					return
				}
				ex.hostPromise[id] = p
			}
		case "next":
			ex.nextHostID = uint64(r.int())
		case "program":
			ex.programPromise = d.object(r)
		case "started":
			ex.programStarted = r.bool()
		case "unhandled":
			r.beginArray()
			for f := true; r.more(f); f = false {
				if p := d.object(r); promiseOf(p) != nil {
					ex.unhandled = append(ex.unhandled, p)
				}
			}
		case "steps":
			ex.steps = r.int()
			ex.checkAt = 0
		case "promiseSeq":
			ex.promiseSeq = uint64(r.int())
		case "templates":
			r.beginArray()
			for f := true; r.more(f); f = false {
				r.beginArray()
				r.more(true)
				idx := int(r.int())
				r.more(false)
				o := d.object(r)
				r.more(false)
				if ex.templates == nil {
					ex.templates = map[templateKey]*Object{}
				}
				ex.templates[templateKey{ex.program.hash, idx}] = o
			}
		case "priv":
			r.beginArray()
			for f := true; r.more(f); f = false {
				r.beginArray()
				r.more(true)
				o := d.object(r)
				r.more(false)
				r.beginArray()
				for g := true; r.more(g); g = false {
					r.beginArray()
					r.more(true)
					po := d.object(r)
					r.more(false)
					v := d.value(r)
					r.more(false)
					pn, ok := po.slots.(*privateName)
					if o == nil || !ok {
						r.fail("bad private element")
						return
					}
					pn.holder = po
					pe := vm.privates(o)
					pe.names = append(pe.names, pn)
					pe.values = append(pe.values, v)
				}
				r.more(false)
			}
		case "random":
			r.beginArray()
			r.more(true)
			s0 := parseHexState(r, r.goString())
			r.more(false)
			s1 := parseHexState(r, r.goString())
			r.more(false)
			vm.setMathRandomState([2]uint64{s0, s1})
		case "throw":
			r.beginArray()
			r.more(true)
			ex.lastThrow = d.value(r)
			r.more(false)
			ex.lastThrowLine = int(r.int())
			r.more(false)
			ex.lastThrowColumn = int(r.int())
			r.more(false)
		case "legacy":
			r.beginArray()
			r.more(true)
			in := d.value(r)
			if in.kind != KindString {
				r.fail("legacy RegExp input is not a string")
				return
			}
			l := &ex.legacy
			l.input = in.str()
			r.more(false)
			l.numGroups = int(r.int())
			l.caps = l.caps[:0]
			for r.more(false) {
				c := r.int()
				if c < -1 || c > int64(l.input.Len()) {
					r.fail("legacy RegExp match out of its input")
					return
				}
				l.caps = append(l.caps, int32(c))
			}
			if len(l.caps)%2 != 0 || len(l.caps) < 2 {
				r.fail("bad legacy RegExp match")
				return
			}
		default:
			r.skip()
		}
	}
	// The frames must fit the stack they live on, with the room each reserved when it was
	// pushed (pushFrame).
	need := ex.sp
	for _, f := range ex.frames {
		if f.base+f.code.NumRegs > ex.sp || f.argsBase < 2 {
			r.fail("frame outside the stack (base %d regs %d sp %d)", f.base, f.code.NumRegs, ex.sp)
			return
		}
		need = max(need, f.base+frameNeed(f.code))
		for _, h := range f.handlers {
			if h.sp < f.base || h.sp > ex.sp {
				r.fail("handler outside the stack (sp %d base %d stack %d)", h.sp, f.base, ex.sp)
				return
			}
		}
	}
	vm.sizeStack(need)
	if ex.programPromise == nil || promiseOf(ex.programPromise) == nil {
		r.fail("missing program promise")
	}
}

// programCacheSize is how many compiled programs CompileShared and Restore keep: a program
// run many times, or a run suspended and resumed many times, in one process is compiled once.
const programCacheSize = 16

// sharedPrograms caches the programs CompileShared and Restore compiled. A Program is
// immutable once compiled, so VMs share it.
var sharedPrograms = &programCache{}

// programCache holds recently compiled programs by source text, the oldest evicted first.
type programCache struct {
	mu      sync.Mutex
	entries []programCacheEntry // most recent last
}

type programCacheEntry struct {
	source  string
	script  bool
	prog    *Program
	rebuilt bool // prog was rebuilt from a snapshot's compiled code, not compiled here
}

// restoreProgram returns the program a snapshot was running: quoted is its source as a JSON
// string, code its fingerprint ("" in snapshots older than fingerprints) and compiled its
// compiled code (nil in snapshots older than that).
//
// When this release compiles the source to the same code (the fingerprints match, or the
// snapshot has none), that compilation is the program. Otherwise the program is rebuilt from
// the compiled code, which must have the snapshot's fingerprint; without compiled code the
// run cannot continue (ErrCodeChanged). A source this release no longer compiles is resumed
// on its compiled code too.
func (c *programCache) restoreProgram(quoted []byte, script bool, code string, compiled []byte) (*Program, error) {
	prog, err := c.compileQuoted(quoted, script)
	if err == nil && (code == "" || code == prog.CodeFingerprint()) {
		return prog, nil
	}
	if compiled == nil || code == "" {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("the snapshot's code %s, this version compiles the program to %s: %w",
			code, prog.CodeFingerprint(), ErrCodeChanged)
	}
	r := &jsonReader{data: quoted}
	source := r.goString()
	if r.err != nil {
		return nil, fmt.Errorf("source: %w", r.err)
	}
	if p := c.find(func(e *programCacheEntry) bool {
		return e.rebuilt && e.script == script && e.source == source && e.prog.CodeFingerprint() == code
	}); p != nil {
		return p, nil
	}
	prog, err = decodeCompiled(compiled, source, script)
	if err != nil {
		return nil, fmt.Errorf("the snapshot's compiled code: %w", err)
	}
	if got := prog.CodeFingerprint(); got != code {
		return nil, fmt.Errorf("the snapshot's compiled code has fingerprint %s, not its code %s: %w", got, code, ErrSnapshotCorrupt)
	}
	c.add(programCacheEntry{source: source, script: script, prog: prog, rebuilt: true})
	return prog, nil
}

// compileQuoted returns the program whose source is the JSON string quoted. A snapshot
// writes the source as its program quotes it (Program.quoted), so a cached program is found
// by comparing that text, without decoding the string; other text is decoded first.
func (c *programCache) compileQuoted(quoted []byte, script bool) (*Program, error) {
	if p := c.find(func(e *programCacheEntry) bool {
		return !e.rebuilt && e.script == script && bytes.Equal(e.prog.quoted(), quoted)
	}); p != nil {
		return p, nil
	}
	r := &jsonReader{data: quoted}
	source := r.goString()
	if r.err == nil && r.pos != len(quoted) {
		r.fail("text after the source string")
	}
	if r.err != nil {
		return nil, fmt.Errorf("source: %w", r.err)
	}
	prog, err := c.compile(source, script)
	if err != nil {
		return nil, fmt.Errorf("compile the program: %w", err)
	}
	return prog, nil
}

// find returns the program of the most recent entry that match accepts, moving the entry
// to the end (most recent), or nil.
func (c *programCache) find(match func(*programCacheEntry) bool) *Program {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.entries) - 1; i >= 0; i-- {
		if match(&c.entries[i]) { // match only reads the entry: no copy that escapes
			e := c.entries[i]
			copy(c.entries[i:], c.entries[i+1:]) // in place, without a new slice
			c.entries[len(c.entries)-1] = e
			return e.prog
		}
	}
	return nil
}

// compile returns the program for source, compiling it on a miss. Failures are not cached.
func (c *programCache) compile(source string, script bool) (*Program, error) {
	if p := c.find(func(e *programCacheEntry) bool { return !e.rebuilt && e.script == script && e.source == source }); p != nil {
		return p, nil
	}
	var prog *Program
	var err error
	if script {
		prog, err = CompileScript(source)
	} else {
		prog, err = Compile(source)
	}
	if err != nil {
		return nil, err
	}
	c.add(programCacheEntry{source: source, script: script, prog: prog})
	return prog, nil
}

// add adds an entry, evicting the oldest when the cache is full.
func (c *programCache) add(e programCacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) == programCacheSize {
		c.entries = append(c.entries[:0:0], c.entries[1:]...)
	}
	c.entries = append(c.entries, e)
}
