// The algorithms and constants below are ported from fdlibm 5.3's s_atan.c, e_atan2.c,
// e_asin.c and e_acos.c (atan with FreeBSD msun's small-argument cut-off), which carry this
// notice:
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

// Constants shared by the inverse trigonometric functions.
const (
	pi     = 3.14159265358979311600e+00 // 0x400921FB, 0x54442D18
	pio2Hi = 1.57079632679489655800e+00 // 0x3FF921FB, 0x54442D18
	pio2Lo = 6.12323399573676603587e-17 // 0x3C91A626, 0x33145C07
	pio4Hi = 7.85398163397448278999e-01 // 0x3FE921FB, 0x54442D18
)

var (
	atanHi = [...]float64{
		4.63647609000806093515e-01, // atan(0.5)hi 0x3FDDAC67, 0x0561BB4F
		7.85398163397448278999e-01, // atan(1.0)hi 0x3FE921FB, 0x54442D18
		9.82793723247329054082e-01, // atan(1.5)hi 0x3FEF730B, 0xD281F69B
		1.57079632679489655800e+00, // atan(inf)hi 0x3FF921FB, 0x54442D18
	}
	atanLo = [...]float64{
		2.26987774529616870924e-17, // atan(0.5)lo 0x3C7A2B7F, 0x222F65E2
		3.06161699786838301793e-17, // atan(1.0)lo 0x3C81A626, 0x33145C07
		1.39033110312309984516e-17, // atan(1.5)lo 0x3C700788, 0x7AF0CBBD
		6.12323399573676603587e-17, // atan(inf)lo 0x3C91A626, 0x33145C07
	}
	atanT = [...]float64{
		3.33333333333329318027e-01,  // 0x3FD55555, 0x5555550D
		-1.99999999998764832476e-01, // 0xBFC99999, 0x9998EBC4
		1.42857142725034663711e-01,  // 0x3FC24924, 0x920083FF
		-1.11111104054623557880e-01, // 0xBFBC71C6, 0xFE231671
		9.09088713343650656196e-02,  // 0x3FB745CD, 0xC54C206E
		-7.69187620504482999495e-02, // 0xBFB3B0F2, 0xAF749A6D
		6.66107313738753120669e-02,  // 0x3FB10D66, 0xA0D03D51
		-5.83357013379057348645e-02, // 0xBFADDE2D, 0x52DEFD9A
		4.97687799461593236017e-02,  // 0x3FA97B4B, 0x24760DEB
		-3.65315727442169155270e-02, // 0xBFA2B444, 0x2C6A6C2F
		1.62858201153657823623e-02,  // 0x3F90AD3A, 0xE322DA11
	}
)

// Atan is Math.atan.
//
// Method: by the interval of |x|, reduce it with atan(x) = atan(c) + atan((x-c)/(1+x×c))
// for c = 0, 1/2, 1, 3/2 or ∞ (then atan(-1/x)), and evaluate atan on the reduced argument
// with an odd polynomial of degree 23, its odd and even parts separately.
func Atan(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x44100000 { // |x| >= 2^66, or NaN
		switch {
		case x != x:
			return x
		case hx > 0:
			return atanHi[3] + atanLo[3]
		default:
			return -atanHi[3] - atanLo[3]
		}
	}
	id := -1
	if ix < 0x3fdc0000 { // |x| < 0.4375
		if ix < 0x3e400000 { // |x| < 2^-27
			return x
		}
	} else {
		x = math.Abs(x)
		switch {
		case ix < 0x3fe60000: // 7/16 <= |x| < 11/16
			id, x = 0, (float64(2.0*x)-1)/(2.0+x)
		case ix < 0x3ff30000: // 11/16 <= |x| < 19/16
			id, x = 1, (x-1)/(x+1)
		case ix < 0x40038000: // 19/16 <= |x| < 39/16
			id, x = 2, (x-1.5)/(1+float64(1.5*x))
		default: // 39/16 <= |x| < 2^66
			id, x = 3, -1.0/x
		}
	}
	T := &atanT
	z := float64(x * x)
	w := float64(z * z)
	// The sum of T[i]×z^(i+1) in two halves, odd and even i.
	s1 := float64(z * (T[0] + float64(w*(T[2]+float64(w*(T[4]+float64(w*(T[6]+float64(w*(T[8]+float64(w*T[10])))))))))))
	s2 := float64(w * (T[1] + float64(w*(T[3]+float64(w*(T[5]+float64(w*(T[7]+float64(w*T[9])))))))))
	if id < 0 {
		return x - float64(x*(s1+s2))
	}
	z = atanHi[id] - ((float64(x*(s1+s2)) - atanLo[id]) - x)
	if hx < 0 {
		return -z
	}
	return z
}

