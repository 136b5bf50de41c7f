// The algorithms and constants below are ported from fdlibm 5.3's s_sin.c, s_cos.c, s_tan.c,
// k_sin.c, k_cos.c and k_tan.c, which carry these notices:
//
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunPro, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================
//
// ====================================================
// Copyright 2004 Sun Microsystems, Inc.  All Rights Reserved.
//
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

package jsmath

import "math"

// The trigonometric functions reduce x to y = x - n×π/2 in [-π/4, π/4] (as y0 + y1, the
// tail y1 carrying the bits lost to the reduction) and use the kernels below by n mod 4:
//
//	n mod 4   sin   cos   tan
//	0          S     C     T
//	1          C    -S    -1/T
//	2         -S    -C     T
//	3         -C     S    -1/T

// Sin is Math.sin.
func Sin(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	switch {
	case ix <= 0x3fe921fb: // |x| <= π/4
		return kernelSin(x, 0, false)
	case ix >= 0x7ff00000: // sin(±Infinity or NaN) is NaN
		return math.NaN()
	}
	n, y0, y1 := remPio2(x)
	switch n & 3 {
	case 0:
		return kernelSin(y0, y1, true)
	case 1:
		return kernelCos(y0, y1)
	case 2:
		return -kernelSin(y0, y1, true)
	default:
		return -kernelCos(y0, y1)
	}
}

// Cos is Math.cos.
func Cos(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	switch {
	case ix <= 0x3fe921fb: // |x| <= π/4
		return kernelCos(x, 0)
	case ix >= 0x7ff00000: // cos(±Infinity or NaN) is NaN
		return math.NaN()
	}
	n, y0, y1 := remPio2(x)
	switch n & 3 {
	case 0:
		return kernelCos(y0, y1)
	case 1:
		return -kernelSin(y0, y1, true)
	case 2:
		return -kernelCos(y0, y1)
	default:
		return kernelSin(y0, y1, true)
	}
}

// Tan is Math.tan.
func Tan(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	switch {
	case ix <= 0x3fe921fb: // |x| <= π/4
		return kernelTan(x, 0, 1)
	case ix >= 0x7ff00000: // tan(±Infinity or NaN) is NaN
		return math.NaN()
	}
	n, y0, y1 := remPio2(x)
	return kernelTan(y0, y1, 1-(n&1)<<1) // 1 for even n, -1 for odd
}

// kernelSin is sin(x+y) for |x| <= π/4, y the tail of x (zero unless hasTail).
//
// sin(x) ≈ x + S1×x³ + ... + S6×x¹³ on [0, π/4] (relative error below 2^-58), and
// sin(x+y) ≈ sin(x) + (1 - x²/2)×y; with r = x³×(S2 + x²×(S3 + ...)) the sum is arranged as
// x + (S1×x³ + (x²×(r - y/2) + y)).
func kernelSin(x, y float64, hasTail bool) float64 {
	const (
		S1 = -1.66666666666666324348e-01 // 0xBFC55555, 0x55555549
		S2 = 8.33333333332248946124e-03  // 0x3F811111, 0x1110F8A6
		S3 = -1.98412698298579493134e-04 // 0xBF2A01A0, 0x19C161D5
		S4 = 2.75573137070700676789e-06  // 0x3EC71DE3, 0x57B1FE7D
		S5 = -2.50507602534068634195e-08 // 0xBE5AE5E6, 0x8A2B9CEB
		S6 = 1.58969099521155010221e-10  // 0x3DE5D93A, 0x5ACFD57C
	)
	if highWord(x)&0x7fffffff < 0x3e400000 { // |x| < 2^-27
		return x
	}
	z := float64(x * x)
	v := float64(z * x)
	r := S2 + float64(z*(S3+float64(z*(S4+float64(z*(S5+float64(z*S6)))))))
	if !hasTail {
		return x + float64(v*(S1+float64(z*r)))
	}
	return x - ((float64(z*(float64(0.5*y)-float64(v*r))) - y) - float64(v*S1))
}

