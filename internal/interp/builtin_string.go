package interp

import (
	"math"
)

// The String global: the constructor, String.fromCharCode/fromCodePoint/raw and the
// String.prototype methods that do not involve regular expressions or Unicode tables (those
// are in builtin_string_regexp.go and builtin_string_unicode.go). Every method works on
// UTF-16 code units, so lone surrogates survive.

func init() { registerBuiltin("String", 10, setupString) }

// setupString installs String, String.prototype and %StringIteratorPrototype%.
func setupString(r *Realm) {
	// String.prototype is itself a String object whose [[StringData]] is "".
	proto := r.vm.newObject(r.ObjectPrototype, ClassString)
	proto.slots = stringValue(emptyString)
	ctor := r.newConstructor("String", 1, stringConstructor, proto)
	r.method(ctor, "fromCharCode", 1, stringFromCharCode)
	r.method(ctor, "fromCodePoint", 1, stringFromCodePoint)
	r.method(ctor, "raw", 1, stringRaw)

	for _, m := range []struct {
		name   string
		length int
		fn     NativeFunc
	}{
		{"at", 1, stringAt}, {"charAt", 1, stringCharAt}, {"charCodeAt", 1, stringCharCodeAt},
		{"codePointAt", 1, stringCodePointAt}, {"concat", 1, stringConcat},
		{"endsWith", 1, stringEndsWith}, {"includes", 1, stringIncludes},
		{"indexOf", 1, stringIndexOf}, {"isWellFormed", 0, stringIsWellFormed},
		{"lastIndexOf", 1, stringLastIndexOf}, {"localeCompare", 1, stringLocaleCompare},
		{"match", 1, stringMatch}, {"matchAll", 1, stringMatchAll},
		{"normalize", 0, stringNormalize}, {"padEnd", 1, stringPadEnd},
		{"padStart", 1, stringPadStart}, {"repeat", 1, stringRepeat},
		{"replace", 2, stringReplace}, {"replaceAll", 2, stringReplaceAll},
		{"search", 1, stringSearch}, {"slice", 2, stringSlice}, {"split", 2, stringSplit},
		{"startsWith", 1, stringStartsWith}, {"substring", 2, stringSubstring},
		{"substr", 2, stringSubstr}, {"toLowerCase", 0, stringToLowerCase},
		{"toUpperCase", 0, stringToUpperCase}, {"toLocaleLowerCase", 0, stringToLocaleLowerCase},
		{"toLocaleUpperCase", 0, stringToLocaleUpperCase}, {"toString", 0, stringToString},
		{"toWellFormed", 0, stringToWellFormed}, {"trim", 0, stringTrim},
		{"valueOf", 0, stringValueOf},
	} {
		r.method(proto, m.name, m.length, m.fn)
	}
	// trimLeft and trimRight are the same function objects as trimStart and trimEnd.
	ts := r.method(proto, "trimStart", 0, stringTrimStart)
	te := r.method(proto, "trimEnd", 0, stringTrimEnd)
	r.value(proto, strKey("trimLeft"), objectValue(ts), propHidden)
	r.value(proto, strKey("trimRight"), objectValue(te), propHidden)
	r.symbolMethod(proto, symIterator, 0, stringIteratorMethod, propHidden)
	r.defineGlobal("String", objectValue(ctor))

	ip := r.vm.newObject(r.IteratorPrototype, ClassObject)
	r.addIntrinsic("%StringIteratorPrototype%", ip)
	r.method(ip, "next", 0, stringIteratorNext)
	r.value(ip, symKey(symToStringTag), asciiValue("String Iterator"), propConfigurable)
}

// stringConstructor is String(value): a conversion when called (symbols give their
// descriptive string), a String exotic object when constructed.
func stringConstructor(vm *VM, c NativeCall) Value {
	s := emptyString
	if len(c.Args) > 0 {
		if v := c.Args[0]; c.NewTarget == nil && v.kind == KindSymbol {
			s = newStringFromGo(v.sym().descriptiveString())
		} else {
			s = vm.toString(v)
		}
	}
	if c.NewTarget == nil {
		return stringValue(s)
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "String.prototype", ClassString)
	o.slots = stringValue(s)
	return objectValue(o)
}

