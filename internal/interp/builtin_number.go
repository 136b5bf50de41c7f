package interp

import (
	"math"

	"github.com/codemode/codemode/internal/interp/numconv"
)

// The Number global: the constructor (a conversion when called), the constants and
// predicates, Number.parseInt/parseFloat (the same function objects as the globals), and
// Number.prototype's formatting methods on top of numconv.

func init() { registerBuiltin("Number", 10, setupNumber) }

// setupNumber installs Number and Number.prototype.
func setupNumber(r *Realm) {
	// Number.prototype is itself a Number object whose [[NumberData]] is +0.
	proto := r.vm.newObject(r.ObjectPrototype, ClassNumber)
	proto.slots = zeroValue
	ctor := r.newConstructor("Number", 1, numberConstructor, proto)
	r.method(ctor, "isFinite", 1, numberIsFinite)
	r.method(ctor, "isInteger", 1, numberIsInteger)
	r.method(ctor, "isNaN", 1, numberIsNaN)
	r.method(ctor, "isSafeInteger", 1, numberIsSafeInteger)
	for _, name := range []string{"parseFloat", "parseInt"} {
		if f := lookupDataProperty(r.Global, strKey(name)); f.kind == KindObject {
			r.value(ctor, strKey(name), f, propHidden)
		}
	}
	for _, c := range []struct {
		name string
		v    float64
	}{
		{"MAX_VALUE", math.MaxFloat64},
		{"MIN_VALUE", 5e-324},
		{"NaN", math.NaN()},
		{"NEGATIVE_INFINITY", math.Inf(-1)},
		{"POSITIVE_INFINITY", math.Inf(1)},
		{"MAX_SAFE_INTEGER", maxSafeInteger},
		{"MIN_SAFE_INTEGER", -maxSafeInteger},
		{"EPSILON", 0x1p-52},
	} {
		r.value(ctor, strKey(c.name), Number(c.v), 0)
	}
	r.method(proto, "toExponential", 1, numberToExponential)
	r.method(proto, "toFixed", 1, numberToFixed)
	r.method(proto, "toPrecision", 1, numberToPrecision)
	r.method(proto, "toString", 1, numberProtoToString)
	r.method(proto, "valueOf", 0, numberValueOf)
	r.method(proto, "toLocaleString", 0, numberToLocaleString)
	r.defineGlobal("Number", objectValue(ctor))
}

// numberConstructor is Number(value): ToNumber when called (0 without an argument), a
// wrapper object when constructed.
func numberConstructor(vm *VM, c NativeCall) Value {
	n := zeroValue
	if len(c.Args) > 0 {
		if p := vm.toNumeric(c.Args[0]); p.kind == KindBigInt {
			n = Number(bigIntToNumber(p.bigint()))
		} else {
			n = p
		}
	}
	if c.NewTarget == nil {
		return n
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "Number.prototype", ClassNumber)
	o.slots = n
	return objectValue(o)
}

// numberIsFinite is Number.isFinite (no coercion).
func numberIsFinite(vm *VM, c NativeCall) Value {
	v := c.Arg(0)
	return Bool(v.kind == KindNumber && !math.IsNaN(v.num) && !math.IsInf(v.num, 0))
}

// isIntegralNumber reports whether v is a finite number with no fractional part.
func isIntegralNumber(v Value) bool {
	return v.kind == KindNumber && !math.IsInf(v.num, 0) && v.num == math.Trunc(v.num)
}

// numberIsInteger is Number.isInteger.
func numberIsInteger(vm *VM, c NativeCall) Value { return Bool(isIntegralNumber(c.Arg(0))) }

// numberIsNaN is Number.isNaN (no coercion).
func numberIsNaN(vm *VM, c NativeCall) Value {
	v := c.Arg(0)
	return Bool(v.kind == KindNumber && v.num != v.num)
}

