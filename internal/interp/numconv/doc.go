// Package numconv converts between ECMAScript Number values (float64) and strings exactly as
// the language specifies and as V8 prints them: Number::toString with and without a radix,
// toFixed, toExponential, toPrecision, StringToNumber, parseFloat and parseInt.
//
// Every function is pure and safe for concurrent use. Range checks on digit counts and radixes
// are the caller's job (the interpreter throws the RangeError); each function documents its
// preconditions and what it does when they are broken.
package numconv
