package numconv

import (
	"math"
	"math/big"
)

var bigTen = big.NewInt(10)

// pow10 returns 10^n as a new big.Int (n >= 0).
func pow10(n int) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

// scaled returns num and den with num/den == f × 10^scale exactly, for finite f > 0.
func scaled(f float64, scale int) (num, den *big.Int) {
	frac, exp := math.Frexp(f)
	mant := uint64(frac * (1 << 53))
	exp -= 53
	num = new(big.Int).SetUint64(mant)
	den = big.NewInt(1)
	if exp >= 0 {
		num.Lsh(num, uint(exp))
	} else {
		den.Lsh(den, uint(-exp))
	}
	if scale >= 0 {
		num.Mul(num, pow10(scale))
	} else {
		den.Mul(den, pow10(-scale))
	}
	return num, den
}

// roundScaled returns round(f × 10^scale) for finite f > 0, computed exactly on the binary value
// of f, with ties rounded up (away from zero), as toFixed/toPrecision/toExponential require
// ("if there are two such n, pick the larger n").
func roundScaled(f float64, scale int) *big.Int {
	num, den := scaled(f, scale)
	// floor((2·num + den) / (2·den)) is num/den rounded half up.
	num.Lsh(num, 1)
	num.Add(num, den)
	den.Lsh(den, 1)
	return num.Quo(num, den)
}

// decimalExponent returns floor(log10(f)) exactly for finite f > 0.
func decimalExponent(f float64) int {
	_, n := shortest(f)
	e := n - 1 // within one of the answer
	for range 4 {
		num, den := scaled(f, -e)
		switch {
		case num.Cmp(new(big.Int).Mul(den, bigTen)) >= 0:
			e++
		case num.Cmp(den) < 0:
			e--
		default:
			return e
		}
	}
	return e
}

// precisionDigits returns the p significant decimal digits of finite f > 0 and the decimal
// exponent e such that f ≈ d.ddd × 10^e, choosing the n × 10^(e-p+1) nearest to f (ties up).
func precisionDigits(f float64, p int) (string, int) {
	e := decimalExponent(f)
	n := roundScaled(f, p-1-e)
	if n.Cmp(pow10(p)) >= 0 {
		// Rounding carried into a new digit: 9.99… became 10.0….
		n.Quo(n, bigTen)
		e++
	}
	return n.String(), e
}