// numberIsSafeInteger is Number.isSafeInteger.
func numberIsSafeInteger(vm *VM, c NativeCall) Value {
	v := c.Arg(0)
	return Bool(isIntegralNumber(v) && math.Abs(v.num) <= maxSafeInteger)
}

// thisNumberValue unwraps this as a number (thisNumberValue in the spec).
func thisNumberValue(vm *VM, v Value, method string) float64 {
	if v.kind == KindNumber {
		return v.num
	}
	if o := v.asObject(); o != nil && o.class == ClassNumber {
		if n, ok := o.slots.(Value); ok {
			return n.num
		}
	}
	vm.throwTypeError("%s requires that 'this' be a Number", method)
	return 0
}

// numberValueOf is Number.prototype.valueOf.
func numberValueOf(vm *VM, c NativeCall) Value {
	return Number(thisNumberValue(vm, c.This, "Number.prototype.valueOf"))
}

// numberProtoToString is Number.prototype.toString(radix).
func numberProtoToString(vm *VM, c NativeCall) Value {
	x := thisNumberValue(vm, c.This, "Number.prototype.toString")
	radix := 10.0
	if r := c.Arg(0); !r.IsUndefined() {
		radix = vm.toIntegerOrInfinity(r)
	}
	if radix < 2 || radix > 36 {
		vm.throwRangeError("toString() radix argument must be between 2 and 36")
	}
	if radix == 10 {
		return stringValue(numberToJSString(x))
	}
	return asciiValue(numconv.FormatRadix(x, int(radix)))
}

// numberToFixed is Number.prototype.toFixed(digits).
func numberToFixed(vm *VM, c NativeCall) Value {
	x := thisNumberValue(vm, c.This, "Number.prototype.toFixed")
	f := vm.toIntegerOrInfinity(c.Arg(0))
	if f < 0 || f > 100 {
		vm.throwRangeError("toFixed() digits argument must be between 0 and 100")
	}
	return asciiValue(numconv.ToFixed(x, int(f)))
}

// numberToExponential is Number.prototype.toExponential(digits).
func numberToExponential(vm *VM, c NativeCall) Value {
	x := thisNumberValue(vm, c.This, "Number.prototype.toExponential")
	d := c.Arg(0)
	f := vm.toIntegerOrInfinity(d)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return stringValue(numberToJSString(x))
	}
	if f < 0 || f > 100 {
		vm.throwRangeError("toExponential() argument must be between 0 and 100")
	}
	digits := int(f)
	if d.IsUndefined() {
		digits = -1
	}
	return asciiValue(numconv.ToExponential(x, digits))
}

// numberToPrecision is Number.prototype.toPrecision(precision).
func numberToPrecision(vm *VM, c NativeCall) Value {
	x := thisNumberValue(vm, c.This, "Number.prototype.toPrecision")
	p := c.Arg(0)
	if p.IsUndefined() {
		return stringValue(numberToJSString(x))
	}
	f := vm.toIntegerOrInfinity(p)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return stringValue(numberToJSString(x))
	}
	if f < 1 || f > 100 {
		vm.throwRangeError("toPrecision() argument must be between 1 and 100")
	}
	return asciiValue(numconv.ToPrecision(x, int(f)))
}

// numberToLocaleString is Number.prototype.toLocaleString(locales, options) as node's
// en-US format (see builtin_number_locale.go): at most three fraction digits by default and
// comma grouping, "∞" for infinities.
func numberToLocaleString(vm *VM, c NativeCall) Value {
	x := thisNumberValue(vm, c.This, "Number.prototype.toLocaleString")
	f := vm.resolveLocaleFormat(c.Arg(0), c.Arg(1))
	return asciiValue(f.format(x))
}

// formatLocaleNumber formats x like new Intl.NumberFormat("en-US").format(x).
func formatLocaleNumber(x float64) string {
	f := localeFormat{maxFrac: 3, minInt: 1, grouping: true, group: ",", decimal: "."}
	return f.format(x)
}
