package interp

import (
	"math"
	"math/bits"

	"github.com/codemode/codemode/internal/interp/jsmath"
)

// The Math namespace object: its constants and functions with ECMAScript semantics for the
// special values (NaN, ±0, ±Infinity), the transcendental functions and pow computed by package
// jsmath as V8 computes them (to the last bit), and Math.random from a seeded xorshift128+
// generator whose state lives in the Math object's slots (plain data, so it is part of
// snapshots).

func init() { registerBuiltin("Math", 10, setupMath) }

// mathRandomState is the internal slot of the Math object: the xorshift128+ state of
// Math.random. A zero state is seeded from Config.RandomSeed on first use.
type mathRandomState struct {
	S0, S1 uint64
}

// setupMath installs the Math object.
func setupMath(r *Realm) {
	m := r.vm.newObject(r.ObjectPrototype, ClassOther)
	m.slots = &mathRandomState{}
	r.addIntrinsic("Math", m)
	fns := []struct {
		name   string
		length int
		fn     NativeFunc
	}{
		{"abs", 1, math1(math.Abs)},
		{"acos", 1, math1(jsmath.Acos)},
		{"acosh", 1, math1(jsmath.Acosh)},
		{"asin", 1, math1(jsmath.Asin)},
		{"asinh", 1, math1(jsmath.Asinh)},
		{"atan", 1, math1(jsmath.Atan)},
		{"atanh", 1, math1(jsmath.Atanh)},
		{"atan2", 2, mathAtan2},
		{"ceil", 1, math1(math.Ceil)},
		{"cbrt", 1, math1(jsmath.Cbrt)},
		{"expm1", 1, math1(jsmath.Expm1)},
		{"clz32", 1, mathClz32},
		{"cos", 1, math1(jsmath.Cos)},
		{"cosh", 1, math1(jsmath.Cosh)},
		{"exp", 1, math1(jsmath.Exp)},
		{"floor", 1, math1(math.Floor)},
		{"fround", 1, math1(func(x float64) float64 { return float64(float32(x)) })},
		{"f16round", 1, math1(f16round)},
		{"hypot", 2, mathHypot},
		{"imul", 2, mathImul},
		{"log", 1, math1(jsmath.Log)},
		{"log1p", 1, math1(jsmath.Log1p)},
		{"log2", 1, math1(jsmath.Log2)},
		{"log10", 1, math1(jsmath.Log10)},
		{"max", 2, mathMax},
		{"min", 2, mathMin},
		{"pow", 2, mathPow},
		{"random", 0, mathRandom},
		{"round", 1, math1(jsRound)},
		{"sign", 1, math1(jsSign)},
		{"sin", 1, math1(jsmath.Sin)},
		{"sinh", 1, math1(jsmath.Sinh)},
		{"sqrt", 1, math1(math.Sqrt)},
		{"sumPrecise", 1, mathSumPrecise},
		{"tan", 1, math1(jsmath.Tan)},
		{"tanh", 1, math1(jsmath.Tanh)},
		{"trunc", 1, math1(math.Trunc)},
	}
	for _, f := range fns {
		r.method(m, f.name, f.length, f.fn)
	}
	for _, c := range []struct {
		name string
		v    float64
	}{
		{"E", math.E}, {"LN10", math.Ln10}, {"LN2", math.Ln2}, {"LOG10E", math.Log10E},
		{"LOG2E", math.Log2E}, {"PI", math.Pi}, {"SQRT1_2", math.Sqrt2 / 2}, {"SQRT2", math.Sqrt2},
	} {
		r.value(m, strKey(c.name), Number(c.v), 0)
	}
	r.value(m, symKey(symToStringTag), asciiValue("Math"), propConfigurable)
	r.defineGlobal("Math", objectValue(m))
}

// math1 adapts a float64 function of one argument (ToNumber of the first argument).
func math1(f func(float64) float64) NativeFunc {
	return func(vm *VM, c NativeCall) Value {
		a := c.Arg(0)
		if a.kind == KindNumber {
			return Number(f(a.num))
		}
		return Number(f(vm.toNumber(a)))
	}
}

// jsRound is Math.round: halves round up (towards +Infinity); -0 and (-0.5, 0) give -0.
func jsRound(x float64) float64 {
	if x != x || math.IsInf(x, 0) || x == math.Trunc(x) {
		return x
	}
	r := math.Floor(x)
	if x-r >= 0.5 {
		r++
	}
	if r == 0 && x < 0 {
		return math.Copysign(0, -1)
	}
	return r
}

