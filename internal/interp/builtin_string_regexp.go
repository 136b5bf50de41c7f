package interp

import (
	"math"
	"strings"
)

// String.prototype methods that take a pattern: match, matchAll, replace, replaceAll, search
// and split. An object argument with the matching well-known symbol method (a RegExp, or
// any user object) handles the call; otherwise strings are searched literally (replace,
// replaceAll, split) or a RegExp is created from the argument (match, matchAll, search).

// delegateToSymbol calls arg[sym](this, extra...) when arg is an object with that method
// (primitives are not asked, as the current specification says); ok reports whether it did.
func (vm *VM) delegateToSymbol(arg Value, sym *Symbol, this Value, extra ...Value) (Value, bool) {
	if arg.kind != KindObject {
		return undefinedValue, false
	}
	if f, nf := plainRegExpSymbolMethod(arg.obj(), sym); nf != nil {
		var buf [2]Value
		args := append(append(buf[:0], this), extra...)
		return nf.fn(vm, NativeCall{This: arg, Args: args, Callee: f}), true
	}
	m := vm.getMethod(arg, symKey(sym))
	if m.IsUndefined() {
		return undefinedValue, false
	}
	args := append([]Value{this}, extra...)
	return vm.Call(m, arg, args...), true
}

// regexpCreate is RegExpCreate(pattern, flags) with the built-in RegExp constructor.
func (vm *VM) regexpCreate(pattern Value, flags string) *Object {
	ctor := objectValue(vm.realm.Intrinsic("RegExp"))
	f := undefinedValue
	if flags != "" {
		f = asciiValue(flags)
	}
	return vm.construct(ctor, nil, pattern, f).obj()
}

// requireCoercible throws the V8 TypeError for String.prototype methods on null/undefined.
func requireCoercible(vm *VM, c NativeCall, method string) {
	if c.This.IsNullish() {
		vm.throwTypeError("String.prototype.%s called on null or undefined", method)
	}
}

// stringMatch is String.prototype.match.
func stringMatch(vm *VM, c NativeCall) Value {
	requireCoercible(vm, c, "match")
	if v, ok := vm.delegateToSymbol(c.Arg(0), symMatch, c.This); ok {
		return v
	}
	s := vm.toString(c.This)
	rx := vm.regexpCreate(c.Arg(0), "")
	return vm.invoke(objectValue(rx), symKey(symMatch), stringValue(s))
}

// stringMatchAll is String.prototype.matchAll: a RegExp argument must be global.
func stringMatchAll(vm *VM, c NativeCall) Value {
	requireCoercible(vm, c, "matchAll")
	if re := c.Arg(0); !re.IsNullish() {
		if vm.isRegExp(re) {
			flags := vm.getProp(re.obj(), strKey("flags"))
			if flags.IsNullish() {
				vm.throwTypeError("String.prototype.matchAll called with a non-global RegExp argument")
			}
			if !strings.Contains(vm.toString(flags).String(), "g") {
				vm.throwTypeError("String.prototype.matchAll called with a non-global RegExp argument")
			}
		}
		if v, ok := vm.delegateToSymbol(re, symMatchAll, c.This); ok {
			return v
		}
	}
	s := vm.toString(c.This)
	rx := vm.regexpCreate(c.Arg(0), "g")
	return vm.invoke(objectValue(rx), symKey(symMatchAll), stringValue(s))
}

// stringSearch is String.prototype.search.
func stringSearch(vm *VM, c NativeCall) Value {
	requireCoercible(vm, c, "search")
	if v, ok := vm.delegateToSymbol(c.Arg(0), symSearch, c.This); ok {
		return v
	}
	s := vm.toString(c.This)
	rx := vm.regexpCreate(c.Arg(0), "")
	return vm.invoke(objectValue(rx), symKey(symSearch), stringValue(s))
}

