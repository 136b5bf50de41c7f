package jsmath

import (
	"math"
	"testing"
)

// The benchmarks compare the ports with Go's math package on the same inputs
// (go test -bench . ./internal/interp/jsmath).

var sink float64

// benchInputs are 1024 arguments spread over [lo, hi).
func benchInputs(lo, hi float64) []float64 {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = lo + (hi-lo)*float64(i*7919%1024)/1024
	}
	return xs
}

func bench1(b *testing.B, f func(float64) float64, xs []float64) {
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += f(xs[i&1023])
	}
	sink = s
}

func bench2(b *testing.B, f func(float64, float64) float64, xs, ys []float64) {
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += f(xs[i&1023], ys[(i*31)&1023])
	}
	sink = s
}

var (
	powBases     = benchInputs(0.01, 100)
	powExponents = benchInputs(-20, 20)
	sinArgs      = benchInputs(-100, 100)
	expArgs      = benchInputs(-700, 700)
)

func BenchmarkPow(b *testing.B)   { bench2(b, Pow, powBases, powExponents) }
func BenchmarkGoPow(b *testing.B) { bench2(b, math.Pow, powBases, powExponents) }
func BenchmarkSin(b *testing.B)   { bench1(b, Sin, sinArgs) }
func BenchmarkGoSin(b *testing.B) { bench1(b, math.Sin, sinArgs) }
func BenchmarkExp(b *testing.B)   { bench1(b, Exp, expArgs) }
func BenchmarkGoExp(b *testing.B) { bench1(b, math.Exp, expArgs) }
