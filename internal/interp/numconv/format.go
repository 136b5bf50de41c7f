package numconv

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// shortest returns the shortest decimal digits that round-trip to f (f finite and > 0) and the
// decimal exponent n such that f ≈ 0.digits × 10^n (the "n" of Number::toString).
func shortest(f float64) (digits string, n int) {
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddddde±xx
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	digits = strings.Replace(mant, ".", "", 1)
	return digits, e + 1
}

// FormatNumber returns Number::toString(f) in radix 10: the shortest digits that round-trip,
// plain notation for 1e-7 <= |f| < 1e21 and exponent notation ("1e+21", "1.5e-7") outside it.
// NaN gives "NaN", infinities "Infinity"/"-Infinity", and both zeros "0".
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case f == 0:
		return "0"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	var buf [40]byte
	return string(AppendNumber(buf[:0], f))
}

// AppendNumber appends FormatNumber(f) to b and returns the extended slice; it allocates only
// when b lacks room (at most 25 bytes are appended).
func AppendNumber(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case f == 0:
		return append(b, '0')
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	case f < 0:
		b = append(b, '-')
		f = -f
	}
	// Shortest round-trip digits as d.ddde±x, without allocating.
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	var digits [17]byte
	k := 0
	i := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits[k] = e[i]
			k++
		}
	}
	exp := 0
	neg := e[i+1] == '-'
	for _, c := range e[i+2:] {
		exp = exp*10 + int(c-'0')
	}
	if neg {
		exp = -exp
	}
	s := digits[:k]
	n := exp + 1
	switch {
	case k <= n && n <= 21:
		b = append(b, s...)
		for range n - k {
			b = append(b, '0')
		}
	case 0 < n && n <= 21:
		b = append(b, s[:n]...)
		b = append(b, '.')
		b = append(b, s[n:]...)
	case -6 < n && n <= 0:
		b = append(b, "0."...)
		for range -n {
			b = append(b, '0')
		}
		b = append(b, s...)
	default:
		b = append(b, s[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, s[1:]...)
		}
		b = append(b, 'e')
		if n-1 < 0 {
			b = append(b, '-')
		} else {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(abs(n-1)), 10)
	}
	return b
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// writeExponent appends "e+E" or "e-E".
func writeExponent(b *strings.Builder, e int) {
	b.WriteByte('e')
	if e < 0 {
		b.WriteByte('-')
		e = -e
	} else {
		b.WriteByte('+')
	}
	b.WriteString(strconv.Itoa(e))
}

// nonFinite returns the spelling of NaN and the infinities, and false for finite f.
func nonFinite(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		return "NaN", true
	case math.IsInf(f, 1):
		return "Infinity", true
	case math.IsInf(f, -1):
		return "-Infinity", true
	}
	return "", false
}

// ToFixed returns Number.prototype.toFixed(digits) of f.
//
// Precondition: 0 <= digits <= 100; digits outside that range are clamped. The result is the
// exactly rounded value (ties away from zero on the exact binary value, so 1.005 gives "1.00"),
// and |f| >= 1e21 falls back to FormatNumber as the specification says.
func ToFixed(f float64, digits int) string {
	digits = clamp(digits, 0, 100)
	if s, ok := nonFinite(f); ok {
		return s
	}
	if math.Abs(f) >= 1e21 {
		return FormatNumber(f)
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	m := "0"
	if f != 0 {
		m = roundScaled(f, digits).String()
	}
	if digits == 0 {
		return sign + m
	}
	if len(m) <= digits {
		m = strings.Repeat("0", digits+1-len(m)) + m
	}
	cut := len(m) - digits
	return sign + m[:cut] + "." + m[cut:]
}

// ToExponential returns Number.prototype.toExponential(digits) of f.
//
// digits is the number of digits after the point, 0..100; -1 means "as many as needed to
// represent f uniquely" (the argument was undefined). Values below -1 are treated as -1 and
// values above 100 as 100.
func ToExponential(f float64, digits int) string {
	digits = clamp(digits, -1, 100)
	if s, ok := nonFinite(f); ok {
		return s
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	var m string
	var e int
	switch {
	case f == 0:
		if digits < 0 {
			digits = 0
		}
		m = strings.Repeat("0", digits+1)
	case digits < 0:
		var n int
		m, n = shortest(f)
		e = n - 1
	default:
		m, e = precisionDigits(f, digits+1)
	}
	var b strings.Builder
	b.WriteString(sign)
	b.WriteByte(m[0])
	if len(m) > 1 {
		b.WriteByte('.')
		b.WriteString(m[1:])
	}
	writeExponent(&b, e)
	return b.String()
}

// ToPrecision returns Number.prototype.toPrecision(p) of f.
//
// Precondition: 1 <= p <= 100; p outside that range is clamped. Exponent notation is used when
// the decimal exponent is below -6 or at least p, as the specification says.
func ToPrecision(f float64, p int) string {
	p = clamp(p, 1, 100)
	if s, ok := nonFinite(f); ok {
		return s
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	var m string
	var e int
	if f == 0 {
		m = strings.Repeat("0", p)
	} else {
		m, e = precisionDigits(f, p)
	}
	var b strings.Builder
	b.WriteString(sign)
	switch {
	case e < -6 || e >= p:
		b.WriteByte(m[0])
		if p > 1 {
			b.WriteByte('.')
			b.WriteString(m[1:])
		}
		writeExponent(&b, e)
	case e == p-1:
		b.WriteString(m)
	case e >= 0:
		b.WriteString(m[:e+1])
		b.WriteByte('.')
		b.WriteString(m[e+1:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -(e + 1)))
		b.WriteString(m)
	}
	return b.String()
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

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
