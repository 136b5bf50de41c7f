// The algorithms and constants below are ported from fdlibm 5.3's e_sinh.c, e_cosh.c,
// s_tanh.c, s_asinh.c, e_acosh.c and e_atanh.c (tanh with FreeBSD msun's small-argument
// cut-off), which carry this notice:
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

const (
	ln2        = 6.93147180559945286227e-01 // 0x3FE62E42, 0xFEFA39EF
	hypOverflo = 710.4758600739439          // above it sinh and cosh overflow
	logMaxD    = 709.7822265625             // 0x40862E42, 0x00000000: about log(MAX_VALUE)
)

// Sinh is Math.sinh.
//
// Method: with E = expm1(|x|), sinh(x) = ±(E + E/(E+1))/2 up to 22 (2E - E²/(E+1) below 1,
// for accuracy); exp(|x|)/2 up to log(MAX_VALUE); exp(|x|/2)/2 × exp(|x|/2) up to the
// overflow threshold, so that the intermediate does not overflow.
func Sinh(x float64) float64 {
	h := 0.5
	if x < 0 {
		h = -0.5
	}
	ax := math.Abs(x)
	switch {
	case ax < 22:
		if ax < 0x1p-28 { // sinh(tiny) = tiny
			return x
		}
		t := Expm1(ax)
		if ax < 1 {
			return float64(h * (float64(2*t) - float64(t*t)/(t+1)))
		}
		return float64(h * (t + t/(t+1)))
	case ax < logMaxD:
		return float64(h * Exp(ax))
	case ax <= hypOverflo:
		w := Exp(float64(0.5 * ax))
		t := float64(h * w)
		return float64(t * w)
	}
	return float64(x * math.Inf(1)) // ±Infinity, or NaN
}

// Cosh is Math.cosh.
//
// Method: with |x|: 1 + expm1(|x|)²/(2×exp(|x|)) up to ln2/2; (exp(|x|) + 1/exp(|x|))/2
// up to 22; exp(|x|)/2 up to log(MAX_VALUE); exp(|x|/2)/2 × exp(|x|/2) up to the overflow
// threshold.
func Cosh(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	ax := math.Abs(x)
	switch {
	case ix < 0x3fd62e43: // |x| < ln2/2
		t := Expm1(ax)
		w := 1 + t
		if ix < 0x3c800000 { // cosh(tiny) = 1
			return w
		}
		return 1 + float64(t*t)/(w+w)
	case ix < 0x40360000: // |x| < 22
		t := Exp(ax)
		return float64(0.5*t) + 0.5/t
	case ix < 0x40862E42: // |x| < log(MAX_VALUE)
		return float64(0.5 * Exp(ax))
	case ax <= hypOverflo:
		w := Exp(float64(0.5 * ax))
		t := float64(0.5 * w)
		return float64(t * w)
	case ix >= 0x7ff00000:
		return float64(x * x) // Infinity, or NaN
	}
	return math.Inf(1)
}

// Tanh is Math.tanh.
//
// Method: with |x|: x itself below 2^-28 (as in FreeBSD's s_tanh.c, where fdlibm 5.3 uses
// x×(1+x) below 2^-55 and the formula above); -expm1(-2|x|)/(expm1(-2|x|) + 2) below 1;
// 1 - 2/(expm1(2|x|) + 2) below 22; 1 above.
func Tanh(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x7ff00000 { // ±Infinity or NaN
		if hx >= 0 {
			return 1/x + 1
		}
		return 1/x - 1
	}
	var z float64
	switch {
	case ix < 0x3e300000: // |x| < 2^-28: tanh(small) = small
		return x
	case ix >= 0x40360000: // |x| >= 22
		z = 1
	case ix >= 0x3ff00000: // |x| >= 1
		t := Expm1(float64(2 * math.Abs(x)))
		z = 1 - 2/(t+2)
	default:
		t := Expm1(float64(-2 * math.Abs(x)))
		z = -t / (t + 2)
	}
	if hx >= 0 {
		return z
	}
	return -z
}

// Asinh is Math.asinh.
//
// Method: asinh(x) = sign(x) × log(|x| + sqrt(x²+1)), computed as x for |x| < 2^-28,
// log(|x|) + ln2 above 2^28, log(2|x| + 1/(|x| + sqrt(x²+1))) above 2, and
// log1p(|x| + x²/(1 + sqrt(1+x²))) otherwise.
func Asinh(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	var w float64
	switch {
	case ix >= 0x7ff00000: // ±Infinity or NaN
		return x + x
	case ix < 0x3e300000: // |x| < 2^-28
		return x
	case ix > 0x41b00000: // |x| > 2^28
		w = Log(math.Abs(x)) + ln2
	case ix > 0x40000000: // 2^28 > |x| > 2
		t := math.Abs(x)
		w = Log(float64(2.0*t) + 1/(math.Sqrt(float64(x*x)+1)+t))
	default: // 2 > |x| > 2^-28
		t := float64(x * x)
		w = Log1p(math.Abs(x) + t/(1+math.Sqrt(1+t)))
	}
	if hx > 0 {
		return w
	}
	return -w
}

// Acosh is Math.acosh.
//
// Method: acosh(x) = log(x + sqrt(x²-1)), computed as log(x) + ln2 above 2^28,
// log(2x - 1/(x + sqrt(x²-1))) above 2, and log1p(t + sqrt(2t + t²)) with t = x-1 below.
func Acosh(x float64) float64 {
	hx := highWord(x)
	switch {
	case hx < 0x3ff00000: // x < 1, or NaN with the sign bit
		return math.NaN()
	case hx >= 0x41b00000: // x > 2^28
		if hx >= 0x7ff00000 { // Infinity or NaN
			return x + x
		}
		return Log(x) + ln2 // acosh(huge) = log(2x)
	case x == 1:
		return 0
	case hx > 0x40000000: // 2^28 > x > 2
		t := float64(x * x)
		return Log(float64(2.0*x) - 1/(x+math.Sqrt(t-1)))
	default: // 1 < x < 2
		t := x - 1
		return Log1p(t + math.Sqrt(float64(2.0*t)+float64(t*t)))
	}
}

// Atanh is Math.atanh.
//
// Method: atanh(x) = sign(x) × log1p(2|x| + 2x²/(1-|x|))/2 below 0.5, and
// sign(x) × log1p(2|x|/(1-|x|))/2 from 0.5 on.
func Atanh(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	ax := math.Abs(x)
	switch {
	case ax > 1 || x != x:
		return math.NaN()
	case ax == 1:
		return x / 0
	case ix < 0x3e300000: // |x| < 2^-28
		return x
	}
	var t float64
	if ix < 0x3fe00000 { // |x| < 0.5
		t = ax + ax
		t = float64(0.5 * Log1p(t+float64(t*ax)/(1-ax)))
	} else {
		t = float64(0.5 * Log1p((ax+ax)/(1-ax)))
	}
	if hx >= 0 {
		return t
	}
	return -t
}
