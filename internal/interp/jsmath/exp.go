// The algorithms and constants below are ported from fdlibm 5.3's e_exp.c and s_expm1.c,
// which carry this notice:
//
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunPro, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

package jsmath

import "math"

// Constants shared by Exp and Expm1.
const (
	ln2Hi      = 6.93147180369123816490e-01 // 0x3FE62E42, 0xFEE00000
	ln2Lo      = 1.90821492927058770002e-10 // 0x3DEA39EF, 0x35793C76
	invLn2     = 1.44269504088896338700e+00 // 0x3FF71547, 0x652B82FE
	expOverflo = 7.09782712893383973096e+02 // 0x40862E42, 0xFEFA39EF: exp overflows above
	twoM1000   = 9.33263618503218878990e-302
	two1023    = 8.988465674311579539e307
)

// scaleExp multiplies y by 2^k by adding k to its exponent: exact, for a normal result.
func scaleExp(y float64, k int32) float64 {
	return withHighWord(y, highWord(y)+k<<20)
}

// Exp is Math.exp.
//
// Method: reduce x to r = x - k×ln2 with |r| <= ln2/2 (r kept as hi - lo), approximate
// exp(r) = 1 + r + r×R1(r)/(2-R1(r)) with a degree-5 polynomial in r², and scale by 2^k.
// The error is below 1 ulp. Like V8, exp(1) returns Math.E exactly (the general method is
// one ulp off there).
func Exp(x float64) float64 {
	const (
		uThreshold = -7.45133219101941108420e+02 // 0xC0874910, 0xD52D3051
		P1         = 1.66666666666666019037e-01  // 0x3FC55555, 0x5555553E
		P2         = -2.77777777770155933842e-03 // 0xBF66C16C, 0x16BEBD93
		P3         = 6.61375632143793436117e-05  // 0x3F11566A, 0xAF25DE2C
		P4         = -1.65339022054652515390e-06 // 0xBEBBBD41, 0xC5D26BF1
		P5         = 4.13813679705723846039e-08  // 0x3E663769, 0x72BEA4D0
	)
	hx := highWord(x)
	negative := hx < 0
	hx &= 0x7fffffff

	if hx >= 0x40862E42 { // |x| >= 709.78..., or not finite
		switch {
		case x != x:
			return x
		case math.IsInf(x, 1):
			return x
		case math.IsInf(x, -1):
			return 0
		case x > expOverflo:
			return math.Inf(1)
		case x < uThreshold:
			return 0
		}
	}

	// Argument reduction: x = k×ln2 + hi - lo.
	var hi, lo float64
	k := int32(0)
	switch {
	case hx > 0x3FD62E42: // |x| > ln2/2
		if hx < 0x3FF0A2B2 { // |x| < 1.5 ln2
			if x == 1 {
				return math.E
			}
			if negative {
				hi, lo, k = x+ln2Hi, -ln2Lo, -1
			} else {
				hi, lo, k = x-ln2Hi, ln2Lo, 1
			}
		} else {
			if negative {
				k = int32(float64(invLn2*x) - 0.5)
			} else {
				k = int32(float64(invLn2*x) + 0.5)
			}
			t := float64(k)
			hi = x - float64(t*ln2Hi) // exact
			lo = float64(t * ln2Lo)
		}
		x = hi - lo
	case hx < 0x3E300000: // |x| < 2^-28
		return 1 + x
	}

	// x is now in the primary range.
	t := float64(x * x)
	c := x - float64(t*(P1+float64(t*(P2+float64(t*(P3+float64(t*(P4+float64(t*P5)))))))))
	if k == 0 {
		return 1 - (float64(x*c)/(c-2.0) - x)
	}
	y := 1 - ((lo - float64(x*c)/(2.0-c)) - hi)
	if k >= -1021 {
		return scaleExp(y, k)
	}
	return float64(scaleExp(y, k+1000) * twoM1000)
}

// Expm1 is Math.expm1: exp(x) - 1, accurate for x near 0.
//
// Method: reduce x to r = x - k×ln2 (|r| <= ln2/2) with a correction term c for the rounding
// of r; approximate expm1(r) with a rational function built on a degree-5 polynomial in r²;
// then expm1(x) = 2^k × (expm1(r) + 1) - 1 arranged per range of k to limit rounding.
// The error is below 1 ulp.
func Expm1(x float64) float64 {
	const (
		// scaled coefficients related to expm1
		Q1 = -3.33333333333331316428e-02 // BFA11111 111110F4
		Q2 = 1.58730158725481460165e-03  // 3F5A01A0 19FE5585
		Q3 = -7.93650757867487942473e-05 // BF14CE19 9EAADBB7
		Q4 = 4.00821782732936239552e-06  // 3ED0CFCA 86E65239
		Q5 = -2.01099218183624371326e-07 // BE8AFDB7 6E09C32D
	)
	hx := highWord(x)
	negative := hx < 0
	hx &= 0x7fffffff

	if hx >= 0x4043687A { // |x| >= 56 ln2, or not finite
		switch {
		case x != x:
			return x
		case math.IsInf(x, 1):
			return x
		case x > expOverflo:
			return math.Inf(1)
		case negative: // x < -56 ln2, including -Infinity
			return -1
		}
	}

	// Argument reduction: x = k×ln2 + r, r = hi - lo, c the rounding error of r.
	var c float64
	k := int32(0)
	switch {
	case hx > 0x3FD62E42: // |x| > ln2/2
		var hi, lo float64
		if hx < 0x3FF0A2B2 { // |x| < 1.5 ln2
			if negative {
				hi, lo, k = x+ln2Hi, -ln2Lo, -1
			} else {
				hi, lo, k = x-ln2Hi, ln2Lo, 1
			}
		} else {
			if negative {
				k = int32(float64(invLn2*x) - 0.5)
			} else {
				k = int32(float64(invLn2*x) + 0.5)
			}
			t := float64(k)
			hi = x - float64(t*ln2Hi) // exact
			lo = float64(t * ln2Lo)
		}
		x = hi - lo
		c = (hi - x) - lo
	case hx < 0x3C900000: // |x| < 2^-54
		return x
	}

	// x is now in the primary range.
	hfx := float64(0.5 * x)
	hxs := float64(x * hfx)
	r1 := 1 + float64(hxs*(Q1+float64(hxs*(Q2+float64(hxs*(Q3+float64(hxs*(Q4+float64(hxs*Q5)))))))))
	t := 3.0 - float64(r1*hfx)
	e := float64(hxs * ((r1 - t) / (6.0 - float64(x*t))))
	if k == 0 {
		return x - (float64(x*e) - hxs) // c is 0
	}
	e = float64(x*(e-c)) - c
	e -= hxs
	switch {
	case k == -1:
		return float64(0.5*(x-e)) - 0.5
	case k == 1:
		if x < -0.25 {
			return float64(-2.0 * (e - (x + 0.5)))
		}
		return 1 + float64(2.0*(x-e))
	case k <= -2 || k > 56: // exp(x) - 1 is good enough
		y := 1 - (e - x)
		if k == 1024 {
			y = float64(float64(y*2.0) * two1023)
		} else {
			y = scaleExp(y, k)
		}
		return y - 1
	case k < 20:
		t = fromWords(0x3ff00000-(0x200000>>uint(k)), 0) // 1 - 2^-k
		return scaleExp(t-(e-x), k)
	default:
		t = fromWords((0x3ff-k)<<20, 0) // 2^-k
		y := x - (e + t)
		y += 1
		return scaleExp(y, k)
	}
}
