//go:build !codemode_interp

package bench

// NewOurs returns codemode's interpreter as an Engine. This build has none: build with the
// codemode_interp tag once package interp provides its embedding API.
func NewOurs() (Engine, error) { return nil, ErrEngineUnavailable }
