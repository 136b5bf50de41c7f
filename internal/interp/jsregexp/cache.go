package jsregexp

import (
	"container/list"
	"sync"
	"unsafe"
)

// CacheSize is how many compiled expressions Compile keeps, by source and flags, least
// recently used first out. Compiling takes tens to hundreds of microseconds, and a regular
// expression literal in a loop or a function body is compiled on every evaluation. A markdown
// converter evaluates a few hundred distinct expressions per call, and a validation library
// holds some 700 (one per locale and format), which it evaluates as its functions are
// called: a cache smaller than a library's working set evicts each expression before its
// next use. A typical compiled expression takes about 3 KB.
const CacheSize = 2048

// cacheKey identifies a compilation: the source's UTF-16 code units and the flags.
type cacheKey struct {
	source string // the code units' bytes
	flags  Flags
}

type cacheEntry struct {
	key cacheKey
	re  *Regexp
}

// compileCache is a small LRU of successful compilations, safe for concurrent use. A
// *Regexp is immutable, so one value serves every caller.
type compileCache struct {
	mu    sync.Mutex
	order *list.List // front = most recent; values are *cacheEntry
	items map[cacheKey]*list.Element
	size  int
}

var cache = newCompileCache(CacheSize)

// newCompileCache makes an empty cache of at most size entries. Its table grows with the
// entries rather than being sized for size up front: a table for CacheSize entries takes
// some 160 KB, which every garbage collection cycle of the process would scan, even while
// the cache is nearly empty.
func newCompileCache(size int) *compileCache {
	return &compileCache{order: list.New(), items: map[cacheKey]*list.Element{}, size: size}
}

func keyOf(source []uint16, flags Flags) cacheKey {
	return cacheKey{source: string(sourceBytes(source)), flags: flags}
}

// lookupKeyOf is keyOf sharing the memory of source, for a lookup, which does not keep its
// key: a cache hit copies nothing.
func lookupKeyOf(source []uint16, flags Flags) cacheKey {
	b := sourceBytes(source)
	return cacheKey{source: unsafe.String(unsafe.SliceData(b), len(b)), flags: flags}
}

// sourceBytes returns the bytes of the code units of source.
func sourceBytes(source []uint16) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(source))), 2*len(source))
}

func (c *compileCache) get(k cacheKey) *Regexp {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry).re
}

func (c *compileCache) put(k cacheKey, re *Regexp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		c.order.MoveToFront(el)
		return
	}
	c.items[k] = c.order.PushFront(&cacheEntry{key: k, re: re})
	for c.order.Len() > c.size {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*cacheEntry).key)
	}
}
