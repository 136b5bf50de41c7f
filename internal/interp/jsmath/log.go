// The algorithms and constants below are ported from fdlibm 5.3's e_log.c, s_log1p.c and
// e_log10.c and from FreeBSD msun's e_log2.c and k_log.h (fdlibm's method, reworked by Bruce
// D. Evans), which carry this notice:
//
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

package jsmath

import "math"

// Coefficients of the polynomial R(s²) ≈ (log(1+f) - 2s)/s, s = f/(2+f), on [0, 0.1716]
// (error below 2^-58.45), shared by all the logarithms.
const (
	lg1 = 6.666666666666735130e-01 // 3FE55555 55555593
	lg2 = 3.999999999940941908e-01 // 3FD99999 9997FA04
	lg3 = 2.857142874366239149e-01 // 3FD24924 94229359
	lg4 = 2.222219843214978396e-01 // 3FCC71C5 1D8E78AF
	lg5 = 1.818357216161805012e-01 // 3FC74664 96CB03DE
	lg6 = 1.531383769920937332e-01 // 3FC39A09 D078C69F
	lg7 = 1.479819860511658591e-01 // 3FC2F112 DF3E5244

	two54 = 1.80143985094819840000e+16 // 0x43500000, 0x00000000
)

// logSpecial handles the arguments of a logarithm outside the positive normal numbers: it
// returns the result for 0, negative numbers, NaN and +Infinity (done), or scales a positive
// subnormal x up by 2^54 and returns the scale's exponent (-54), else 0.
func logSpecial(x float64) (r float64, k int32, done bool) {
	hx, lx := words(x)
	if hx < 0x00100000 { // x < 2^-1022
		if hx&0x7fffffff == 0 && lx == 0 { // log(±0) = -Infinity
			return math.Inf(-1), 0, true
		}
		if hx < 0 { // log(negative) = NaN
			return math.NaN(), 0, true
		}
		return float64(x * two54), -54, false // subnormal: scale up
	}
	if hx >= 0x7ff00000 { // +Infinity or NaN
		return x + x, 0, true
	}
	return x, 0, false
}

// logReduce writes a positive normal x as 2^k × (1+f) with sqrt(2)/2 < 1+f < sqrt(2),
// returning 1+f and k (plus k0, the exponent of an earlier scaling). hx is 1+f's mantissa
// bits in the high word, which callers use to pick a formula.
func logReduce(x float64, k0 int32) (m float64, k, hx int32) {
	hx = highWord(x)
	k = k0 + hx>>20 - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	m = withHighWord(x, hx|(i^0x3ff00000)) // normalise x or x/2
	k += i >> 20
	return m, k, hx
}

// Log is Math.log, the natural logarithm.
//
// Method: reduce x to 2^k × (1+f) with sqrt(2)/2 < 1+f < sqrt(2); with s = f/(2+f),
// log(1+f) = 2s + s×R(s²) where R is a degree-14 polynomial; log(x) = k×ln2 + log(1+f),
// with ln2 split in two so that k×ln2_hi is exact. The error is below 1 ulp.
func Log(x float64) float64 {
	const (
		ln2_hi = 6.93147180369123816490e-01 // 3fe62e42 fee00000
		ln2_lo = 1.90821492927058770002e-10 // 3dea39ef 35793c76
	)
	x, k, done := logSpecial(x)
	if done {
		return x
	}
	x, k, hx := logReduce(x, k)
	f := x - 1.0
	dk := float64(k)
	if 0x000fffff&(2+hx) < 3 { // -2^-20 <= f < 2^-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			return float64(dk*ln2_hi) + float64(dk*ln2_lo)
		}
		R := float64(float64(f*f) * (0.5 - float64(0.33333333333333333*f)))
		if k == 0 {
			return f - R
		}
		return float64(dk*ln2_hi) - ((R - float64(dk*ln2_lo)) - f)
	}
	s := f / (2.0 + f)
	z := float64(s * s)
	w := float64(z * z)
	t1 := float64(w * (lg2 + float64(w*(lg4+float64(w*lg6)))))
	t2 := float64(z * (lg1 + float64(w*(lg3+float64(w*(lg5+float64(w*lg7)))))))
	R := t2 + t1
	if (hx-0x6147a)|(0x6b851-hx) > 0 { // 1+f far from 1: the more accurate formula
		hfsq := float64(float64(0.5*f) * f)
		if k == 0 {
			return f - (hfsq - float64(s*(hfsq+R)))
		}
		return float64(dk*ln2_hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(dk*ln2_lo))) - f)
	}
	if k == 0 {
		return f - float64(s*(f-R))
	}
	return float64(dk*ln2_hi) - ((float64(s*(f-R)) - float64(dk*ln2_lo)) - f)
}