// thisStringValue unwraps this as a string (thisStringValue in the spec).
func thisStringValue(vm *VM, v Value, method string) Value {
	if v.kind == KindString {
		return v
	}
	if o := v.asObject(); o != nil && o.class == ClassString {
		if s, ok := o.slots.(Value); ok {
			return s
		}
	}
	vm.throwTypeError("%s requires that 'this' be a String", method)
	return undefinedValue
}

// thisStr is RequireObjectCoercible(this) followed by ToString, as every generic
// String.prototype method begins.
func thisStr(vm *VM, c NativeCall, method string) *jsString {
	if c.This.IsNullish() {
		vm.throwTypeError("String.prototype.%s called on null or undefined", method)
	}
	return vm.toString(c.This)
}

// stringToString is String.prototype.toString.
func stringToString(vm *VM, c NativeCall) Value {
	return thisStringValue(vm, c.This, "String.prototype.toString")
}

// stringValueOf is String.prototype.valueOf.
func stringValueOf(vm *VM, c NativeCall) Value {
	return thisStringValue(vm, c.This, "String.prototype.valueOf")
}

// checkStringLength throws V8's RangeError when a result of n code units would exceed the
// string length cap.
func (vm *VM) checkStringLength(n int64) {
	if n > maxStringLength {
		vm.throwRangeError("Invalid string length")
	}
}

// newJSString makes a string from code units and charges it to the heap budget.
func (vm *VM) newJSString(u []uint16) *jsString {
	vm.allocated += int64(len(u)) * 2
	return newUTF16(u)
}

// stringFromCharCode is String.fromCharCode(...codeUnits).
func stringFromCharCode(vm *VM, c NativeCall) Value {
	if len(c.Args) == 1 && c.Args[0].kind == KindNumber {
		return stringValue(codeUnitString(uint16(toInt32(c.Args[0].num))))
	}
	u := make([]uint16, len(c.Args))
	for i, a := range c.Args {
		u[i] = uint16(vm.toInt32(a))
	}
	return stringValue(vm.newJSString(u))
}

// stringFromCodePoint is String.fromCodePoint(...codePoints).
func stringFromCodePoint(vm *VM, c NativeCall) Value {
	if len(c.Args) == 1 && c.Args[0].kind == KindNumber {
		// one code unit: a lexer reading its input a character at a time
		if f := c.Args[0].num; f >= 0 && f <= 0xFFFF && f == math.Trunc(f) {
			vm.allocated += 2
			return stringValue(codeUnitString(uint16(f)))
		}
	}
	var b stringBuilder
	for _, a := range c.Args {
		f := vm.toNumber(a)
		if f != math.Trunc(f) || f < 0 || f > 0x10FFFF || math.IsInf(f, 0) {
			vm.throwRangeError("Invalid code point %s", vm.toString(a).String())
		}
		b.writeRune(rune(f))
	}
	vm.allocated += int64(b.len()) * 2
	return stringValue(b.string())
}

// stringRaw is String.raw(template, ...substitutions).
func stringRaw(vm *VM, c NativeCall) Value {
	cooked := vm.toObject(c.Arg(0))
	raw := vm.toObject(vm.getProp(cooked, strKey("raw")))
	n := vm.lengthOfArrayLike(raw)
	var b stringBuilder
	for i := int64(0); i < n; i++ {
		b.writeString(vm.toString(vm.getIndex(raw, i)))
		if i+1 < n && int(i)+1 < len(c.Args) {
			b.writeString(vm.toString(c.Args[i+1]))
		}
		vm.checkStringLength(int64(b.len()))
	}
	return stringValue(b.string())
}

