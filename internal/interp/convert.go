package interp

import (
	"math"
	"strconv"

	"github.com/codemode/codemode/internal/interp/numconv"
)

// ToBoolean is the ECMAScript ToBoolean (truthiness).
func ToBoolean(v Value) bool {
	switch v.kind {
	case KindBool:
		return v.num != 0
	case KindNumber:
		return v.num != 0 && v.num == v.num
	case KindString:
		return v.str().Len() > 0
	case KindSymbol, KindObject:
		return true
	case KindBigInt:
		return v.bigint().Sign() != 0
	}
	return false
}

// toPrimitive hints.
const (
	hintDefault = "default"
	hintNumber  = "number"
	hintString  = "string"
)

// toPrimitive converts an object to a primitive (Symbol.toPrimitive, then valueOf/toString in
// hint order); primitives are returned unchanged. hint is "default" (what + and == pass),
// "number" or "string"; it is the argument a Symbol.toPrimitive method receives.
func (vm *VM) toPrimitive(v Value, hint string) Value {
	if v.kind != KindObject {
		return v
	}
	o := v.obj()
	exotic := vm.getMethod(v, symKey(symToPrimitive))
	if !exotic.IsUndefined() {
		r := vm.Call(exotic, v, asciiValue(hint))
		if r.kind == KindObject {
			vm.throwTypeError("Cannot convert object to primitive value")
		}
		return r
	}
	if hint == hintDefault {
		hint = hintNumber
	}
	first, second := keyValueOf, keyToString
	if hint == hintString {
		first, second = keyToString, keyValueOf
	}
	for _, k := range [2]PropertyKey{first, second} {
		m := vm.getFrom(o, k, v)
		if m.kind == KindObject && m.obj().isCallable() {
			r := vm.Call(m, v)
			if r.kind != KindObject {
				return r
			}
		}
	}
	vm.throwTypeError("Cannot convert object to primitive value")
	return undefinedValue
}

// toNumber is the ECMAScript ToNumber.
func (vm *VM) toNumber(v Value) float64 {
	switch v.kind {
	case KindNumber:
		return v.num
	case KindUndefined:
		return math.NaN()
	case KindNull:
		return 0
	case KindBool:
		return v.num
	case KindString:
		return stringToNumber(v.str())
	case KindSymbol:
		vm.throwTypeError("Cannot convert a Symbol value to a number")
	case KindBigInt:
		vm.throwTypeError("Cannot convert a BigInt value to a number")
	case KindObject:
		return vm.toNumber(vm.toPrimitive(v, hintNumber))
	}
	return math.NaN()
}

// toString is the ECMAScript ToString.
func (vm *VM) toString(v Value) *jsString {
	switch v.kind {
	case KindString:
		return v.str()
	case KindNumber:
		s := numberToJSString(v.num)
		if s.length > 1 { // not one of the shared digits: a new header and its text
			vm.allocated += stringBaseSize + int64(s.length)
		}
		return s
	case KindUndefined:
		return strUndefined
	case KindNull:
		return strNull
	case KindBool:
		if v.num != 0 {
			return strTrue
		}
		return strFalse
	case KindSymbol:
		vm.throwTypeError("Cannot convert a Symbol value to a string")
	case KindBigInt:
		return vm.bigIntToString(v.bigint(), 10)
	case KindObject:
		return vm.toString(vm.toPrimitive(v, hintString))
	}
	return strEmpty
}

// toStringValue is ToString wrapped as a Value.
func (vm *VM) toStringValue(v Value) Value {
	if v.kind == KindString {
		return v
	}
	return stringValue(vm.toString(v))
}

// ToGoString is ToString as UTF-8 Go text (lone surrogates become U+FFFD).
func (vm *VM) ToGoString(v Value) string { return vm.toString(v).String() }

// String makes a string value from UTF-8 Go text.
func (vm *VM) String(s string) Value {
	vm.allocated += int64(len(s))
	return stringValue(newStringFromGo(s))
}

// toPropertyKey is the ECMAScript ToPropertyKey.
func (vm *VM) toPropertyKey(v Value) PropertyKey {
	switch v.kind {
	case KindString:
		return jsStringKey(v.str())
	case KindSymbol:
		return symKey(v.sym())
	case KindNumber:
		if v.num >= 0 && v.num < math.MaxUint32 && v.num == math.Trunc(v.num) {
			return indexKey(uint32(v.num))
		}
		return strKey(numberToString(v.num))
	}
	p := vm.toPrimitive(v, hintString)
	if p.kind == KindSymbol {
		return symKey(p.sym())
	}
	return jsStringKey(vm.toString(p))
}