// Log1p is Math.log1p: log(1 + x), accurate for x near 0.
//
// Method: as Log, applied to u = 1+x rounded, with a correction term c = (1+x-u)/u for the
// rounding of u (log(1+x) = log(u) + c), and x itself for f when 1+x is already within
// [sqrt(2)/2, sqrt(2)]. The error is below 1 ulp.
func Log1p(x float64) float64 {
	const (
		ln2_hi = 6.93147180369123816490e-01 // 3fe62e42 fee00000
		ln2_lo = 1.90821492927058770002e-10 // 3dea39ef 35793c76
	)
	hx := highWord(x)
	ax := hx & 0x7fffffff

	var f, c float64
	k, hu := int32(1), int32(0)
	if hx < 0x3FDA827A { // x < 0.41422
		if ax >= 0x3ff00000 { // x <= -1
			if x == -1 {
				return math.Inf(-1)
			}
			return math.NaN()
		}
		if ax < 0x3e200000 { // |x| < 2^-29
			if ax < 0x3c900000 { // |x| < 2^-54
				return x
			}
			return x - float64(float64(x*x)*0.5)
		}
		if hx > 0 || hx <= -0x402d413d { // -0.2929 < x < 0.41422 (hx <= 0xbfd2bec3)
			k, f, hu = 0, x, 1
		}
	}
	if hx >= 0x7ff00000 { // +Infinity or NaN
		return x + x
	}
	if k != 0 {
		var u float64
		if hx < 0x43400000 {
			u = 1.0 + x
			hu = highWord(u)
			k = hu>>20 - 1023
			if k > 0 { // correction term
				c = 1.0 - (u - x)
			} else {
				c = x - (u - 1.0)
			}
			c /= u
		} else {
			u = x
			hu = highWord(u)
			k = hu>>20 - 1023
			c = 0
		}
		hu &= 0x000fffff
		if hu < 0x6a09e {
			u = withHighWord(u, hu|0x3ff00000) // normalise u
		} else {
			k++
			u = withHighWord(u, hu|0x3fe00000) // normalise u/2
			hu = (0x00100000 - hu) >> 2
		}
		f = u - 1.0
	}
	dk := float64(k)
	hfsq := float64(float64(0.5*f) * f)
	if hu == 0 { // |f| < 2^-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			c += float64(dk * ln2_lo)
			return float64(dk*ln2_hi) + c
		}
		R := float64(hfsq * (1.0 - float64(0.66666666666666666*f)))
		if k == 0 {
			return f - R
		}
		return float64(dk*ln2_hi) - ((R - (float64(dk*ln2_lo) + c)) - f)
	}
	s := f / (2.0 + f)
	z := float64(s * s)
	R := float64(z * (lg1 + float64(z*(lg2+float64(z*(lg3+float64(z*(lg4+float64(z*(lg5+float64(z*(lg6+float64(z*lg7)))))))))))))
	if k == 0 {
		return f - (hfsq - float64(s*(hfsq+R)))
	}
	return float64(dk*ln2_hi) - ((hfsq - (float64(s*(hfsq+R)) + (float64(dk*ln2_lo) + c))) - f)
}

// kLog1p is log(1+f) - f + f²/2 for 1+f in [sqrt(2)/2, sqrt(2)] (FreeBSD's k_log1p): the
// part of the logarithm left after the terms that Log2 and Log10 add in extra precision.
func kLog1p(f float64) float64 {
	s := f / (2.0 + f)
	z := float64(s * s)
	w := float64(z * z)
	t1 := float64(w * (lg2 + float64(w*(lg4+float64(w*lg6)))))
	t2 := float64(z * (lg1 + float64(w*(lg3+float64(w*(lg5+float64(w*lg7)))))))
	R := t2 + t1
	hfsq := float64(float64(0.5*f) * f)
	return float64(s * (hfsq + R))
}

// Log2 is Math.log2 (FreeBSD's e_log2.c).
//
// Method: reduce x to 2^k × (1+f) as Log does; then log2(x) = (f - f²/2 + kLog1p(f))/ln2 + k,
// where f - f²/2 is split into hi + lo so that the multiplication by 1/ln2 (itself split in
// two) and the addition of k are done in extra precision: exact powers of two give exact
// results, and the error stays below 1 ulp near sqrt(2) and sqrt(2)/2.
func Log2(x float64) float64 {
	const (
		ivln2hi = 1.44269504072144627571e+00 // 0x3ff71547, 0x65200000
		ivln2lo = 1.67517131648865118353e-10 // 0x3de705fc, 0x2eefa200
	)
	x, k, done := logSpecial(x)
	if done {
		return x
	}
	if x == 1 {
		return 0
	}
	x, k, _ = logReduce(x, k)
	y := float64(k)
	f := x - 1.0
	hfsq := float64(float64(0.5*f) * f)
	r := kLog1p(f)
	hi := withLowWord(f-hfsq, 0)
	lo := (f - hi) - hfsq + r
	valHi := float64(hi * ivln2hi)
	valLo := float64((lo+hi)*ivln2lo) + float64(lo*ivln2hi)
	// y + valHi exactly, as a sum of two doubles (Dekker).
	w := y + valHi
	valLo += (y - w) + valHi
	valHi = w
	return valLo + valHi
}

// Log10 is Math.log10 (fdlibm's e_log10.c).
//
// Method: with x = 2^n × m, log10(x) = n×log10(2) + log10(m) = n×log10_2hi +
// (n×log10_2lo + log(m)/ln10), where n×log10_2hi is exact. The exact powers of ten that
// are normal numbers give exact results.
func Log10(x float64) float64 {
	const (
		ivln10    = 4.34294481903251816668e-01 // 0x3FDBCB7B, 0x1526E50E
		log10_2hi = 3.01029995663611771306e-01 // 0x3FD34413, 0x509F6000
		log10_2lo = 3.69423907715893078616e-13 // 0x3D59FEF3, 0x11F12B36
	)
	x, k, done := logSpecial(x)
	if done {
		return x
	}
	hx := highWord(x)
	k += hx>>20 - 1023
	i := int32(uint32(k) >> 31) // 1 if k < 0: then use 2^(k+1) × m/2
	hx = hx&0x000fffff | (0x3ff-i)<<20
	y := float64(k + i)
	x = withHighWord(x, hx)
	z := float64(y*log10_2lo) + float64(ivln10*Log(x))
	return z + float64(y*log10_2hi)
}
