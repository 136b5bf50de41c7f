package jsmath

import "math"

// Hypot is Math.hypot(...xs), as V8 computes it: the square root of the sum of the squares,
// each scaled by the largest magnitude to avoid overflow and summed with Kahan's compensated
// summation, then scaled back. An infinite argument wins over NaN.
func Hypot(xs ...float64) float64 {
	largest, nan := 0.0, false
	for _, x := range xs {
		if math.IsInf(x, 0) {
			return math.Inf(1)
		}
		if x != x {
			nan = true
			continue
		}
		largest = max(largest, math.Abs(x))
	}
	if nan {
		return math.NaN()
	}
	if largest == 0 {
		return 0
	}
	sum, comp := 0.0, 0.0
	for _, x := range xs {
		r := x / largest
		s := float64(r*r) - comp
		t := sum + s
		comp = (t - sum) - s
		sum = t
	}
	return float64(math.Sqrt(sum) * largest)
}