// toObject is the ECMAScript ToObject: primitives are wrapped; null and undefined throw.
func (vm *VM) toObject(v Value) *Object {
	switch v.kind {
	case KindObject:
		return v.obj()
	case KindUndefined, KindNull:
		vm.throwTypeError("Cannot convert undefined or null to object")
	}
	return vm.wrapPrimitive(v)
}

// wrapPrimitive makes the wrapper object of a boolean, number, string or symbol.
func (vm *VM) wrapPrimitive(v Value) *Object {
	var o *Object
	switch v.kind {
	case KindBool:
		o = vm.newObject(vm.realm.Intrinsic("Boolean.prototype"), ClassBoolean)
	case KindNumber:
		o = vm.newObject(vm.realm.Intrinsic("Number.prototype"), ClassNumber)
	case KindString:
		o = vm.newObject(vm.realm.Intrinsic("String.prototype"), ClassString)
	case KindSymbol:
		o = vm.newObject(vm.realm.Intrinsic("Symbol.prototype"), ClassSymbol)
	case KindBigInt:
		o = vm.newObject(vm.realm.Intrinsic("BigInt.prototype"), ClassBigInt)
	default:
		panic("interp: wrapPrimitive of " + v.kind.String())
	}
	if o.proto == nil {
		o.proto = vm.realm.ObjectPrototype
	}
	o.slots = v
	return o
}

// toIntegerOrInfinity is the ECMAScript ToIntegerOrInfinity (NaN → 0, truncation).
func (vm *VM) toIntegerOrInfinity(v Value) float64 {
	f := vm.toNumber(v)
	if f != f {
		return 0
	}
	if math.IsInf(f, 0) {
		return f
	}
	return math.Trunc(f) + 0 // +0 turns -0 into +0
}

// toLength is the ECMAScript ToLength: an integer in [0, 2^53-1].
func (vm *VM) toLength(v Value) int64 {
	f := vm.toIntegerOrInfinity(v)
	if f <= 0 {
		return 0
	}
	if f > maxSafeInteger {
		return maxSafeInteger
	}
	return int64(f)
}

// maxSafeInteger is 2^53-1.
const maxSafeInteger = 1<<53 - 1

// toIndex is the ECMAScript ToIndex: RangeError outside [0, 2^53-1].
func (vm *VM) toIndex(v Value) int64 {
	if v.IsUndefined() {
		return 0
	}
	f := vm.toIntegerOrInfinity(v)
	if f < 0 || f > maxSafeInteger {
		vm.throwRangeError("Invalid index")
	}
	return int64(f)
}

// toInt32 is the ECMAScript ToInt32.
func (vm *VM) toInt32(v Value) int32 {
	if v.kind == KindNumber {
		return toInt32(v.num)
	}
	return toInt32(vm.toNumber(v))
}

// toUint32 is the ECMAScript ToUint32.
func (vm *VM) toUint32(v Value) uint32 { return uint32(vm.toInt32(v)) }

// toInt32 converts a float64 with wrap-around modulo 2^32.
func toInt32(f float64) int32 {
	if f >= math.MinInt32 && f <= math.MaxInt32 {
		return int32(f) // truncates toward zero; NaN handled below
	}
	if f != f || math.IsInf(f, 0) {
		return 0
	}
	f = math.Mod(math.Trunc(f), 4294967296)
	if f < 0 {
		f += 4294967296
	}
	return int32(uint32(f))
}

// numberToJSString is Number::toString(10) as a JS string.
func numberToJSString(f float64) *jsString {
	if f >= 0 && f < 10 && f == math.Trunc(f) {
		return smallIntStrings[int(f)]
	}
	return newASCII(numberToString(f))
}

var smallIntStrings = func() [10]*jsString {
	var a [10]*jsString
	for i := range a {
		a[i] = newASCII(strconv.Itoa(i))
	}
	return a
}()

// numberToString is Number::toString(10) (numconv.FormatNumber, with a fast path for
// integers).
func numberToString(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		if f == 0 {
			return "0"
		}
		return strconv.FormatInt(int64(f), 10)
	}
	return numconv.FormatNumber(f)
}

// stringToNumber is StringToNumber (numconv.ParseNumber).
func stringToNumber(s *jsString) float64 {
	if s.Len() == 0 {
		return 0
	}
	return numconv.ParseNumber(s.String())
}

// isJSSpace reports whether r is WhiteSpace or LineTerminator.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// itoa formats n in decimal.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
