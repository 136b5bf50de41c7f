//go:build !codemode_interp

package main

// newEngine reports that this build has no interpreter: build with the codemode_interp tag
// once package interp provides its embedding API.
func newEngine() (engine, error) { return nil, ErrNoEngine }
