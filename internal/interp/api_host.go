package interp

import (
	"errors"
	"fmt"
	"slices"
)

// Host functions and host promises: the boundary between the program and the
// embedder's tools.

// hostFunction is the internal slot data of a function made by NewHostFunction:
// only its id, so that a restored VM calls the same host entry point.
type hostFunction struct {
	id string
}

// abortSignal unwinds the Go stack when a host function aborts the run.
type abortSignal struct{ err error }

// callFunction implements functionSlots: it forwards the call to Config.Host.
func (h *hostFunction) callFunction(vm *VM, this Value, args []Value, newTarget *Object) Value {
	if newTarget != nil {
		vm.throwTypeError("host function %s is not a constructor", h.id)
	}
	host := vm.exec.cfg.Host
	if host == nil {
		vm.throwTypeError("host function %s is not available", h.id)
	}
	v, err := host.CallHost(vm, h.id, this, append([]Value(nil), args...))
	if err == nil {
		return v
	}
	var exc *Exception
	if errors.As(err, &exc) {
		panic(exc)
	}
	var d *Diagnostic
	if errors.As(err, &d) {
		panic(&abortSignal{err: d})
	}
	panic(&abortSignal{err: fmt.Errorf("interp: host function %s: %w", h.id, err)})
}

// NewHostFunction returns a callable whose calls go to Config.Host.CallHost with
// id. name and length become the function's name and length properties.
func (vm *VM) NewHostFunction(id, name string, length int) Value {
	f := vm.newObject(vm.realm.FunctionPrototype, ClassFunction)
	f.flags |= objCallable
	f.slots = &hostFunction{id: id}
	f.props.add(keyLength, Property{value: intValue(length), flags: propConfigurable})
	f.props.add(keyName, Property{value: asciiValue(name), flags: propConfigurable})
	return objectValue(f)
}

// maxPendingPromises caps the promises that may be pending at once, tool calls' included.
const maxPendingPromises = 10_000

// NewHostPromise creates a pending promise settled later by SettleHostPromise.
// Its bookkeeping is part of snapshots. Ids start at 1 and increase. Past the cap of
// pending promises (maxPendingPromises) it throws the program's RangeError instead.
func (vm *VM) NewHostPromise() (id uint64, promise Value) {
	ex := &vm.exec
	if ex.hostPromise == nil {
		ex.hostPromise = map[uint64]*Object{}
	}
	vm.checkPendingPromises()
	ex.nextHostID++
	p := vm.newPromise()
	promiseOf(p).hostID = ex.nextHostID
	ex.hostPromise[ex.nextHostID] = p
	return ex.nextHostID, objectValue(p)
}

// SettleHostPromise fulfils (ok) or rejects the host promise id with v. Its
// reactions run at the next Run.
func (vm *VM) SettleHostPromise(id uint64, ok bool, v Value) error {
	ex := &vm.exec
	p := ex.hostPromise[id]
	if p == nil {
		return fmt.Errorf("interp: settle host promise %d: %w", id, ErrUnknownHostPromise)
	}
	delete(ex.hostPromise, id)
	if ok {
		vm.resolvePromise(p, v)
	} else {
		vm.rejectPromise(p, v)
	}
	return nil
}

// ErrUnknownHostPromise is returned when settling an id that is not pending.
var ErrUnknownHostPromise = errors.New("unknown or already settled host promise")

// pendingHostPromises lists the ids of the pending host promises, ascending.
func (vm *VM) pendingHostPromises() []uint64 {
	ids := make([]uint64, 0, len(vm.exec.hostPromise))
	for id := range vm.exec.hostPromise {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
