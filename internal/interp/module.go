package interp

import (
	"slices"
	"strings"
)

// Modules: a program has no module system, but the three ways a Node program
// reaches a module — import declarations, import() and require() — take a
// global by its Node module name, with or without the "node:" scheme:
//
//   - a name listed in Config.Modules (the embedder's own globals, "fs") is that global;
//   - "fs/promises" is the promises member of the module fs;
//   - "url" is an object holding the globals URL and URLSearchParams;
//   - "util" is the global util when it is a module, else an object holding
//     the globals TextEncoder and TextDecoder;
//   - "buffer" is an object holding the global Buffer, which the interpreter
//     itself does not have (an embedder may provide one and list it in Modules).
//
// Anything else throws an Error "Cannot find module 'x'" (code MODULE_NOT_FOUND,
// as node) that lists the modules there are. A module is the global's value
// itself: import fs from "fs" and import * as fs from "fs" bind it, and
// import { readFile } from "fs" binds its member readFile (a missing member is
// a SyntaxError, as node's "does not provide an export named").

func init() {
	registerBuiltin("require", 50, func(r *Realm) {
		r.defineGlobal("require", objectValue(r.newFunction("require", "require", 1, globalRequire)))
	})
}

// globalRequire is require(id).
func globalRequire(vm *VM, c NativeCall) Value {
	return vm.requireModule(c.Arg(0))
}

// requireModule resolves a module specifier to its value, or throws.
func (vm *VM) requireModule(spec Value) Value {
	if spec.kind != KindString {
		vm.throwTypeError("The \"id\" argument must be of type string. Received %s", vm.describeValue(spec))
	}
	name := vm.ToGoString(spec)
	bare := strings.TrimPrefix(name, "node:")
	if v, ok := vm.moduleGlobal(bare); ok {
		return v
	}
	switch bare {
	case "fs/promises":
		if fs, ok := vm.moduleGlobal("fs"); ok {
			if p := vm.getV(fs, strKey("promises")); p.kind == KindObject {
				return p
			}
		}
	case "url":
		return vm.moduleOf("URL", "URLSearchParams")
	case "util":
		return vm.moduleOf("TextEncoder", "TextDecoder")
	case "buffer":
		if vm.realm.globalProp(strKey("Buffer")) == nil {
			vm.throwModuleNotFound(name, "this runtime has no Buffer global")
		}
		return vm.moduleOf("Buffer")
	}
	vm.throwModuleNotFound(name, "")
	return undefinedValue
}

// moduleGlobal returns the global named name when Config.Modules lists it.
func (vm *VM) moduleGlobal(name string) (Value, bool) {
	if !slices.Contains(vm.exec.cfg.Modules, name) {
		return undefinedValue, false
	}
	p := vm.realm.globalProp(strKey(name))
	if p == nil {
		return undefinedValue, false
	}
	return vm.getV(vm.Global(), strKey(name)), true
}

// moduleOf returns a new object holding the named globals that exist.
func (vm *VM) moduleOf(names ...string) Value {
	o := vm.newPlainObject()
	for _, n := range names {
		if vm.realm.globalProp(strKey(n)) != nil {
			vm.createDataPropertyOrThrow(o, strKey(n), vm.getV(vm.Global(), strKey(n)))
		}
	}
	return objectValue(o)
}

// builtinModules are the module names every program may import.
var builtinModules = []string{"buffer", "url", "util"}

// throwModuleNotFound throws node's error for a module that cannot be found, listing the
// modules there are.
func (vm *VM) throwModuleNotFound(name, why string) {
	var avail []string
	for _, m := range vm.exec.cfg.Modules {
		if _, ok := vm.moduleGlobal(m); !ok {
			continue
		}
		avail = append(avail, m)
		if m == "fs" {
			avail = append(avail, "fs/promises")
		}
	}
	for _, m := range builtinModules {
		if m != "buffer" || vm.realm.globalProp(strKey("Buffer")) != nil {
			avail = append(avail, m)
		}
	}
	slices.Sort(avail)
	avail = slices.Compact(avail)
	msg := "Cannot find module '" + name + "'"
	if why != "" {
		msg += ": " + why
	}
	msg += ". A program has no module system: a module is one of the runtime's globals, by its name with or without \"node:\". Available modules: " + strings.Join(avail, ", ")
	err := vm.NewError("Error", msg)
	vm.createDataPropertyOrThrow(err.obj(), strKey("code"), asciiValue("MODULE_NOT_FOUND"))
	vm.throw(err)
}

// importNamed is the value of import { name } from spec: the module's member name.
func (vm *VM) importNamed(module, spec Value, name string) Value {
	if module.kind == KindObject && vm.hasProperty(module.obj(), strKey(name)) {
		return vm.getV(module, strKey(name))
	}
	vm.throwSyntaxError("The requested module '%s' does not provide an export named '%s'", vm.ToGoString(spec), name)
	return undefinedValue
}

// importDynamic is import(spec): a promise of the module, rejected when it cannot be found.
func (vm *VM) importDynamic(spec Value) Value {
	p := vm.newPromise()
	var err error
	var m Value
	func() {
		defer vm.catchException(&err)
		m = vm.requireModule(spec)
	}()
	if exc, ok := err.(*Exception); ok {
		vm.rejectPromise(p, exc.Value)
	} else {
		vm.resolvePromise(p, m)
	}
	return objectValue(p)
}
