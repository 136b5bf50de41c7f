// The algorithm and constants below are ported from FreeBSD msun's s_cbrt.c (fdlibm's,
// optimised by Bruce D. Evans), which carries this notice:
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

// Cbrt is Math.cbrt, the cube root.
//
// Method: a first estimate to 5 bits from dividing the exponent bits by 3 (with a bias);
// then to 23 bits with a degree-4 polynomial approximating 1/cbrt(r) of r = t³/x; then t is
// rounded away from zero to 23 bits, so that t² is exact, and one Newton step brings it to
// 53 bits with an error below 0.667 ulp.
func Cbrt(x float64) float64 {
	const (
		B1 = 715094163 // (1023-1023/3-0.03306235651)*2**20
		B2 = 696219795 // (1023-1023/3-54/3-0.03306235651)*2**20

		// |1/cbrt(x) - p(x)| < 2**-23.5 (~[-7.93e-8, 7.929e-8]).
		P0 = 1.87595182427177009643   // 0x3ffe03e6, 0x0f61e692
		P1 = -1.88497979543377169875  // 0xbffe28e0, 0x92f02420
		P2 = 1.621429720105354466140  // 0x3ff9f160, 0x4a49d6c2
		P3 = -0.758397934778766047437 // 0xbfe844cb, 0xbee751d9
		P4 = 0.145996192886612446982  // 0x3fc2b000, 0xd4e4edd7
	)
	hx, low := words(x)
	sign := uint32(hx) & 0x80000000
	ux := uint32(hx) ^ sign // high word of |x|
	if ux >= 0x7ff00000 {   // NaN or ±Infinity
		return x + x
	}

	// Rough cbrt to 5 bits: cbrt(2^e × (1+m)) ≈ 2^(e/3) × (1 + (e%3+m)/3), which dividing
	// the biased exponent and mantissa bits by 3 gives almost exactly.
	var t float64
	if ux < 0x00100000 { // zero or subnormal
		if ux == 0 && low == 0 {
			return x // cbrt(±0) is itself
		}
		t = float64(x * 0x1p54)
		high := uint32(highWord(t))
		t = fromWords(int32(sign|((high&0x7fffffff)/3+B2)), 0)
	} else {
		t = fromWords(int32(sign|(ux/3+B1)), 0)
	}

	// New cbrt to 23 bits: cbrt(x) = t × cbrt(x/t³) ≈ t × P(t³/x).
	r := float64(float64(t*t) * (t / x))
	t = float64(t * ((P0 + float64(r*(P1+float64(r*P2)))) + float64(float64(float64(r*r)*r)*(P3+float64(r*P4)))))

	// Round t away from zero to 23 bits.
	t = math.Float64frombits((math.Float64bits(t) + 0x80000000) & 0xffffffffc0000000)

	// One Newton step to 53 bits, with an error below 0.667 ulps.
	s := float64(t * t)   // exact
	r = x / s             // error <= 0.5 ulps; |r| < |t|
	w := t + t            // exact
	r = (r - t) / (w + r) // r-t is exact; w+r ≈ 3t
	return t + float64(t*r)
}