// jsSign is Math.sign.
func jsSign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x // NaN, +0, -0
}

// numberArgs converts every argument with ToNumber, in order.
func numberArgs(vm *VM, c *NativeCall) []float64 {
	out := make([]float64, len(c.Args))
	for i, a := range c.Args {
		if a.kind == KindNumber {
			out[i] = a.num
		} else {
			out[i] = vm.toNumber(a)
		}
	}
	return out
}

// mathAtan2 is Math.atan2(y, x).
func mathAtan2(vm *VM, c NativeCall) Value {
	y := vm.toNumber(c.Arg(0))
	x := vm.toNumber(c.Arg(1))
	return Number(jsmath.Atan2(y, x))
}

// mathClz32 is Math.clz32.
func mathClz32(vm *VM, c NativeCall) Value {
	return intValue(bits.LeadingZeros32(vm.toUint32(c.Arg(0))))
}

// mathImul is Math.imul: 32-bit integer multiplication.
func mathImul(vm *VM, c NativeCall) Value {
	a := vm.toUint32(c.Arg(0))
	b := vm.toUint32(c.Arg(1))
	return intValue(int(int32(a * b)))
}

// mathHypot is Math.hypot(...values).
func mathHypot(vm *VM, c NativeCall) Value {
	return Number(jsmath.Hypot(numberArgs(vm, &c)...))
}

// mathMax is Math.max(...values): NaN wins, +0 is larger than -0.
func mathMax(vm *VM, c NativeCall) Value {
	r := math.Inf(-1)
	for _, x := range numberArgs(vm, &c) {
		switch {
		case x != x || r != r:
			r = math.NaN()
		case x > r || (x == 0 && r == 0 && !math.Signbit(x)):
			r = x
		}
	}
	return Number(r)
}

// mathMin is Math.min(...values): NaN wins, -0 is smaller than +0.
func mathMin(vm *VM, c NativeCall) Value {
	r := math.Inf(1)
	for _, x := range numberArgs(vm, &c) {
		switch {
		case x != x || r != r:
			r = math.NaN()
		case x < r || (x == 0 && r == 0 && math.Signbit(x)):
			r = x
		}
	}
	return Number(r)
}

// mathPow is Math.pow(base, exponent).
func mathPow(vm *VM, c NativeCall) Value {
	b := vm.toNumber(c.Arg(0))
	e := vm.toNumber(c.Arg(1))
	return Number(jsmath.Pow(b, e))
}

// seedMathRandom seeds Math.random; the VM constructor calls it with Config.RandomSeed.
func (vm *VM) seedMathRandom(seed uint64) {
	if st := vm.mathState(); st != nil {
		st.seed(seed)
	}
}

// seed initialises the state from seed with splitmix64 (never all zero).
func (st *mathRandomState) seed(seed uint64) {
	next := func() uint64 {
		seed += 0x9E3779B97F4A7C15
		z := seed
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	st.S0, st.S1 = next(), next()
	if st.S0 == 0 && st.S1 == 0 {
		st.S1 = 1
	}
}

// next returns a number in [0, 1) (xorshift128+, 53 random bits).
func (st *mathRandomState) next() float64 {
	if st.S0 == 0 && st.S1 == 0 {
		st.seed(0)
	}
	s1, s0 := st.S0, st.S1
	st.S0 = s0
	s1 ^= s1 << 23
	s1 ^= s1 >> 17
	s1 ^= s0
	s1 ^= s0 >> 26
	st.S1 = s1
	return float64((st.S0+st.S1)>>11) * 0x1p-53
}

// mathRandom is Math.random.
func mathRandom(vm *VM, c NativeCall) Value {
	st := vm.mathState()
	if st == nil {
		vm.throwTypeError("Math.random: no random state")
	}
	if st.S0 == 0 && st.S1 == 0 {
		// first use: seed from Config.RandomSeed
		st.seed(vm.exec.cfg.RandomSeed)
	}
	return Number(st.next())
}

// f16round rounds x to the nearest IEEE 754 binary16 value (ties to even), as a double: 11
// significant bits, exponents down to -14 (below that the spacing of subnormals, 2^-24), and
// infinity from 65520 up.
func f16round(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	a := math.Abs(x)
	_, e := math.Frexp(a) // a = f × 2^e, f in [0.5, 1): its leading bit is 2^(e-1)
	lead := max(e-1, -14)
	quantum := math.Ldexp(1, lead-10)
	r := math.RoundToEven(a/quantum) * quantum
	if r > 65504 {
		r = math.Inf(1)
	}
	return math.Copysign(r, x)
}
