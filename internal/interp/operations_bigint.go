package interp

import (
	"math"
	"math/big"

	"github.com/codemode/codemode/internal/interp/bytecode"
	"github.com/codemode/codemode/internal/interp/jsmath"
)

// The operators on BigInts, and the slow paths of the numeric operators that meet one. The
// dispatch loop keeps its number fast paths; only an operand that is not a number comes here.

// newBigIntResult checks that a result of up to nbits bits may be made and charges its
// memory: a RangeError past maxBigIntBits, the memory limit's error when the heap cannot
// hold it.
func (vm *VM) newBigIntResult(nbits int) {
	if nbits > maxBigIntBits {
		vm.throwRangeError("Maximum BigInt size exceeded")
	}
	if nbits > 256 {
		vm.chargeAhead(bigIntBytes(nbits))
	} else {
		vm.allocated += bigIntBytes(nbits)
	}
}

// bigIntWorkSteps is how many words of work count as one step of the dispatch loop.
const bigIntWorkSteps = 16

// chargeBigIntWork counts work (in word operations) as steps. Work above one check
// interval makes the dispatch loop look at its interrupt flags and the memory counter at its
// next instruction, so a loop of huge operations stops promptly at the time limit.
func (vm *VM) chargeBigIntWork(work float64) {
	steps := int64(work / bigIntWorkSteps)
	if steps <= 0 {
		return
	}
	ex := &vm.exec
	ex.steps += steps
	ex.checkAt = 0
	if steps >= memoryCheckInterval {
		ex.steps |= memoryCheckInterval - 1 // the next instruction makes it a multiple
	}
}

// mulWork estimates the word operations of multiplying or dividing numbers of m and n words
// (Karatsuba: about n·m^0.585 for m ≤ n).
func mulWork(m, n int) float64 {
	if m > n {
		m, n = n, m
	}
	if m <= 32 {
		return float64(m) * float64(n)
	}
	return float64(n) * math.Pow(float64(m), 0.585) * 4
}

// bigIntBinary applies a binary arithmetic or bitwise operator to two BigInts.
func (vm *VM) bigIntBinary(op bytecode.Op, a, b Value) Value {
	x, y := a.bigint(), b.bigint()
	wx, wy := bigIntWords(x), bigIntWords(y)
	r := new(big.Int)
	switch op {
	case bytecode.OpAdd, bytecode.OpSub:
		vm.newBigIntResult(max(x.BitLen(), y.BitLen()) + 1)
		vm.chargeBigIntWork(float64(wx + wy))
		if op == bytecode.OpAdd {
			r.Add(x, y)
		} else {
			r.Sub(x, y)
		}
	case bytecode.OpMul:
		if x.Sign() == 0 || y.Sign() == 0 {
			return smallBigInts[0]
		}
		vm.newBigIntResult(x.BitLen() + y.BitLen())
		vm.chargeBigIntWork(mulWork(wx, wy))
		r.Mul(x, y)
	case bytecode.OpDiv, bytecode.OpMod:
		if y.Sign() == 0 {
			vm.throwRangeError("Division by zero")
		}
		vm.newBigIntResult(x.BitLen())
		if wx >= wy {
			vm.chargeBigIntWork(mulWork(wx-wy+1, wy))
		}
		if op == bytecode.OpDiv {
			r.Quo(x, y)
		} else {
			r.Rem(x, y)
		}
	case bytecode.OpExp:
		return vm.bigIntPow(x, y)
	case bytecode.OpBitAnd, bytecode.OpBitOr, bytecode.OpBitXor:
		vm.newBigIntResult(max(x.BitLen(), y.BitLen()) + 1)
		vm.chargeBigIntWork(float64(wx + wy))
		switch op {
		case bytecode.OpBitAnd:
			r.And(x, y)
		case bytecode.OpBitOr:
			r.Or(x, y)
		default:
			r.Xor(x, y)
		}
	case bytecode.OpShl, bytecode.OpShr:
		neg := op == bytecode.OpShr
		if y.Sign() < 0 {
			neg = !neg
		}
		return vm.bigIntShift(x, new(big.Int).Abs(y), neg)
	case bytecode.OpUShr:
		vm.throwTypeError("BigInts have no unsigned right shift, use >> instead")
	}
	return bigIntValue(r)
}

// bigIntShift is x << n (right when right is set) for n ≥ 0; a right shift rounds toward
// negative infinity, as BigInt's >> does.
func (vm *VM) bigIntShift(x, n *big.Int, right bool) Value {
	if x.Sign() == 0 {
		return smallBigInts[0]
	}
	if right {
		if !n.IsInt64() || n.Int64() >= int64(x.BitLen()) {
			if x.Sign() < 0 {
				return bigIntFromInt64(-1)
			}
			return smallBigInts[0]
		}
		vm.chargeBigIntWork(float64(bigIntWords(x)))
		return bigIntValue(new(big.Int).Rsh(x, uint(n.Int64())))
	}
	if !n.IsInt64() || n.Int64() > maxBigIntBits {
		vm.throwRangeError("Maximum BigInt size exceeded")
	}
	s := int(n.Int64())
	vm.newBigIntResult(x.BitLen() + s)
	vm.chargeBigIntWork(float64(bigIntWords(x) + s/64))
	return bigIntValue(new(big.Int).Lsh(x, uint(s)))
}

