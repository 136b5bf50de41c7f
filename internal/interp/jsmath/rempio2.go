// The algorithms and constants below are ported from fdlibm 5.3's e_rem_pio2.c and
// k_rem_pio2.c, which carry this notice:
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

// twoOverPi is 2/π in 24-bit pieces: 396 hex digits (476 decimal) after the point.
var twoOverPi = [...]int32{
	0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62,
	0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7, 0x246E3A,
	0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
	0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41,
	0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8,
	0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
	0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5,
	0xF17B3D, 0x0739F7, 0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08,
	0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
	0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880,
	0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B,
}

// npio2HighWords is the high words of n×π/2 for n = 1..32: arguments that share it may lose
// many bits when the nearest multiple is subtracted.
var npio2HighWords = [...]int32{
	0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C,
	0x4025FDBB, 0x402921FB, 0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C,
	0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A,
	0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C,
	0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB, 0x4046C6CB, 0x40478FDB,
	0x404858EB, 0x404921FB,
}

// remPio2 reduces x to y0 + y1 = x - n×π/2 with |y0 + y1| <= π/4 (about), returning n; y1 is
// the tail of y0. |x| must be above π/4 and finite.
//
// Arguments below 2^19×π/2 subtract n×π/2 with π/2 in up to three 33-bit pieces, each
// round only if cancellation made it necessary; larger ones use the Payne-Hanek method
// in remPio2Large.
func remPio2(x float64) (n int32, y0, y1 float64) {
	const (
		invpio2 = 6.36619772367581382433e-01 // 0x3FE45F30, 0x6DC9C883: 53 bits of 2/pi
		pio2_1  = 1.57079632673412561417e+00 // 0x3FF921FB, 0x54400000: first 33 bits of pi/2
		pio2_1t = 6.07710050650619224932e-11 // 0x3DD0B461, 0x1A626331: pi/2 - pio2_1
		pio2_2  = 6.07710050630396597660e-11 // 0x3DD0B461, 0x1A600000: second 33 bits of pi/2
		pio2_2t = 2.02226624879595063154e-21 // 0x3BA3198A, 0x2E037073: pi/2 - (pio2_1+pio2_2)
		pio2_3  = 2.02226624871116645580e-21 // 0x3BA3198A, 0x2E000000: third 33 bits of pi/2
		pio2_3t = 8.47842766036889956997e-32 // 0x397B839A, 0x252049C1: pi/2 - (pio2_1+pio2_2+pio2_3)
	)
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix < 0x4002d97c { // |x| < 3π/4: n = ±1
		if hx > 0 {
			z := x - pio2_1
			if ix != 0x3ff921fb { // 33+53 bits of π are enough
				y0 = z - pio2_1t
				y1 = (z - y0) - pio2_1t
			} else { // near π/2: use 33+33+53 bits
				z -= pio2_2
				y0 = z - pio2_2t
				y1 = (z - y0) - pio2_2t
			}
			return 1, y0, y1
		}
		z := x + pio2_1
		if ix != 0x3ff921fb {
			y0 = z + pio2_1t
			y1 = (z - y0) + pio2_1t
		} else {
			z += pio2_2
			y0 = z + pio2_2t
			y1 = (z - y0) + pio2_2t
		}
		return -1, y0, y1
	}
	if ix <= 0x413921fb { // |x| <= 2^19×π/2: medium size
		t := math.Abs(x)
		n = int32(float64(t*invpio2) + 0.5)
		fn := float64(n)
		r := t - float64(fn*pio2_1)
		w := float64(fn * pio2_1t) // first round, good to 85 bits
		if n < 32 && ix != npio2HighWords[n-1] {
			y0 = r - w // quick check: no cancellation
		} else {
			j := ix >> 20
			y0 = r - w
			if i := j - (highWord(y0)>>20)&0x7ff; i > 16 { // second round, good to 118 bits
				t = r
				w = float64(fn * pio2_2)
				r = t - w
				w = float64(fn*pio2_2t) - ((t - r) - w)
				y0 = r - w
				if i := j - (highWord(y0)>>20)&0x7ff; i > 49 { // third round, 151 bits
					t = r
					w = float64(fn * pio2_3)
					r = t - w
					w = float64(fn*pio2_3t) - ((t - r) - w)
					y0 = r - w
				}
			}
		}
		y1 = (r - y0) - w
		if hx < 0 {
			return -n, -y0, -y1
		}
		return n, y0, y1
	}
	// Large arguments: break |x| into three 24-bit pieces scaled by 2^-e0.
	e0 := ix>>20 - 1046 // ilogb(x) - 23
	z := fromWords(ix-e0<<20, lowWord(x))
	var tx [3]float64
	for i := 0; i < 2; i++ {
		tx[i] = float64(int32(z))
		z = float64((z - tx[i]) * 0x1p24)
	}
	tx[2] = z
	nx := 3
	for tx[nx-1] == 0 { // skip zero terms
		nx--
	}
	n, y0, y1 = remPio2Large(tx[:nx], int(e0))
	if hx < 0 {
		return -n, -y0, -y1
	}
	return n, y0, y1
}

// piOver2Pieces is π/2 in 24-bit pieces.
var piOver2Pieces = [...]float64{
	1.57079625129699707031e+00, // 0x3FF921FB, 0x40000000
	7.54978941586159635335e-08, // 0x3E74442D, 0x00000000
	5.39030252995776476554e-15, // 0x3CF84698, 0x80000000
	3.28200341580791294123e-22, // 0x3B78CC51, 0x60000000
	1.27065575308067607349e-29, // 0x39F01B83, 0x80000000
	1.22933308981111328932e-36, // 0x387A2520, 0x40000000
	2.73370053816464559624e-44, // 0x36E38222, 0x80000000
	2.16741683877804819444e-51, // 0x3569F31D, 0x00000000
}