// Atan2 is Math.atan2(y, x): the angle of the point (x, y).
//
// Method: atan2(y, x) = atan(y/x) for x > 0 and π - atan(y/-x) for x < 0, with the signs of
// y folded out; the special values of ECMAScript (which are C's) are handled first.
func Atan2(y, x float64) float64 {
	const (
		pio4 = 7.8539816339744827900e-01 // 0x3FE921FB, 0x54442D18
		piLo = 1.2246467991473531772e-16 // 0x3CA1A626, 0x33145C07
	)
	if x != x || y != y {
		return x + y
	}
	if x == 1 {
		return Atan(y)
	}
	hx, lx := words(x)
	hy, ly := words(y)
	ix, iy := hx&0x7fffffff, hy&0x7fffffff
	m := (hy>>31)&1 | (hx>>30)&2 // 2×sign(x) + sign(y)

	if iy == 0 && ly == 0 { // y = ±0
		switch m {
		case 0, 1:
			return y // atan(±0, +anything) = ±0
		case 2:
			return pi // atan(+0, -anything) = π
		default:
			return -pi // atan(-0, -anything) = -π
		}
	}
	if ix == 0 && lx == 0 { // x = ±0
		return math.Copysign(pio2Hi, y)
	}
	if ix == 0x7ff00000 { // x = ±Infinity
		if iy == 0x7ff00000 {
			switch m {
			case 0:
				return pio4 // atan(+Infinity, +Infinity)
			case 1:
				return -pio4 // atan(-Infinity, +Infinity)
			case 2:
				return 3.0 * pio4 // atan(+Infinity, -Infinity)
			default:
				return -3.0 * pio4 // atan(-Infinity, -Infinity)
			}
		}
		switch m {
		case 0:
			return 0 // atan(+..., +Infinity)
		case 1:
			return math.Copysign(0, -1) // atan(-..., +Infinity)
		case 2:
			return pi // atan(+..., -Infinity)
		default:
			return -pi // atan(-..., -Infinity)
		}
	}
	if iy == 0x7ff00000 { // y = ±Infinity
		return math.Copysign(pio2Hi, y)
	}

	var z float64
	switch k := (iy - ix) >> 20; {
	case k > 60: // |y/x| > 2^60
		z = pio2Hi + 0.5*piLo
		m &= 1
	case hx < 0 && k < -60: // 0 > |y|/x > -2^-60
		z = 0
	default:
		z = Atan(math.Abs(y / x))
	}
	switch m {
	case 0:
		return z // atan(+, +)
	case 1:
		return -z // atan(-, +)
	case 2:
		return pi - (z - piLo) // atan(+, -)
	default:
		return (z - piLo) - pi // atan(-, -)
	}
}

// Coefficients of R(x²), the rational approximation of (asin(x) - x)/x³ on [0, 0.5]
// (error below 2^-58.75), shared by Asin and Acos.
const (
	pS0 = 1.66666666666666657415e-01  // 0x3FC55555, 0x55555555
	pS1 = -3.25565818622400915405e-01 // 0xBFD4D612, 0x03EB6F7D
	pS2 = 2.01212532134862925881e-01  // 0x3FC9C155, 0x0E884455
	pS3 = -4.00555345006794114027e-02 // 0xBFA48228, 0xB5688F3B
	pS4 = 7.91534994289814532176e-04  // 0x3F49EFE0, 0x7501B288
	pS5 = 3.47933107596021167570e-05  // 0x3F023DE1, 0x0DFDF709
	qS1 = -2.40339491173441421878e+00 // 0xC0033A27, 0x1C8A2D4B
	qS2 = 2.02094576023350569471e+00  // 0x40002AE5, 0x9C598AC8
	qS3 = -6.88283971605453293030e-01 // 0xBFE6066C, 0x1B8D0159
	qS4 = 7.70381505559019352791e-02  // 0x3FB3B8C5, 0xB12E9282
)