// relativeStart converts a relative index argument (negative counts from the end) to a
// position clamped to [0, n].
func (vm *VM) relativeStart(v Value, n int) int {
	f := vm.toIntegerOrInfinity(v)
	if f < 0 {
		f = math.Max(float64(n)+f, 0)
	}
	return int(math.Min(f, float64(n)))
}

// clampPos converts an absolute position argument to [0, n].
func (vm *VM) clampPos(v Value, n int) int {
	f := vm.toIntegerOrInfinity(v)
	return int(math.Max(0, math.Min(f, float64(n))))
}

// stringAt is String.prototype.at.
func stringAt(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "at")
	f := vm.toIntegerOrInfinity(c.Arg(0))
	if f < 0 {
		f += float64(s.Len())
	}
	if f < 0 || f >= float64(s.Len()) {
		return undefinedValue
	}
	return stringValue(s.substring(int(f), int(f)+1))
}

// stringCharAt is String.prototype.charAt.
func stringCharAt(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "charAt")
	f := vm.toIntegerOrInfinity(c.Arg(0))
	if f < 0 || f >= float64(s.Len()) {
		return stringValue(emptyString)
	}
	return stringValue(s.substring(int(f), int(f)+1))
}

// stringCharCodeAt is String.prototype.charCodeAt.
func stringCharCodeAt(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "charCodeAt")
	f := vm.toIntegerOrInfinity(c.Arg(0))
	if f < 0 || f >= float64(s.Len()) {
		return Number(math.NaN())
	}
	return intValue(int(s.At(int(f))))
}

// stringCodePointAt is String.prototype.codePointAt.
func stringCodePointAt(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "codePointAt")
	f := vm.toIntegerOrInfinity(c.Arg(0))
	if f < 0 || f >= float64(s.Len()) {
		return undefinedValue
	}
	r, _ := s.codePointAt(int(f))
	return intValue(int(r))
}

// stringConcat is String.prototype.concat.
func stringConcat(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "concat")
	for _, a := range c.Args {
		s = vm.concat(s, vm.toString(a))
	}
	return stringValue(s)
}

// searchArg converts the search argument of includes/startsWith/endsWith, which must not be
// a regular expression.
func searchArg(vm *VM, v Value, method string) *jsString {
	if vm.isRegExp(v) {
		vm.throwTypeError("First argument to String.prototype.%s must not be a regular expression", method)
	}
	return vm.toString(v)
}

// hasAt reports whether t occurs in s at index i.
func hasAt(s, t *jsString, i int) bool {
	if i < 0 || i+t.Len() > s.Len() {
		return false
	}
	for j := 0; j < t.Len(); j++ {
		if s.At(i+j) != t.At(j) {
			return false
		}
	}
	return true
}

// stringEndsWith is String.prototype.endsWith.
func stringEndsWith(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "endsWith")
	t := searchArg(vm, c.Arg(0), "endsWith")
	end := s.Len()
	if !c.Arg(1).IsUndefined() {
		end = vm.clampPos(c.Arg(1), s.Len())
	}
	return Bool(hasAt(s, t, end-t.Len()))
}

// stringStartsWith is String.prototype.startsWith.
func stringStartsWith(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "startsWith")
	t := searchArg(vm, c.Arg(0), "startsWith")
	return Bool(hasAt(s, t, vm.clampPos(c.Arg(1), s.Len())))
}

// stringIncludes is String.prototype.includes.
func stringIncludes(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "includes")
	t := searchArg(vm, c.Arg(0), "includes")
	return Bool(s.indexOf(t, vm.clampPos(c.Arg(1), s.Len())) >= 0)
}

// stringIndexOf is String.prototype.indexOf.
func stringIndexOf(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "indexOf")
	t := vm.toString(c.Arg(0))
	return intValue(s.indexOf(t, vm.clampPos(c.Arg(1), s.Len())))
}

