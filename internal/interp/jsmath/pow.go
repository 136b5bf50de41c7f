// The algorithm and constants below are ported from fdlibm 5.3's e_pow.c (with V8's grouping
// of one division), which carries this notice:
//
// ====================================================
// Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved.
//
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

package jsmath

import "math"

// Pow is x ** y (Math.pow and the exponentiation operator).
//
// Method: write x = 2^n × (1+f); compute log2(x) in two pieces t1+t2, where t1 has 29
// trailing zero bits; compute y × log2(x) = m + y' exactly enough, with |y'| <= 0.5, by
// splitting y the same way; and return 2^m × exp(y' × ln 2). The result is "nearly rounded";
// pow(integer, integer) is exact whenever the result is representable.
//
// The special cases are ECMAScript's (Number::exponentiate), which fdlibm's already are:
// 1 ** ±Infinity and 1 ** NaN are NaN, as JavaScript requires and C99 does not. Like V8, the
// final step groups one division differently from fdlibm (see exp2Split), which changes the
// last bit of about one result in forty.
func Pow(x, y float64) float64 {
	hx, lx := words(x)
	hy, ly := words(y)
	ix, iy := hx&0x7fffffff, hy&0x7fffffff

	if iy == 0 && ly == 0 { // x ** ±0 is 1, even for NaN
		return 1
	}
	if x != x || y != y {
		return x + y
	}
	yisint := 0
	if hx < 0 {
		yisint = integerKind(iy, ly)
	}
	if ly == 0 {
		if r, ok := powSpecialExponent(x, y, hx, ix, lx, hy, iy); ok {
			return r
		}
	}
	if lx == 0 && (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000) {
		return powSpecialBase(x, hx, ix, hy, yisint)
	}
	if hx < 0 && yisint == 0 { // negative ** non-integer
		return math.NaN()
	}
	s := 1.0 // the sign of the result: negative ** odd integer is negative
	if hx < 0 && yisint == 1 {
		s = -1
	}

	var t1, t2 float64   // log2|x| = t1 + t2
	if iy > 0x41e00000 { // |y| > 2^31
		if r, ok := powHugeExponent(s, ix, hy, iy); ok {
			return r
		}
		t1, t2 = log2NearOne(math.Abs(x))
	} else {
		t1, t2 = log2Split(math.Abs(x), ix)
	}

	// y × log2|x| = p_h + p_l, with y split into y1 (21 significant bits) + (y - y1).
	y1 := withLowWord(y, 0)
	pl := float64((y-y1)*t1) + float64(y*t2)
	ph := float64(y1 * t1)
	z := pl + ph
	j, i := words(z)
	if j >= 0x40900000 { // z >= 1024
		if j != 0x40900000 || i != 0 || pl+powOvt > z-ph {
			return float64(s * math.Inf(1))
		}
	} else if j&0x7fffffff >= 0x4090cc00 { // z <= -1075
		if uint32(j) != 0xc090cc00 || i != 0 || pl <= z-ph {
			return float64(s * 0)
		}
	}
	return float64(s * exp2Split(ph, pl, j))
}

// Constants of Pow.
const (
	powOvt = 8.0085662595372944372e-17 // -(1024-log2(ovfl+.5ulp))
	two53  = 9007199254740992.0        // 0x43400000, 0x00000000
)

// integerKind classifies y (from the high word of |y| and its low word) for a negative base:
// 0 if y is not an integer, 1 if it is an odd integer, 2 if an even integer.
func integerKind(iy int32, ly uint32) int {
	switch {
	case iy >= 0x43400000: // |y| >= 2^53: an even integer
		return 2
	case iy < 0x3ff00000: // |y| < 1
		return 0
	}
	k := uint(iy>>20) - 0x3ff // the exponent, 0..52
	if k > 20 {
		j := ly >> (52 - k)
		if j<<(52-k) == ly {
			return 2 - int(j&1)
		}
	} else if ly == 0 {
		j := iy >> (20 - k)
		if j<<(20-k) == iy {
			return 2 - int(j&1)
		}
	}
	return 0
}

// powSpecialExponent handles y = ±Infinity, ±1, 2 and 0.5 (the low word of y is zero);
// ok is false for any other y.
func powSpecialExponent(x, y float64, hx, ix int32, lx uint32, hy, iy int32) (float64, bool) {
	switch {
	case iy == 0x7ff00000: // y is ±Infinity
		switch {
		case ix == 0x3ff00000 && lx == 0: // (±1) ** ±Infinity is NaN
			return y - y, true
		case ix >= 0x3ff00000: // (|x| > 1) ** ±Infinity is Infinity, 0
			if hy >= 0 {
				return y, true
			}
			return 0, true
		default: // (|x| < 1) ** ±Infinity is 0, Infinity
			if hy < 0 {
				return -y, true
			}
			return 0, true
		}
	case iy == 0x3ff00000: // y is ±1
		if hy < 0 {
			return 1 / x, true
		}
		return x, true
	case hy == 0x40000000: // y is 2
		return float64(x * x), true
	case hy == 0x3fe00000 && hx >= 0: // y is 0.5 and x >= +0
		return math.Sqrt(x), true
	}
	return 0, false
}

