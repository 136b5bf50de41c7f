package interp

import (
	"math"
	"strconv"
)

// Numbers in snapshot JSON: integers (ids, counts, flags) and JavaScript numbers.

// numberText returns the text of the next number.
func (r *jsonReader) numberText() []byte {
	r.peek()
	start := r.pos
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			r.pos++
			continue
		}
		break
	}
	if start == r.pos {
		r.fail("expected a number")
	}
	return r.data[start:r.pos]
}

// float reads a number. The numbers snapshots hold (integers, and decimals of up to 15
// significant digits, the shortest text of most doubles a program computes) are converted
// in one pass without strconv; the rest, and any text outside that simple form, go through
// strconv.ParseFloat.
func (r *jsonReader) float() float64 {
	if r.bin {
		return r.binFloatTok()
	}
	if f, ok := r.fastFloat(); ok {
		return f
	}
	t := r.numberText()
	if r.err != nil {
		return 0
	}
	if f, ok := smallInt(t); ok {
		return f
	}
	f, err := strconv.ParseFloat(string(t), 64)
	if err != nil {
		r.fail("bad number %q", t)
	}
	return f
}

// pow10 holds the powers of ten a float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat converts a number of the form -?digits(.digits)?([eE][+-]?digits)? with at
// most 19 digits whose value as an integer (the digits without the point) is at most 2^53,
// with a decimal exponent within ±22: the integer and the power of ten are both exact
// float64 values, so one multiplication or division gives the correctly rounded result
// (Clinger's fast path). ok is false (and the position unchanged) for any other text.
func (r *jsonReader) fastFloat() (float64, bool) {
	data := r.data
	i := r.pos
	if i >= len(data) {
		return 0, false
	}
	neg := data[i] == '-'
	if neg {
		i++
	}
	start := i
	var mant uint64
	for ; i < len(data); i++ {
		c := data[i] - '0'
		if c > 9 {
			break
		}
		mant = mant*10 + uint64(c)
	}
	digits := i - start
	if digits == 0 || (data[start] == '0' && digits > 1) {
		return 0, false // no digits, or a leading zero (not JSON): the slow path decides
	}
	exp := 0
	if i < len(data) && data[i] == '.' {
		i++
		fracStart := i
		for ; i < len(data); i++ {
			c := data[i] - '0'
			if c > 9 {
				break
			}
			mant = mant*10 + uint64(c)
		}
		if i == fracStart {
			return 0, false
		}
		exp = fracStart - i
		digits += i - fracStart
	}
	if digits > 19 || mant > 1<<53 {
		return 0, false
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		eneg := false
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			eneg = data[i] == '-'
			i++
		}
		estart, e := i, 0
		for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
			if e < 1000 {
				e = e*10 + int(data[i]-'0')
			}
		}
		if i == estart {
			return 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i < len(data) {
		switch data[i] {
		case '+', '-', '.', 'e', 'E':
			return 0, false // malformed: the slow path reports it
		}
	}
	f := float64(mant)
	switch {
	case mant == 0:
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	case exp >= 0 && exp <= 22:
		f *= pow10[exp]
	default:
		return 0, false
	}
	if neg {
		f = -f
	}
	r.pos = i
	return f, true
}

// smallInt converts the text of an integer of at most 15 digits (exact as a float64), without
// a leading zero; ok is false for any other number text.
func smallInt(t []byte) (float64, bool) {
	neg := len(t) > 0 && t[0] == '-'
	if neg {
		t = t[1:]
	}
	if len(t) == 0 || len(t) > 15 || (t[0] == '0' && len(t) > 1) {
		return 0, false
	}
	var v int64
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		if v == 0 {
			return math.Copysign(0, -1), true
		}
		v = -v
	}
	return float64(v), true
}

// int reads an integer.
func (r *jsonReader) int() int64 {
	if r.bin {
		return r.binIntTok()
	}
	r.peek()
	data := r.data
	i := r.pos
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	var v int64
	for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
		if v > math.MaxInt64/10-10 {
			r.fail("bad integer %q", r.numberText())
			return 0
		}
		v = v*10 + int64(data[i]-'0')
	}
	if i == start || (i < len(data) && isNumberByte(data[i])) {
		t := r.numberText()
		if r.err == nil {
			r.fail("bad integer %q", t)
		}
		return 0
	}
	r.pos = i
	if neg {
		v = -v
	}
	return v
}

// isNumberByte reports whether c may occur in the text of a number.
func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