// stringLastIndexOf is String.prototype.lastIndexOf.
func stringLastIndexOf(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "lastIndexOf")
	t := vm.toString(c.Arg(0))
	pos := vm.toNumber(c.Arg(1))
	start := s.Len()
	if pos == pos {
		f := math.Trunc(pos)
		start = int(math.Max(0, math.Min(f, float64(s.Len()))))
	}
	if t.Len() > s.Len() {
		return intValue(-1)
	}
	return intValue(s.lastIndexOf(t, start))
}

// isSurrogate, isHighSurrogate and isLowSurrogate classify UTF-16 code units.
func isSurrogate(c uint16) bool     { return c >= 0xD800 && c <= 0xDFFF }
func isHighSurrogate(c uint16) bool { return c >= 0xD800 && c <= 0xDBFF }
func isLowSurrogate(c uint16) bool  { return c >= 0xDC00 && c <= 0xDFFF }

// loneSurrogateAt returns the index of the first lone surrogate of s, or -1.
func loneSurrogateAt(s *jsString) int {
	s = s.flat()
	if s.isASCII {
		return -1
	}
	u := s.flatUnits()
	for i := 0; i < len(u); i++ {
		c := u[i]
		if !isSurrogate(c) {
			continue
		}
		if isHighSurrogate(c) && i+1 < len(u) && isLowSurrogate(u[i+1]) {
			i++
			continue
		}
		return i
	}
	return -1
}

// stringIsWellFormed is String.prototype.isWellFormed.
func stringIsWellFormed(vm *VM, c NativeCall) Value {
	return Bool(loneSurrogateAt(thisStr(vm, c, "isWellFormed")) < 0)
}

// stringToWellFormed is String.prototype.toWellFormed: lone surrogates become U+FFFD.
func stringToWellFormed(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "toWellFormed")
	if loneSurrogateAt(s) < 0 {
		return stringValue(s)
	}
	u := append([]uint16(nil), s.units()...)
	for i := 0; i < len(u); i++ {
		if isHighSurrogate(u[i]) && i+1 < len(u) && isLowSurrogate(u[i+1]) {
			i++
		} else if isSurrogate(u[i]) {
			u[i] = 0xFFFD
		}
	}
	return stringValue(vm.newJSString(u))
}

// stringPad implements padStart (atStart) and padEnd.
func stringPad(vm *VM, c NativeCall, method string, atStart bool) Value {
	s := thisStr(vm, c, method)
	maxLen := vm.toLength(c.Arg(0))
	if maxLen <= int64(s.Len()) {
		return stringValue(s)
	}
	fill := newASCII(" ")
	if !c.Arg(1).IsUndefined() {
		fill = vm.toString(c.Arg(1))
	}
	if fill.Len() == 0 {
		return stringValue(s)
	}
	vm.checkStringLength(maxLen)
	n := int(maxLen) - s.Len()
	var b stringBuilder
	if !atStart {
		b.writeString(s)
	}
	for k := n; k > 0; {
		if fill.Len() <= k {
			b.writeString(fill)
			k -= fill.Len()
		} else {
			b.writeString(fill.substring(0, k))
			k = 0
		}
	}
	if atStart {
		b.writeString(s)
	}
	vm.chargeAhead(int64(maxLen) * 2)
	return stringValue(b.string())
}

// stringPadStart is String.prototype.padStart.
func stringPadStart(vm *VM, c NativeCall) Value { return stringPad(vm, c, "padStart", true) }

// stringPadEnd is String.prototype.padEnd.
func stringPadEnd(vm *VM, c NativeCall) Value { return stringPad(vm, c, "padEnd", false) }

// stringRepeat is String.prototype.repeat.
func stringRepeat(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "repeat")
	n := vm.toIntegerOrInfinity(c.Arg(0))
	if n < 0 || math.IsInf(n, 1) {
		vm.throwRangeError("Invalid count value: %s", numberToString(n))
	}
	if s.Len() == 0 || n == 0 {
		return stringValue(emptyString)
	}
	if float64(s.Len())*n > maxStringLength {
		vm.throwRangeError("Invalid string length")
	}
	size := int64(float64(s.Len()) * n)
	if !s.isASCII {
		size *= 2 // UTF-16 storage
	}
	vm.chargeAhead(stringBaseSize + size)
	var b stringBuilder
	if !s.isASCII {
		b.widen()
	}
	b.grow(s.Len() * int(n)) // one buffer, not the garbage of doubling ones
	for i := 0; i < int(n); i++ {
		b.writeString(s)
	}
	return stringValue(b.string())
}