// kernelCos is cos(x+y) for |x| <= π/4, y the tail of x.
//
// cos(x) ≈ 1 - x²/2 + C1×x⁴ + ... + C6×x¹⁴ on [0, π/4] (error below 2^-58), and
// cos(x+y) ≈ cos(x) - x×y. For |x| > 0.3 the subtraction from 1 is split around qx (x/4
// rounded, or 0.28125), so that 1 - qx and x²/2 - qx are exact and the rounding smaller.
func kernelCos(x, y float64) float64 {
	const (
		C1 = 4.16666666666666019037e-02  // 0x3FA55555, 0x5555554C
		C2 = -1.38888888888741095749e-03 // 0xBF56C16C, 0x16C15177
		C3 = 2.48015872894767294178e-05  // 0x3EFA01A0, 0x19CB1590
		C4 = -2.75573143513906633035e-07 // 0xBE927E4F, 0x809C52AD
		C5 = 2.08757232129817482790e-09  // 0x3E21EE9E, 0xBDB4B1C4
		C6 = -1.13596475577881948265e-11 // 0xBDA8FAE9, 0xBE8838D4
	)
	ix := highWord(x) & 0x7fffffff
	if ix < 0x3e400000 { // |x| < 2^-27
		return 1
	}
	z := float64(x * x)
	r := float64(z * (C1 + float64(z*(C2+float64(z*(C3+float64(z*(C4+float64(z*(C5+float64(z*C6)))))))))))
	if ix < 0x3fd33333 { // |x| < 0.3
		return 1 - (float64(0.5*z) - (float64(z*r) - float64(x*y)))
	}
	qx := 0.28125
	if ix <= 0x3fe90000 { // |x| <= 0.78125
		qx = fromWords(ix-0x00200000, 0) // |x|/4, truncated
	}
	hz := float64(0.5*z) - qx
	a := 1 - qx
	return a - (hz - (float64(z*r) - float64(x*y)))
}

// tanCoeffs are T0..T12 of tan(x) ≈ x + T0×x³ + ... + T12×x²⁷ on [0, 0.67434] (relative
// error below 2^-59.2).
var tanCoeffs = [...]float64{
	3.33333333333334091986e-01,  // 3FD55555, 55555563
	1.33333333333201242699e-01,  // 3FC11111, 1110FE7A
	5.39682539762260521377e-02,  // 3FABA1BA, 1BB341FE
	2.18694882948595424599e-02,  // 3F9664F4, 8406D637
	8.86323982359930005737e-03,  // 3F8226E3, E96E8493
	3.59207910759131235356e-03,  // 3F6D6D22, C9560328
	1.45620945432529025516e-03,  // 3F57DBC8, FEE08315
	5.88041240820264096874e-04,  // 3F4344D8, F2F26501
	2.46463134818469906812e-04,  // 3F3026F7, 1A8D1068
	7.81794442939557092300e-05,  // 3F147E88, A03792A6
	7.14072491382608190305e-05,  // 3F12B80F, 32F0A7E9
	-1.85586374855275456654e-05, // BEF375CB, DB605373
	2.59073051863633712884e-05,  // 3EFB2A70, 74BF7AD4
}

// kernelTan is tan(x+y) (iy = 1) or -1/tan(x+y) (iy = -1) for |x| <= π/4, y the tail of x.
//
// Below 0.6744, tan(x+y) ≈ x + (T0×x³ + (x²×(r+y) + y)) with r the rest of the polynomial;
// above, tan(x) = tan(π/4 - w) = 1 - 2×(tan(w) - tan(w)²/(1 + tan(w))) for the small
// w = π/4 - x. -1/tan is computed carefully (in pieces) rather than by a plain division.
func kernelTan(x, y float64, iy int32) float64 {
	const (
		pio4   = 7.85398163397448278999e-01 // 3FE921FB, 54442D18
		pio4lo = 3.06161699786838301793e-17 // 3C81A626, 33145C07
	)
	T := &tanCoeffs
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix < 0x3e300000 { // |x| < 2^-28
		switch {
		case x == 0 && iy == -1:
			return 1 / math.Abs(x)
		case iy == 1:
			return x
		default:
			return negInverse(x, y)
		}
	}
	big := ix >= 0x3FE59428 // |x| >= 0.6744
	if big {
		if hx < 0 {
			x, y = -x, -y
		}
		z := pio4 - x
		w := pio4lo - y
		x = z + w
		y = 0
	}
	z := float64(x * x)
	w := float64(z * z)
	// Split x^5*(T1 + x^2*T2 + ...) into the odd and even powers of x^4.
	r := T[1] + float64(w*(T[3]+float64(w*(T[5]+float64(w*(T[7]+float64(w*(T[9]+float64(w*T[11])))))))))
	v := float64(z * (T[2] + float64(w*(T[4]+float64(w*(T[6]+float64(w*(T[8]+float64(w*(T[10]+float64(w*T[12])))))))))))
	s := float64(z * x)
	r = y + float64(z*(float64(s*(r+v))+y))
	r += float64(T[0] * s)
	w = x + r
	if big {
		v = float64(iy)
		return float64(float64(1-((hx>>30)&2)) * (v - float64(2.0*(x-(float64(w*w)/(w+v)-r)))))
	}
	if iy == 1 {
		return w
	}
	return negInverse(x, r)
}

// negInverse is -1/(x+r), computed in pieces for accuracy: w = x+r and a = -1/w are split
// into high parts z and t with zeroed low words, and the error of t×z corrected.
func negInverse(x, r float64) float64 {
	w := x + r
	z := withLowWord(w, 0)
	v := r - (z - x) // z + v = r + x
	a := -1 / w
	t := withLowWord(a, 0)
	s := 1 + float64(t*z)
	return t + float64(a*(s+float64(t*v)))
}
