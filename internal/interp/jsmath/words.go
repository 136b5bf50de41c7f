package jsmath

import "math"

// fdlibm reads and writes a double as two 32-bit words: the high word (sign, exponent and the
// top 20 bits of the mantissa), signed so that a negative number has a negative high word,
// and the low word (the other 32 bits of the mantissa). These helpers keep that vocabulary so
// that the ports read like the originals.

// highWord is the high 32 bits of x, as a signed integer.
func highWord(x float64) int32 { return int32(math.Float64bits(x) >> 32) }

// lowWord is the low 32 bits of x.
func lowWord(x float64) uint32 { return uint32(math.Float64bits(x)) }

// words is the high and low words of x.
func words(x float64) (int32, uint32) {
	b := math.Float64bits(x)
	return int32(b >> 32), uint32(b)
}

// fromWords is the double with high word hi and low word lo.
func fromWords(hi int32, lo uint32) float64 {
	return math.Float64frombits(uint64(uint32(hi))<<32 | uint64(lo))
}

// withLowWord is x with its low word replaced by lo (withLowWord(x, 0) keeps the top 21
// bits of the mantissa: a number whose products with another such number are exact).
func withLowWord(x float64, lo uint32) float64 {
	return math.Float64frombits(math.Float64bits(x)&^0xffffffff | uint64(lo))
}

// withHighWord is x with its high word replaced by hi.
func withHighWord(x float64, hi int32) float64 {
	return math.Float64frombits(math.Float64bits(x)&0xffffffff | uint64(uint32(hi))<<32)
}
