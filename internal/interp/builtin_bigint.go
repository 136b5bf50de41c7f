package interp

import "math/big"

// The BigInt global: the conversion function (callable, not constructible), BigInt.asIntN and
// BigInt.asUintN, and BigInt.prototype (toString, toLocaleString, valueOf).

func init() { registerBuiltin("BigInt", 10, setupBigInt) }

// setupBigInt installs BigInt and BigInt.prototype.
func setupBigInt(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("BigInt", 1, bigIntConstructor, proto)
	r.method(ctor, "asIntN", 2, bigIntAsIntN)
	r.method(ctor, "asUintN", 2, bigIntAsUintN)
	r.method(proto, "toString", 0, bigIntProtoToString)
	r.method(proto, "toLocaleString", 0, bigIntToLocaleString)
	r.method(proto, "valueOf", 0, bigIntValueOf)
	r.value(proto, symKey(symToStringTag), asciiValue("BigInt"), propConfigurable)
	r.defineGlobal("BigInt", objectValue(ctor))
}

// bigIntConstructor is BigInt(value): integral numbers convert exactly, other values as
// ToBigInt does; new BigInt() throws.
func bigIntConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget != nil {
		vm.throwTypeError("BigInt is not a constructor")
	}
	p := vm.toPrimitive(c.Arg(0), hintNumber)
	if p.kind == KindNumber {
		return vm.numberToBigInt(p.num)
	}
	return vm.toBigInt(p)
}

// bigIntBits reads the bits argument of asIntN/asUintN (ToIndex, V8's message).
func bigIntBits(vm *VM, v Value) int64 {
	if v.IsUndefined() {
		return 0
	}
	f := vm.toIntegerOrInfinity(v)
	if f < 0 || f > maxSafeInteger {
		vm.throwRangeError("Invalid value: not (convertible to) a safe integer")
	}
	return int64(f)
}

// bigIntAsUintN is BigInt.asUintN(bits, bigint): bigint modulo 2^bits.
func bigIntAsUintN(vm *VM, c NativeCall) Value {
	n := bigIntBits(vm, c.Arg(0))
	b := vm.toBigInt(c.Arg(1)).bigint()
	if b.Sign() >= 0 && int64(b.BitLen()) <= n {
		return bigIntValue(b)
	}
	if n > maxBigIntBits {
		vm.throwRangeError("Maximum BigInt size exceeded")
	}
	vm.newBigIntResult(int(n))
	return bigIntValue(bigIntMod2N(b, uint(n)))
}

// bigIntAsIntN is BigInt.asIntN(bits, bigint): bigint modulo 2^bits as a signed integer.
func bigIntAsIntN(vm *VM, c NativeCall) Value {
	n := bigIntBits(vm, c.Arg(0))
	b := vm.toBigInt(c.Arg(1)).bigint()
	if n == 0 {
		return smallBigInts[0]
	}
	if int64(b.BitLen()) < n { // already in [-2^(n-1), 2^(n-1))
		return bigIntValue(b)
	}
	vm.newBigIntResult(int(min(n, maxBigIntBits)))
	m := bigIntMod2N(b, uint(n))
	if m.Bit(int(n-1)) == 1 {
		m.Sub(m, new(big.Int).Lsh(smallBigInts[1].bigint(), uint(n)))
	}
	return bigIntValue(m)
}

// bigIntMod2N is b modulo 2^n, in [0, 2^n).
func bigIntMod2N(b *big.Int, n uint) *big.Int {
	mask := new(big.Int).Lsh(smallBigInts[1].bigint(), n)
	mask.Sub(mask, smallBigInts[1].bigint())
	return new(big.Int).And(b, mask) // And uses two's complement for negative b
}

// thisBigIntValue unwraps this as a BigInt (thisBigIntValue in the spec).
func thisBigIntValue(vm *VM, v Value, method string) Value {
	if v.kind == KindBigInt {
		return v
	}
	if o := v.asObject(); o != nil && o.class == ClassBigInt {
		if b, ok := o.slots.(Value); ok {
			return b
		}
	}
	vm.throwTypeError("%s requires that 'this' be a BigInt", method)
	return undefinedValue
}

// bigIntProtoToString is BigInt.prototype.toString(radix).
func bigIntProtoToString(vm *VM, c NativeCall) Value {
	b := thisBigIntValue(vm, c.This, "BigInt.prototype.toString")
	radix := 10
	if r := c.Arg(0); !r.IsUndefined() {
		f := vm.toIntegerOrInfinity(r)
		if f < 2 || f > 36 {
			vm.throwRangeError("toString() radix argument must be between 2 and 36")
		}
		radix = int(f)
	}
	return stringValue(vm.bigIntToString(b.bigint(), radix))
}

// bigIntToLocaleString is BigInt.prototype.toLocaleString(locales, options): a safe integer
// formats as Number.prototype.toLocaleString formats it (exactly); larger values are their
// decimal text grouped by three with the locale's separator.
func bigIntToLocaleString(vm *VM, c NativeCall) Value {
	b := thisBigIntValue(vm, c.This, "BigInt.prototype.toLocaleString").bigint()
	f := vm.resolveLocaleFormat(c.Arg(0), c.Arg(1))
	if b.IsInt64() && b.Int64() > -1<<53 && b.Int64() < 1<<53 {
		return vm.String(f.format(float64(b.Int64())))
	}
	s := vm.bigIntToString(b, 10).String()
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && f.grouping {
			out = append(out, f.group...)
		}
		out = append(out, s[i])
	}
	return vm.String(string(out))
}

// bigIntValueOf is BigInt.prototype.valueOf.
func bigIntValueOf(vm *VM, c NativeCall) Value {
	return thisBigIntValue(vm, c.This, "BigInt.prototype.valueOf")
}

// bigIntToNumber is the Number nearest to b (Number(bigint)), rounding to even.
func bigIntToNumber(b *big.Int) float64 {
	if b.IsInt64() {
		if i := b.Int64(); i > -1<<53 && i < 1<<53 {
			return float64(i)
		}
	}
	f, _ := new(big.Float).SetInt(b).Float64() // nearest, ties to even; ±Inf beyond the range
	return f
}
