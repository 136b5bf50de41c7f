//go:build amd64 || arm64

package interp

import "unsafe"

// prefetch asks the processor to bring the cache line at p into its caches, without waiting
// for it and without faulting on any address. A walk of a heap larger than the caches uses it
// to start loading the objects it will visit next while it works on the current one.
//
//go:noescape
func prefetch(p unsafe.Pointer)