// powSpecialBase handles x = ±0, ±Infinity and ±1.
func powSpecialBase(x float64, hx, ix, hy int32, yisint int) float64 {
	z := math.Abs(x)
	if hy < 0 {
		z = 1 / z
	}
	if hx < 0 {
		if ix == 0x3ff00000 && yisint == 0 { // (-1) ** non-integer is NaN
			return math.NaN()
		}
		if yisint == 1 { // (negative) ** odd = -(|x| ** odd)
			z = -z
		}
	}
	return z
}

// powHugeExponent handles |y| > 2^31: the result over- or underflows to s × Infinity or s × 0
// unless |x| is within 2^-20 of 1 (ok is false then; above 2^64 only x = ±1 is spared, and
// it was handled before).
func powHugeExponent(s float64, ix, hy, iy int32) (r float64, ok bool) {
	var small bool // |x| < 1; else |x| > 1
	switch {
	case ix < 0x3fefffff || iy > 0x43f00000 && ix == 0x3fefffff:
		small = true
	case ix > 0x3ff00000 || iy > 0x43f00000:
		small = false
	default:
		return 0, false
	}
	if small == (hy < 0) { // small ** -huge or big ** +huge
		return float64(s * math.Inf(1)), true
	}
	return float64(s * 0), true
}

// log2NearOne is log2(ax) in two pieces for ax within 2^-20 of 1, from the series
// t - t²/2 + t³/3 - t⁴/4 with t = ax - 1.
func log2NearOne(ax float64) (t1, t2 float64) {
	const (
		ivln2   = 1.44269504088896338700e+00 // 0x3FF71547, 0x652B82FE = 1/ln2
		ivln2_h = 1.44269502162933349609e+00 // 0x3FF71547, 0x60000000 = 24b 1/ln2
		ivln2_l = 1.92596299112661746887e-08 // 0x3E54AE0B, 0xF85DDF44 = 1/ln2 tail
	)
	t := ax - 1 // t has 20 trailing zeros
	w := float64(float64(t*t) * (0.5 - float64(t*(0.3333333333333333333333-float64(t*0.25)))))
	u := float64(ivln2_h * t) // ivln2_h has 21 significant bits
	v := float64(t*ivln2_l) - float64(w*ivln2)
	t1 = withLowWord(u+v, 0)
	t2 = v - (t1 - u)
	return t1, t2
}

// Constants of log2Split.
var (
	powBp  = [2]float64{1.0, 1.5}
	powDpH = [2]float64{0.0, 5.84962487220764160156e-01} // 0x3FE2B803, 0x40000000
	powDpL = [2]float64{0.0, 1.35003920212974897128e-08} // 0x3E4CFDEB, 0x43CFD006
)