// asinPQ is the numerator and denominator of R(t), which callers divide when they need to.
func asinPQ(t float64) (p, q float64) {
	p = float64(t * (pS0 + float64(t*(pS1+float64(t*(pS2+float64(t*(pS3+float64(t*(pS4+float64(t*pS5)))))))))))
	q = 1 + float64(t*(qS1+float64(t*(qS2+float64(t*(qS3+float64(t*qS4)))))))
	return p, q
}

// Asin is Math.asin.
//
// Method: asin(x) = x + x³×R(x²) on [0, 0.5]; above, asin(x) = π/2 - 2×asin(sqrt((1-x)/2)),
// with the square root split in a high part and a correction below 0.975 for accuracy.
func Asin(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x3ff00000 { // |x| >= 1
		if x == 1 || x == -1 { // ±π/2
			return float64(x*pio2Hi) + float64(x*pio2Lo)
		}
		return math.NaN() // |x| > 1, or NaN
	}
	if ix < 0x3fe00000 { // |x| < 0.5
		if ix < 0x3e400000 { // |x| < 2^-27
			return x
		}
		p, q := asinPQ(float64(x * x))
		return x + float64(x*(p/q))
	}
	// 0.5 <= |x| < 1
	t := float64((1 - math.Abs(x)) * 0.5)
	p, q := asinPQ(t)
	s := math.Sqrt(t)
	if ix >= 0x3FEF3333 { // |x| > 0.975
		t = pio2Hi - (float64(2.0*(s+float64(s*(p/q)))) - pio2Lo)
	} else {
		w := withLowWord(s, 0)
		c := (t - float64(w*w)) / (s + w) // w + c ≈ sqrt(t)
		r := p / q
		p = float64(float64(2.0*s)*r) - (pio2Lo - float64(2.0*c))
		q = pio4Hi - float64(2.0*w)
		t = pio4Hi - (p - q)
	}
	if hx > 0 {
		return t
	}
	return -t
}

// Acos is Math.acos.
//
// Method: acos(x) = π/2 - asin(x): π/2 - (x + x³×R(x²)) for |x| <= 0.5; for x > 0.5,
// 2×asin(sqrt((1-x)/2)) with the square root split as in Asin; for x < -0.5,
// π - 2×asin(sqrt((1+x)/2)).
func Acos(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x3ff00000 { // |x| >= 1
		switch {
		case x == 1:
			return 0
		case x == -1:
			return pi + 2.0*pio2Lo
		}
		return math.NaN() // |x| > 1, or NaN
	}
	if ix < 0x3fe00000 { // |x| < 0.5
		if ix <= 0x3c600000 { // |x| < 2^-57
			return pio2Hi + pio2Lo
		}
		p, q := asinPQ(float64(x * x))
		r := p / q
		return pio2Hi - (x - (pio2Lo - float64(x*r)))
	}
	if hx < 0 { // x < -0.5
		z := float64((1 + x) * 0.5)
		p, q := asinPQ(z)
		s := math.Sqrt(z)
		r := p / q
		w := float64(r*s) - pio2Lo
		return pi - float64(2.0*(s+w))
	}
	// x > 0.5
	z := float64((1 - x) * 0.5)
	s := math.Sqrt(z)
	df := withLowWord(s, 0)
	c := (z - float64(df*df)) / (s + df)
	p, q := asinPQ(z)
	r := p / q
	w := float64(r*s) + c
	return float64(2.0 * (df + w))
}
