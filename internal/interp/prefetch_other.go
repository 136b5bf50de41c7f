//go:build !amd64 && !arm64

package interp

import "unsafe"

// prefetch does nothing on this architecture (see prefetch_asm.go).
func prefetch(p unsafe.Pointer) {}