// log2Split is log2(ax) = t1 + t2 for any positive finite ax, where ix is its high word.
func log2Split(ax float64, ix int32) (t1, t2 float64) {
	const (
		// polynomial coefficients for (3/2)*(log(x)-2s-2/3*s**3)
		L1   = 5.99999999999994648725e-01  // 0x3FE33333, 0x33333303
		L2   = 4.28571428578550184252e-01  // 0x3FDB6DB6, 0xDB6FABFF
		L3   = 3.33333329818377432918e-01  // 0x3FD55555, 0x518F264D
		L4   = 2.72728123808534006489e-01  // 0x3FD17460, 0xA91D4101
		L5   = 2.30660745775561754067e-01  // 0x3FCD864A, 0x93C9DB65
		L6   = 2.06975017800338417784e-01  // 0x3FCA7E28, 0x4A454EEF
		cp   = 9.61796693925975554329e-01  // 0x3FEEC709, 0xDC3A03FD = 2/(3ln2)
		cp_h = 9.61796700954437255859e-01  // 0x3FEEC709, 0xE0000000 = (float)cp
		cp_l = -7.02846165095275826516e-09 // 0xBE3E2FE0, 0x145B01F5 = tail of cp_h
	)
	n := int32(0)
	if ix < 0x00100000 { // subnormal: scale up
		ax *= two53
		n -= 53
		ix = highWord(ax)
	}
	n += ix>>20 - 0x3ff
	j := ix & 0x000fffff
	// Normalise the mantissa m into [sqrt(2)/2... ) by the interval it falls in:
	// k = 0 for m < sqrt(3/2), k = 1 (divide by 1.5) for m < sqrt(3), else halve it.
	ix = j | 0x3ff00000
	k := 0
	switch {
	case j <= 0x3988E:
	case j < 0xBB67A:
		k = 1
	default:
		n++
		ix -= 0x00100000
	}
	ax = withHighWord(ax, ix)

	// ss = s_h + s_l = (x-1)/(x+1) or (x-1.5)/(x+1.5)
	u := ax - powBp[k]
	v := 1 / (ax + powBp[k])
	ss := float64(u * v)
	sh := withLowWord(ss, 0)
	// t_h = ax + bp[k], high part
	th := fromWords((ix>>1|0x20000000)+0x00080000+int32(k)<<18, 0)
	tl := ax - (th - powBp[k])
	sl := float64(v * ((u - float64(sh*th)) - float64(sh*tl)))
	// log(ax)
	s2 := float64(ss * ss)
	r := float64(float64(s2*s2) * (L1 + float64(s2*(L2+float64(s2*(L3+float64(s2*(L4+float64(s2*(L5+float64(s2*L6)))))))))))
	r += float64(sl * (sh + ss))
	s2 = float64(sh * sh)
	th = withLowWord(3.0+s2+r, 0)
	tl = r - ((th - 3.0) - s2)
	// u+v = ss*(1+...)
	u = float64(sh * th)
	v = float64(sl*th) + float64(tl*ss)
	// 2/(3log2)*(ss+...)
	ph := withLowWord(u+v, 0)
	pl := v - (ph - u)
	zh := float64(cp_h * ph) // cp_h+cp_l = 2/(3*log2)
	zl := float64(cp_l*ph) + float64(pl*cp) + powDpL[k]
	// log2(ax) = (ss+..)*2/(3*log2) = n + dp_h + z_h + z_l
	t := float64(n)
	t1 = withLowWord(((zh+zl)+powDpH[k])+t, 0)
	t2 = zl - (((t1 - t) - powDpH[k]) - zh)
	return t1, t2
}

// exp2Split is 2^(ph+pl), where j is the high word of ph+pl (known not to over- or
// underflow beyond what the final scaling handles).
func exp2Split(ph, pl float64, j int32) float64 {
	const (
		P1    = 1.66666666666666019037e-01  // 0x3FC55555, 0x5555553E
		P2    = -2.77777777770155933842e-03 // 0xBF66C16C, 0x16BEBD93
		P3    = 6.61375632143793436117e-05  // 0x3F11566A, 0xAF25DE2C
		P4    = -1.65339022054652515390e-06 // 0xBEBBBD41, 0xC5D26BF1
		P5    = 4.13813679705723846039e-08  // 0x3E663769, 0x72BEA4D0
		lg2   = 6.93147180559945286227e-01  // 0x3FE62E42, 0xFEFA39EF
		lg2_h = 6.93147182464599609375e-01  // 0x3FE62E43, 0x00000000
		lg2_l = -1.90465429995776804525e-09 // 0xBE205C61, 0x0CA86C39
	)
	// Take the integer n nearest ph+pl out of ph.
	i := j & 0x7fffffff
	n := int32(0)
	if i > 0x3fe00000 { // |z| > 0.5: n = [z+0.5]
		k := i>>20 - 0x3ff
		n = j + 0x00100000>>uint(k+1)
		k = (n&0x7fffffff)>>20 - 0x3ff // new k for n
		t := fromWords(n&^(0x000fffff>>uint(k)), 0)
		n = (n&0x000fffff | 0x00100000) >> uint(20-k)
		if j < 0 {
			n = -n
		}
		ph -= t
	}
	t := withLowWord(pl+ph, 0)
	u := float64(t * lg2_h)
	v := float64((pl-(t-ph))*lg2) + float64(t*lg2_l)
	z := u + v
	w := v - (z - u)
	t = float64(z * z)
	t1 := z - float64(t*(P1+float64(t*(P2+float64(t*(P3+float64(t*(P4+float64(t*P5)))))))))
	// fdlibm has r = (z*t1)/(t1-2) - (w + z*w). V8 divides by the whole difference instead,
	// which changes the last bit of about one result in forty; Math.pow must match V8.
	r := float64(z*t1) / ((t1 - 2) - (w + float64(z*w)))
	z = 1 - (r - z)
	hz := highWord(z) + n<<20
	if hz>>20 <= 0 {
		return math.Ldexp(z, int(n)) // subnormal result
	}
	return withHighWord(z, hz)
}
