package interp

import (
	"strings"
	"sync"

	"github.com/codemode/codemode/internal/interp/numconv"
)

// Array.prototype.join, toString and toLocaleString, with V8's cycle guard (an array that
// contains itself joins as "") and the string length cap checked as the text grows.

// arrayJoin is Array.prototype.join(separator): null and undefined elements give "".
func arrayJoin(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "join")
	n := vm.lengthOfArrayLike(o)
	sep := commaString
	if s := c.Arg(0); !s.IsUndefined() {
		sep = vm.toString(s)
	}
	if !vm.enterJoin(o) {
		return stringValue(emptyString)
	}
	defer vm.leaveJoin(o)
	return stringValue(vm.joinArray(o, n, sep, false))
}

// commaString is the default separator of join.
var commaString = newASCII(",")

// maxJoinLength is the string length cap (2^24 code units) that join checks as it goes.
const maxJoinLength = 1 << 24

// joinArray joins elements [0, n) of o with sep, converting each with ToString (or, for
// toLocaleString, by calling its toLocaleString method).
func (vm *VM) joinArray(o *Object, n int64, sep *jsString, locale bool, localeArgs ...Value) *jsString {
	var b stringBuilder
	total := 0
	sepLen := sep.Len()
	if n > 1 && (n-1)*int64(sepLen) > maxJoinLength {
		vm.throwRangeError("Invalid string length")
	}
	if !locale {
		if js, ok := vm.joinStrings(o, n, sep); ok {
			return js
		}
	}
	write := func(v Value) {
		if v.IsNullish() {
			return
		}
		if v.kind == KindNumber && !locale && !b.isWide {
			// numbers format straight into the builder (no string allocation)
			before := len(b.ascii)
			b.ascii = numconv.AppendNumber(b.ascii, v.num)
			total += len(b.ascii) - before
			if total > maxJoinLength {
				vm.throwRangeError("Invalid string length")
			}
			return
		}
		var s *jsString
		if locale {
			s = vm.toString(vm.invoke(v, strKey("toLocaleString"), localeArgs...))
		} else if v.kind == KindString {
			s = v.str()
		} else {
			s = vm.toString(v)
		}
		total += s.Len()
		if total > maxJoinLength {
			vm.throwRangeError("Invalid string length")
		}
		b.writeString(s)
	}
	if idx, ok := vm.sparseIndices(o, n); ok && !locale {
		// only the present elements contribute text; every gap is separators
		total = int((n - 1) * int64(sepLen))
		prev := int64(0)
		for _, i := range idx {
			for ; sepLen > 0 && prev < i; prev++ {
				b.writeString(sep)
			}
			write(vm.getIndex(o, i))
		}
		for ; sepLen > 0 && prev < n-1; prev++ {
			b.writeString(sep)
		}
		return vm.chargeString(b.string())
	}
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		if k > 0 && sepLen > 0 {
			total += sepLen
			if total > maxJoinLength {
				vm.throwRangeError("Invalid string length")
			}
			b.writeString(sep)
		}
		write(vm.getIndex(o, k))
	}
	return vm.chargeString(b.string())
}

// joinStrings is join for the common case of a dense array of strings (nullish elements
// allowed): reading its elements runs no code, so the result's length is summed first and
// the text copied once into storage of that size. ok is false, with nothing done, for any
// other array or element.
func (vm *VM) joinStrings(o *Object, n int64, sep *jsString) (js *jsString, ok bool) {
	if o.class != ClassArray || n == 0 || int64(len(o.elems)) != n {
		return nil, false
	}
	elems := o.elems
	sep = sep.flat()
	total := int64(sep.Len()) * (n - 1)
	ascii := sep.isASCII
	for _, v := range elems {
		switch v.kind {
		case KindString:
			s := v.str()
			total += int64(s.Len())
			ascii = ascii && s.isASCII
		case KindUndefined, KindNull:
		default:
			return nil, false
		}
	}
	if total > maxJoinLength {
		vm.throwRangeError("Invalid string length")
	}
	if ascii {
		var b strings.Builder
		b.Grow(int(total))
		for i, v := range elems {
			if i > 0 {
				b.WriteString(sep.ascii)
			}
			if v.kind == KindString {
				b.WriteString(v.str().flat().ascii)
			}
		}
		return vm.chargeString(newASCII(b.String())), true
	}
	u := make([]uint16, 0, total)
	appendUnits := func(s *jsString) {
		if s = s.flat(); !s.isASCII {
			u = append(u, s.flatUnits()...)
			return
		}
		for i := 0; i < len(s.ascii); i++ {
			u = append(u, uint16(s.ascii[i]))
		}
	}
	for i, v := range elems {
		if i > 0 {
			appendUnits(sep)
		}
		if v.kind == KindString {
			appendUnits(v.str())
		}
	}
	return vm.chargeString(newUTF16(u)), true
}

// enterJoin guards join/toString/toLocaleString against cycles (an array containing itself
// joins as ""), as V8 does; it reports false when o is already being joined.
func (vm *VM) enterJoin(o *Object) bool {
	joinGuards.Lock()
	defer joinGuards.Unlock()
	for _, x := range joinGuards.m[vm] {
		if x == o {
			return false
		}
	}
	joinGuards.m[vm] = append(joinGuards.m[vm], o)
	return true
}

// leaveJoin pops o from the join cycle guard.
func (vm *VM) leaveJoin(o *Object) {
	joinGuards.Lock()
	defer joinGuards.Unlock()
	js := joinGuards.m[vm]
	if n := len(js); n > 0 && js[n-1] == o {
		js = js[:n-1]
	}
	if len(js) == 0 {
		delete(joinGuards.m, vm)
		return
	}
	joinGuards.m[vm] = js
}

// joinGuards holds the join cycle guard of each VM that is joining right now. The guard is
// transient (empty whenever the VM is at a safe point), so it is not part of snapshots.
var joinGuards = struct {
	sync.Mutex
	m map[*VM][]*Object
}{m: map[*VM][]*Object{}}

// arrayToString is Array.prototype.toString: this.join(), or Object.prototype.toString when
// join is not callable.
func arrayToString(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "toString")
	join := vm.getProp(o, strKey("join"))
	if IsCallable(join) {
		return vm.Call(join, objectValue(o))
	}
	return objectProtoToString(vm, NativeCall{This: objectValue(o)})
}

// arrayToLocaleString is Array.prototype.toLocaleString(locales, options): elements'
// toLocaleString(locales, options) joined with "," (ECMA-402).
func arrayToLocaleString(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "toLocaleString")
	n := vm.lengthOfArrayLike(o)
	if !vm.enterJoin(o) {
		return stringValue(emptyString)
	}
	defer vm.leaveJoin(o)
	return stringValue(vm.joinArray(o, n, commaString, true, c.Arg(0), c.Arg(1)))
}
