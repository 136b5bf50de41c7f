package interp

import (
	"math"
	"math/big"
	"math/bits"
	"strings"
	"unsafe"
)

// BigInt values
//
// A BigInt is a Value of kind KindBigInt whose ref points to a *big.Int. The big.Int is
// immutable once it is in a Value: every operation makes a new one, so values can share it
// (copies of a Value, snapshots, Map keys) without aliasing surprises.
//
// Size and cost are bounded. A result may not exceed maxBigIntBits (a RangeError, as V8's
// "Maximum BigInt size exceeded"); the memory a result needs is charged before it is
// computed, so that a run near its memory limit ends with MemoryLimitExceeded instead of
// allocating; and the work of an operation on large operands is charged to the step
// counter (chargeBigIntWork) so that the time limit and the step budget see it.

// maxBigIntBits is the largest BigInt a program may make. V8 allows 2^30 bits, but one
// multiplication or decimal conversion of numbers that size runs for minutes without a
// chance to stop: math/big operations cannot be interrupted. At 2^24 bits (2 MiB) the
// slowest single operation (decimal text of the largest value) takes a few seconds.
const maxBigIntBits = 1 << 24

// bigIntValue wraps b, which must not be changed afterwards.
func bigIntValue(b *big.Int) Value { return Value{kind: KindBigInt, ref: unsafe.Pointer(b)} }

// bigint returns the BigInt payload; v must be a BigInt.
func (v Value) bigint() *big.Int { return (*big.Int)(v.ref) }

// IsBigInt reports whether v is a BigInt.
func (v Value) IsBigInt() bool { return v.kind == KindBigInt }

// BigInt returns a BigInt value holding a copy of b.
func BigInt(b *big.Int) Value { return bigIntValue(new(big.Int).Set(b)) }

// BigIntValue returns a copy of the BigInt payload (nil unless v is a BigInt).
func (v Value) BigIntValue() *big.Int {
	if v.kind != KindBigInt {
		return nil
	}
	return new(big.Int).Set(v.bigint())
}

// smallBigInts are the shared values 0n to 16n (common results of comparisons and counters).
var smallBigInts = func() (t [17]Value) {
	for i := range t {
		t[i] = bigIntValue(big.NewInt(int64(i)))
	}
	return
}()

// bigIntFromInt64 returns the BigInt of i.
func bigIntFromInt64(i int64) Value {
	if i >= 0 && i < int64(len(smallBigInts)) {
		return smallBigInts[i]
	}
	return bigIntValue(big.NewInt(i))
}

// bigIntBytes is what a BigInt of n bits holds in memory (the big.Int header and its words).
func bigIntBytes(nbits int) int64 { return 32 + int64((nbits+63)/64)*8 }

// bigIntWords is the number of 64-bit words of |b|.
func bigIntWords(b *big.Int) int { return (b.BitLen() + 63) / 64 }

// bigIntToString is the text of a BigInt in a radix from 2 to 36 (lowercase digits).
func (vm *VM) bigIntToString(b *big.Int, radix int) *jsString {
	n := b.BitLen()
	if n > 64 {
		// the text's length is bounded by the string cap, checked before it is made
		digits := float64(n) / math.Log2(float64(radix))
		if digits+1 > maxStringLength {
			vm.throwRangeError("Invalid string length")
		}
		w := bigIntWords(b)
		vm.chargeBigIntWork(mulWork(w, w) * 2)
	}
	return vm.chargeString(newStringFromGo(b.Text(radix)))
}

// stringToBigInt is StringToBigInt: the BigInt a string's text denotes (decimal, 0x, 0o,
// 0b; surrounding white space; no sign with a prefix; empty text is 0n), ok false when none.
func stringToBigInt(s *jsString) (*big.Int, bool) {
	t := strings.TrimFunc(s.String(), isJSSpace)
	if t == "" {
		return new(big.Int), true
	}
	base := 10
	if len(t) > 2 && t[0] == '0' {
		switch t[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 10 {
			t = t[2:]
		}
	}
	if base == 10 && (t[0] == '+' || t[0] == '-') {
		if len(t) == 1 || t[1] == '+' || t[1] == '-' {
			return nil, false
		}
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if (c == '+' || c == '-') && i == 0 && base == 10 {
			continue
		}
		if digitValue(c) >= base {
			return nil, false
		}
	}
	if len(t)*bits.Len(uint(base-1)) > maxBigIntBits+8 {
		return nil, false
	}
	if base == 10 {
		return parseDecimal(t), true
	}
	r, ok := new(big.Int).SetString(t, base)
	return r, ok
}

// parseDecimal parses validated decimal text (an optional sign, then digits). math/big reads
// decimal text in quadratic time; long text is split in halves and joined with one
// multiplication by a power of ten, which keeps a few million digits to a fraction of a second.
func parseDecimal(s string) *big.Int {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	r := parseDigits(s)
	if neg {
		r.Neg(r)
	}
	return r
}

// parseDigits parses decimal digits, splitting long text (see parseDecimal).
func parseDigits(s string) *big.Int {
	const direct = 4096
	if len(s) <= direct {
		r, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return new(big.Int)
		}
		return r
	}
	n := len(s) / 2
	hi, lo := parseDigits(s[:len(s)-n]), parseDigits(s[len(s)-n:])
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
	return hi.Mul(hi, p).Add(hi, lo)
}

