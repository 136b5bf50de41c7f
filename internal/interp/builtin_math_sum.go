package interp

import (
	"math"
	"math/big"
)

// Math.sumPrecise: the exactly rounded sum of an iterable of numbers. The running sum is a
// big.Float wide enough to hold any sum of doubles exactly, rounded once at the end.

// sumPrecision is the mantissa width that keeps every partial sum exact: doubles span
// 2^-1074 .. 2^1024 (2098 bits) and 2^53 additions add 53 more.
const sumPrecision = 2200

// sumOverflow is the smallest magnitude that rounds to Infinity: halfway between
// Number.MAX_VALUE and 2^1024.
var sumOverflow = func() *big.Float {
	f := new(big.Float).SetPrec(sumPrecision).SetFloat64(math.MaxFloat64)
	return f.Add(f, new(big.Float).SetFloat64(math.Ldexp(1, 970)))
}()

// mathSumPrecise is Math.sumPrecise(items).
func mathSumPrecise(vm *VM, c NativeCall) Value {
	items := c.Arg(0)
	if items.IsNullish() {
		vm.throwTypeError("Math.sumPrecise called on %s", items.kind)
	}
	it := vm.getIterator(items)
	const (
		stMinusZero = iota
		stFinite
		stPlusInf
		stMinusInf
		stNaN
	)
	state := stMinusZero
	sum := new(big.Float).SetPrec(sumPrecision)
	term := new(big.Float).SetPrec(sumPrecision)
	count := int64(0)
	vm.iterate(it, func(v Value) bool {
		count++
		if count >= 1<<53 {
			vm.throwRangeError("Math.sumPrecise: too many values")
		}
		if v.kind != KindNumber {
			vm.throwTypeError("Math.sumPrecise: %s is not a number", vm.describeForError(v))
		}
		n := v.num
		switch {
		case state == stNaN:
		case n != n:
			state = stNaN
		case math.IsInf(n, 1):
			if state == stMinusInf {
				state = stNaN
			} else {
				state = stPlusInf
			}
		case math.IsInf(n, -1):
			if state == stPlusInf {
				state = stNaN
			} else {
				state = stMinusInf
			}
		case state == stMinusZero || state == stFinite:
			if n == 0 && math.Signbit(n) {
				break
			}
			state = stFinite
			sum.Add(sum, term.SetFloat64(n))
		}
		return true
	})
	switch state {
	case stNaN:
		return nanValue
	case stPlusInf:
		return Number(math.Inf(1))
	case stMinusInf:
		return Number(math.Inf(-1))
	case stMinusZero:
		return Number(math.Copysign(0, -1))
	}
	if new(big.Float).Abs(sum).Cmp(sumOverflow) >= 0 {
		return Number(math.Inf(sum.Sign()))
	}
	f, _ := sum.Float64()
	return Number(f)
}