// remPio2Large is fdlibm's __kernel_rem_pio2 for double precision (prec 2): given a positive
// x = (x[0] + x[1]×2^-24 + x[2]×2^-48) × 2^e0 in 24-bit pieces, it returns the last three
// bits of n and y0 + y1 = x - n×π/2.
//
// It computes the integer part (mod 8) and the fraction of x×2/π without the part of the
// product known to be a multiple of 8, so the work does not grow with the exponent of x:
// q[i] are 24-bit chunks of the product, recomputed with more terms of 2/π when the fraction
// cancels to zero.
func remPio2Large(x []float64, e0 int) (int32, float64, float64) {
	const (
		jk     = 4 // initial number of terms of 2/π (minus one) for double precision
		jp     = jk
		two24  = 0x1p24
		twon24 = 0x1p-24
	)
	var (
		iq        [20]int32
		f, fq, q  [20]float64
		jx        = len(x) - 1
		jv        = max((e0-3)/24, 0)
		q0        = e0 - 24*(jv+1)
		jz        = jk
		n, ih     int32
		z, fw     float64
		recompute = true
	)
	// f[0 .. jx+jk] = twoOverPi[jv-jx .. jv+jk]
	for i, j := 0, jv-jx; i <= jx+jk; i, j = i+1, j+1 {
		if j >= 0 {
			f[i] = float64(twoOverPi[j])
		}
	}
	for i := 0; i <= jk; i++ {
		fw = 0
		for j := 0; j <= jx; j++ {
			fw += float64(x[j] * f[jx+i-j])
		}
		q[i] = fw
	}
	for recompute {
		recompute = false
		// Distill q[] into iq[], in reverse.
		z = q[jz]
		for i, j := 0, jz; j > 0; i, j = i+1, j-1 {
			fw = float64(int32(float64(twon24 * z)))
			iq[i] = int32(z - float64(two24*fw))
			z = q[j-1] + fw
		}
		// n is the integer part.
		z = math.Ldexp(z, q0)
		z -= float64(8.0 * math.Floor(float64(z*0.125))) // drop the multiples of 8
		n = int32(z)
		z -= float64(n)
		ih = 0
		switch {
		case q0 > 0: // iq[jz-1] holds bits of n
			i := iq[jz-1] >> (24 - q0)
			n += i
			iq[jz-1] -= i << (24 - q0)
			ih = iq[jz-1] >> (23 - q0)
		case q0 == 0:
			ih = iq[jz-1] >> 23
		case z >= 0.5:
			ih = 2
		}
		if ih > 0 { // the fraction is >= 0.5: take 1 - fraction, and n+1
			n++
			carry := false
			for i := 0; i < jz; i++ {
				j := iq[i]
				if !carry {
					if j != 0 {
						carry = true
						iq[i] = 0x1000000 - j
					}
				} else {
					iq[i] = 0xffffff - j
				}
			}
			switch q0 { // rare case: chance is 1 in 12
			case 1:
				iq[jz-1] &= 0x7fffff
			case 2:
				iq[jz-1] &= 0x3fffff
			}
			if ih == 2 {
				z = 1 - z
				if carry {
					z -= math.Ldexp(1, q0)
				}
			}
		}
		// The fraction cancelled to zero: recompute with more terms of 2/π.
		if z == 0 {
			j := int32(0)
			for i := jz - 1; i >= jk; i-- {
				j |= iq[i]
			}
			if j == 0 {
				k := 1
				for iq[jk-k] == 0 { // k = number of terms needed
					k++
				}
				for i := jz + 1; i <= jz+k; i++ {
					f[jx+i] = float64(twoOverPi[jv+i])
					fw = 0
					for j := 0; j <= jx; j++ {
						fw += float64(x[j] * f[jx+i-j])
					}
					q[i] = fw
				}
				jz += k
				recompute = true
			}
		}
	}

	// Chop off zero terms, or break z into 24-bit pieces.
	if z == 0 {
		jz--
		q0 -= 24
		for iq[jz] == 0 {
			jz--
			q0 -= 24
		}
	} else {
		z = math.Ldexp(z, -q0)
		if z >= two24 {
			fw = float64(int32(float64(twon24 * z)))
			iq[jz] = int32(z - float64(two24*fw))
			jz++
			q0 += 24
			iq[jz] = int32(fw)
		} else {
			iq[jz] = int32(z)
		}
	}
	// Convert the integer chunks to floating point.
	fw = math.Ldexp(1, q0)
	for i := jz; i >= 0; i-- {
		q[i] = float64(fw * float64(iq[i]))
		fw *= twon24
	}
	// fq = π/2 × q
	for i := jz; i >= 0; i-- {
		fw = 0
		for k := 0; k <= jp && k <= jz-i; k++ {
			fw += float64(piOver2Pieces[k] * q[i+k])
		}
		fq[jz-i] = fw
	}
	// Compress fq into y0 + y1.
	fw = 0
	for i := jz; i >= 0; i-- {
		fw += fq[i]
	}
	y0 := fw
	fw = fq[0] - fw
	for i := 1; i <= jz; i++ {
		fw += fq[i]
	}
	y1 := fw
	if ih != 0 {
		y0, y1 = -y0, -y1
	}
	return n & 7, y0, y1
}