// bigIntPow is x ** y.
func (vm *VM) bigIntPow(x, y *big.Int) Value {
	if y.Sign() < 0 {
		vm.throwRangeError("undefined must be positive") // V8's wording
	}
	switch {
	case y.Sign() == 0:
		return smallBigInts[1]
	case x.Sign() == 0 || x.Cmp(smallBigInts[1].bigint()) == 0:
		return bigIntValue(x)
	case x.CmpAbs(smallBigInts[1].bigint()) == 0: // -1
		if y.Bit(0) == 0 {
			return smallBigInts[1]
		}
		return bigIntValue(x)
	}
	if !y.IsInt64() || y.Int64() > maxBigIntBits {
		vm.throwRangeError("Maximum BigInt size exceeded")
	}
	e := y.Int64()
	nbits := int64(x.BitLen()-1)*e + 1 // at least this many
	if nbits > maxBigIntBits {
		vm.throwRangeError("Maximum BigInt size exceeded")
	}
	upper := min(int64(x.BitLen())*e, maxBigIntBits)
	vm.chargeAhead(bigIntBytes(int(upper)))
	words := int(upper+63) / 64
	vm.chargeBigIntWork(mulWork(words, words) * 1.5)
	return bigIntValue(new(big.Int).Exp(x, y, nil))
}

// bigIntUnary applies unary minus, ~, ++ or -- to a BigInt.
func (vm *VM) bigIntUnary(op bytecode.Op, v Value) Value {
	x := v.bigint()
	vm.newBigIntResult(x.BitLen() + 1)
	vm.chargeBigIntWork(float64(bigIntWords(x)))
	r := new(big.Int)
	switch op {
	case bytecode.OpNeg:
		if x.Sign() == 0 {
			return v
		}
		r.Neg(x)
	case bytecode.OpBitNot:
		r.Not(x)
	case bytecode.OpInc:
		r.Add(x, smallBigInts[1].bigint())
	case bytecode.OpDec:
		r.Sub(x, smallBigInts[1].bigint())
	}
	return bigIntValue(r)
}

// toNumeric is ToNumeric: a primitive BigInt, or a number.
func (vm *VM) toNumeric(v Value) Value {
	switch v.kind {
	case KindNumber, KindBigInt:
		return v
	case KindObject:
		p := vm.toPrimitive(v, hintNumber)
		if p.kind == KindBigInt {
			return p
		}
		return Number(vm.toNumber(p))
	}
	return Number(vm.toNumber(v))
}

// numericBinary is a binary arithmetic or bitwise operator (not +) when an operand is not a
// number: both operands become numerics; two BigInts compute a BigInt, mixed kinds throw.
func (vm *VM) numericBinary(op bytecode.Op, a, b Value) Value {
	x, y := vm.toNumeric(a), vm.toNumeric(b)
	if x.kind == KindBigInt || y.kind == KindBigInt {
		if x.kind != y.kind {
			vm.throwTypeError("Cannot mix BigInt and other types, use explicit conversions")
		}
		return vm.bigIntBinary(op, x, y)
	}
	return numberBinary(op, x.num, y.num)
}

// numberBinary applies a binary operator other than + to two numbers.
func numberBinary(op bytecode.Op, x, y float64) Value {
	var r float64
	switch op {
	case bytecode.OpSub:
		r = x - y
	case bytecode.OpMul:
		r = x * y
	case bytecode.OpDiv:
		r = x / y
	case bytecode.OpMod:
		r = jsMod(x, y)
	case bytecode.OpExp:
		r = jsmath.Pow(x, y)
	case bytecode.OpAdd:
		r = x + y
	default:
		i, u := toInt32(x), uint32(toInt32(y))
		switch op {
		case bytecode.OpBitAnd:
			r = float64(i & int32(u))
		case bytecode.OpBitOr:
			r = float64(i | int32(u))
		case bytecode.OpBitXor:
			r = float64(i ^ int32(u))
		case bytecode.OpShl:
			r = float64(i << (u & 31))
		case bytecode.OpShr:
			r = float64(i >> (u & 31))
		case bytecode.OpUShr:
			r = float64(uint32(i) >> (u & 31))
		}
	}
	return Number(r)
}

// numericUnary is unary minus, ~, ++ or -- of a value that is not a number.
func (vm *VM) numericUnary(op bytecode.Op, v Value) Value {
	x := vm.toNumeric(v)
	if x.kind == KindBigInt {
		return vm.bigIntUnary(op, x)
	}
	switch op {
	case bytecode.OpNeg:
		return Number(-x.num)
	case bytecode.OpBitNot:
		return Number(float64(^toInt32(x.num)))
	case bytecode.OpInc:
		return Number(x.num + 1)
	}
	return Number(x.num - 1)
}

// bigIntLess is IsLessThan(a, b) for primitives of which one at least is a BigInt; undef is
// set when the comparison is undefined (NaN, or text that is no BigInt).
func (vm *VM) bigIntLess(a, b Value) (lt, undef bool) {
	if a.kind == KindString {
		x, ok := stringToBigInt(a.str())
		if !ok {
			return false, true
		}
		a = bigIntValue(x)
	}
	if b.kind == KindString {
		y, ok := stringToBigInt(b.str())
		if !ok {
			return false, true
		}
		b = bigIntValue(y)
	}
	switch {
	case a.kind == KindBigInt && b.kind == KindBigInt:
		return a.bigint().Cmp(b.bigint()) < 0, false
	case a.kind == KindBigInt:
		c, ok := bigIntCompareNumber(a.bigint(), vm.toNumber(b))
		return ok && c < 0, !ok
	default:
		c, ok := bigIntCompareNumber(b.bigint(), vm.toNumber(a))
		return ok && c > 0, !ok
	}
}