// stringReplace is String.prototype.replace: the first occurrence of a string, or whatever
// the pattern's Symbol.replace does.
func stringReplace(vm *VM, c NativeCall) Value {
	requireCoercible(vm, c, "replace")
	if v, ok := vm.delegateToSymbol(c.Arg(0), symReplace, c.This, c.Arg(1)); ok {
		return v
	}
	s := vm.toString(c.This)
	search := vm.toString(c.Arg(0))
	replaceValue := c.Arg(1)
	functional := IsCallable(replaceValue)
	var template *jsString
	if !functional {
		template = vm.toString(replaceValue)
	}
	pos := s.indexOf(search, 0)
	if pos < 0 {
		return stringValue(s)
	}
	var repl *jsString
	if functional {
		repl = vm.toString(vm.Call(replaceValue, undefinedValue, stringValue(search), intValue(pos), stringValue(s)))
	} else {
		repl = vm.getSubstitution(search, s, nil, pos, nil, undefinedValue, template)
	}
	var b stringBuilder
	b.writeString(s.substring(0, pos))
	b.writeString(repl)
	b.writeString(s.substring(pos+search.Len(), s.Len()))
	vm.checkStringLength(int64(b.len()))
	vm.allocated += int64(b.len()) * 2
	return stringValue(b.string())
}

// stringReplaceAll is String.prototype.replaceAll: every occurrence of a string, or a
// global RegExp's Symbol.replace.
func stringReplaceAll(vm *VM, c NativeCall) Value {
	requireCoercible(vm, c, "replaceAll")
	if sv := c.Arg(0); !sv.IsNullish() {
		if vm.isRegExp(sv) {
			flags := vm.getProp(sv.obj(), strKey("flags"))
			if flags.IsNullish() || !strings.Contains(vm.toString(flags).String(), "g") {
				vm.throwTypeError("String.prototype.replaceAll called with a non-global RegExp argument")
			}
		}
		if v, ok := vm.delegateToSymbol(sv, symReplace, c.This, c.Arg(1)); ok {
			return v
		}
	}
	s := vm.toString(c.This)
	search := vm.toString(c.Arg(0))
	replaceValue := c.Arg(1)
	functional := IsCallable(replaceValue)
	var template *jsString
	if !functional {
		template = vm.toString(replaceValue)
	}
	advance := max(1, search.Len())
	var positions []int
	for p := s.indexOf(search, 0); p >= 0; p = s.indexOf(search, p+advance) {
		positions = append(positions, p)
		if p+advance > s.Len() {
			break
		}
	}
	var sUnits []uint16
	if !functional && hasDollar(template) && len(positions) > 1 {
		sUnits = s.units()
	}
	end := 0
	var b stringBuilder
	for _, p := range positions {
		var repl *jsString
		if functional {
			repl = vm.toString(vm.Call(replaceValue, undefinedValue, stringValue(search), intValue(p), stringValue(s)))
		} else {
			repl = vm.getSubstitution(search, s, sUnits, p, nil, undefinedValue, template)
		}
		b.writeString(s.substring(end, p))
		b.writeString(repl)
		vm.checkStringLength(int64(b.len()))
		end = p + search.Len()
	}
	if end < s.Len() {
		b.writeString(s.substring(end, s.Len()))
	}
	vm.checkStringLength(int64(b.len()))
	vm.allocated += int64(b.len()) * 2
	return stringValue(b.string())
}

// stringSplit is String.prototype.split.
func stringSplit(vm *VM, c NativeCall) Value {
	requireCoercible(vm, c, "split")
	if v, ok := vm.delegateToSymbol(c.Arg(0), symSplit, c.This, c.Arg(1)); ok {
		return v
	}
	s := vm.toString(c.This)
	lim := uint32(math.MaxUint32)
	if l := c.Arg(1); !l.IsUndefined() {
		lim = vm.toUint32(l)
	}
	sep := vm.toString(c.Arg(0))
	if lim == 0 {
		return vm.newArrayValue(nil)
	}
	if c.Arg(0).IsUndefined() {
		return vm.newArrayValue([]Value{stringValue(s)})
	}
	n := s.Len()
	if sep.Len() == 0 {
		k := min(int64(n), int64(lim))
		vm.chargeElems(int(k))
		out := make([]Value, k)
		for i := range out {
			out[i] = stringValue(s.substring(i, i+1))
		}
		return vm.newArrayValue(out)
	}
	if n == 0 {
		return vm.newArrayValue([]Value{stringValue(s)})
	}
	var out []Value
	start := 0
	for p := s.indexOf(sep, 0); p >= 0; p = s.indexOf(sep, start) {
		out = append(out, stringValue(vm.substring(s, start, p)))
		vm.chargeElems(1)
		if uint32(len(out)) == lim {
			return vm.newArrayValue(out)
		}
		start = p + sep.Len()
	}
	out = append(out, stringValue(s.substring(start, n)))
	return vm.newArrayValue(out)
}