// stringSlice is String.prototype.slice.
func stringSlice(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "slice")
	from := vm.relativeStart(c.Arg(0), s.Len())
	to := s.Len()
	if !c.Arg(1).IsUndefined() {
		to = vm.relativeStart(c.Arg(1), s.Len())
	}
	return stringValue(vm.substring(s, from, max(from, to)))
}

// stringSubstring is String.prototype.substring.
func stringSubstring(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "substring")
	from := vm.clampPos(c.Arg(0), s.Len())
	to := s.Len()
	if !c.Arg(1).IsUndefined() {
		to = vm.clampPos(c.Arg(1), s.Len())
	}
	return stringValue(vm.substring(s, min(from, to), max(from, to)))
}

// stringSubstr is String.prototype.substr (Annex B).
func stringSubstr(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "substr")
	from := vm.relativeStart(c.Arg(0), s.Len())
	n := float64(s.Len() - from)
	if !c.Arg(1).IsUndefined() {
		n = math.Min(math.Max(vm.toIntegerOrInfinity(c.Arg(1)), 0), n)
	}
	if n <= 0 {
		return stringValue(emptyString)
	}
	return stringValue(vm.substring(s, from, from+int(n)))
}

// trimString removes JS white space and line terminators from the start and/or end of s.
func trimString(s *jsString, start, end bool) *jsString {
	i, j := 0, s.Len()
	if start {
		for i < j && isJSSpace(rune(s.At(i))) {
			i++
		}
	}
	if end {
		for j > i && isJSSpace(rune(s.At(j-1))) {
			j--
		}
	}
	return s.substring(i, j)
}

// stringTrim is String.prototype.trim.
func stringTrim(vm *VM, c NativeCall) Value {
	return stringValue(trimString(thisStr(vm, c, "trim"), true, true))
}

// stringTrimStart is String.prototype.trimStart (also trimLeft).
func stringTrimStart(vm *VM, c NativeCall) Value {
	return stringValue(trimString(thisStr(vm, c, "trimStart"), true, false))
}

// stringTrimEnd is String.prototype.trimEnd (also trimRight).
func stringTrimEnd(vm *VM, c NativeCall) Value {
	return stringValue(trimString(thisStr(vm, c, "trimEnd"), false, true))
}

// stringIterator is the slot data of a String Iterator: the string and the next index.
type stringIterator struct {
	str  Value // the iterated string; undefined once exhausted
	next int64 // code unit index of the next code point
}

// stringIteratorMethod is String.prototype[Symbol.iterator]: an iterator over code points.
func stringIteratorMethod(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "[Symbol.iterator]")
	o := vm.newObject(vm.realm.Intrinsic("%StringIteratorPrototype%"), ClassIterator)
	o.slots = &stringIterator{str: stringValue(s)}
	return objectValue(o)
}

// stringIteratorNext is %StringIteratorPrototype%.next.
func stringIteratorNext(vm *VM, c NativeCall) Value {
	var it *stringIterator
	if o := c.This.asObject(); o != nil {
		it, _ = o.slots.(*stringIterator)
	}
	if it == nil {
		vm.throwTypeError("Method String Iterator.prototype.next called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	if it.str.IsUndefined() {
		return vm.createIterResultObject(undefinedValue, true)
	}
	s := it.str.str()
	if it.next >= int64(s.Len()) {
		it.str = undefinedValue
		return vm.createIterResultObject(undefinedValue, true)
	}
	i := int(it.next)
	_, n := s.codePointAt(i)
	it.next += int64(n)
	return vm.createIterResultObject(stringValue(s.substring(i, i+n)), false)
}
