// Package jsmath computes the Math functions and the exponentiation operator of JavaScript
// with the results V8 (and so node and Chrome) gives, bit for bit.
//
// ECMAScript leaves the accuracy of Math.sin, Math.exp, Math.pow and the like to the
// implementation, and Go's math package rounds differently from V8 in the last bit for a
// good share of inputs (Math.pow(10, -5) is 0.000009999999999999999 in V8 and 1e-5 in Go).
// Programs print, compare and hash those numbers, so the interpreter computes them as V8 does:
// V8 uses fdlibm, Sun's freely distributable math library (partly through FreeBSD's msun), and
// this package is a Go port of the same fdlibm algorithms, constants and order of operations,
// plus the special cases ECMAScript adds (1 ** Infinity is NaN).
//
// Every floating-point product is written float64(x*y): the explicit conversion rounds it,
// which stops the compiler from fusing it with an addition into a fused multiply-add (as it
// does on arm64, ppc64, s390x, riscv64 and amd64 with GOAMD64=v3) and so changing the last bit
// of some results. fdlibm rounds every operation, and so does V8's build of it.
//
// The reference is node 20 (V8 11.3), whose Math functions are all fdlibm ports. Later V8
// versions moved pow to the C library's pow (behind --use-std-math-pow) and log, log1p, log2,
// log10 and cbrt to LLVM's libc, whose results differ in the last bit for some inputs;
// regenerating the test data with such a node shows those functions failing.
//
// testdata/v8.txt.gz holds V8's results for some fifty thousand inputs (written by
// testdata/gen.js), and the tests compare every one.
package jsmath