// digitValue is the value of an ASCII digit or letter (36 for anything else).
func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 36
}

// numberToBigInt is NumberToBigInt: a RangeError unless f is an integer.
func (vm *VM) numberToBigInt(f float64) Value {
	if f != math.Trunc(f) || math.IsInf(f, 0) {
		vm.throwRangeError("The number %s cannot be converted to a BigInt because it is not an integer", numberToString(f))
	}
	if f >= math.MinInt64 && f < math.MaxInt64 {
		return bigIntFromInt64(int64(f))
	}
	b, _ := new(big.Float).SetFloat64(f).Int(nil)
	return bigIntValue(b)
}

// toBigInt is the ECMAScript ToBigInt: BigInts, booleans and strings convert; numbers,
// undefined, null and symbols throw a TypeError, unparsable text a SyntaxError.
func (vm *VM) toBigInt(v Value) Value {
	p := vm.toPrimitive(v, hintNumber)
	switch p.kind {
	case KindBigInt:
		return p
	case KindBool:
		return bigIntFromInt64(int64(p.num))
	case KindString:
		b, ok := stringToBigInt(p.str())
		if !ok {
			vm.throwSyntaxError("Cannot convert %s to a BigInt", p.str().String())
		}
		w := bigIntWords(b)
		vm.newBigIntResult(b.BitLen())
		vm.chargeBigIntWork(mulWork(w, w) * 2)
		return bigIntValue(b)
	case KindNumber:
		vm.throwTypeError("Cannot convert %s to a BigInt", numberToString(p.num))
	case KindSymbol:
		vm.throwTypeError("Cannot convert %s to a BigInt", p.sym().descriptiveString())
	}
	vm.throwTypeError("Cannot convert %s to a BigInt", p.kind)
	return undefinedValue
}

// toBigInt64 is the ECMAScript ToBigInt64: ToBigInt modulo 2^64 as a signed integer.
func (vm *VM) toBigInt64(v Value) int64 { return int64(bigIntLow64(vm.toBigInt(v).bigint())) }

// toBigUint64 is the ECMAScript ToBigUint64: ToBigInt modulo 2^64.
func (vm *VM) toBigUint64(v Value) uint64 { return bigIntLow64(vm.toBigInt(v).bigint()) }

// bigIntLow64 is b modulo 2^64 (two's complement for negative b).
func bigIntLow64(b *big.Int) uint64 {
	var u uint64
	if w := b.Bits(); len(w) > 0 {
		u = uint64(w[0])
	}
	if b.Sign() < 0 {
		u = -u
	}
	return u
}

// BigIntFromInt64 and BigIntFromUint64 make the BigInt values of 64-bit integers (for
// typed arrays of 64-bit elements).
func BigIntFromInt64(i int64) Value { return bigIntFromInt64(i) }

// BigIntFromUint64 makes the BigInt value of u.
func BigIntFromUint64(u uint64) Value {
	if u <= math.MaxInt64 {
		return bigIntFromInt64(int64(u))
	}
	return bigIntValue(new(big.Int).SetUint64(u))
}

// bigIntCompareNumber compares a BigInt with a number exactly: -1, 0 or 1; ok is false for
// NaN.
func bigIntCompareNumber(b *big.Int, f float64) (int, bool) {
	switch {
	case f != f:
		return 0, false
	case math.IsInf(f, 1):
		return -1, true
	case math.IsInf(f, -1):
		return 1, true
	}
	return new(big.Float).SetInt(b).Cmp(big.NewFloat(f)), true
}

// bigIntEqualsNumber reports whether a BigInt and a number are the same mathematical value.
func bigIntEqualsNumber(b *big.Int, f float64) bool {
	c, ok := bigIntCompareNumber(b, f)
	return ok && c == 0
}

// parseHexBigInt parses the snapshot form of a BigInt: hexadecimal digits, "-" first when
// negative, no larger than maxBigIntBits.
func parseHexBigInt(s string) (*big.Int, bool) {
	t := strings.TrimPrefix(s, "-")
	if t == "" || len(t) > maxBigIntBits/4+1 {
		return nil, false
	}
	for i := 0; i < len(t); i++ {
		if digitValue(t[i]) >= 16 {
			return nil, false
		}
	}
	return new(big.Int).SetString(s, 16)
}

// bigIntDigits reports whether u is a non-empty run of ASCII decimal digits (the form of a
// BigInt constant).
func bigIntDigits(u []uint16) bool {
	for _, c := range u {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(u) > 0
}
