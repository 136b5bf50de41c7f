package jsregexp

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCompileCacheReuses(t *testing.T) {
	t.Parallel()
	f, err := ParseFlags("gi")
	require.NoError(t, err)
	a, err := Compile(u16(`cache-reuse-(\d+)`), f)
	require.NoError(t, err)
	b, err := Compile(u16(`cache-reuse-(\d+)`), f)
	require.NoError(t, err)
	require.Same(t, a, b)
	// Other flags are another compilation.
	c, err := Compile(u16(`cache-reuse-(\d+)`), Flags{})
	require.NoError(t, err)
	require.NotSame(t, a, c)
	require.False(t, c.Flags().Global)
}

func TestCompileCacheEvictsLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	c := newCompileCache(2)
	re := &Regexp{}
	k1, k2, k3 := keyOf(u16("a"), Flags{}), keyOf(u16("b"), Flags{}), keyOf(u16("c"), Flags{})
	c.put(k1, re)
	c.put(k2, re)
	require.Same(t, re, c.get(k1)) // k1 is now the most recent
	c.put(k3, re)
	require.Nil(t, c.get(k2))
	require.Same(t, re, c.get(k1))
	require.Same(t, re, c.get(k3))
	require.Equal(t, 2, c.order.Len())
}

func TestCompileCacheConcurrent(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 300 {
				src := u16(fmt.Sprintf(`concurrent-%d-%d`, g%2, i%(CacheSize+7)))
				re, err := Compile(src, Flags{})
				if err != nil || re.NumGroups() != 0 {
					t.Errorf("compile %d: %v", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestCompileCacheHoldsLibrary checks that the cache keeps the working set of a library with
// hundreds of distinct expressions (a validation library has about 700): the first one is
// still cached after all of them were compiled. Not parallel: other tests fill the cache.
func TestCompileCacheHoldsLibrary(t *testing.T) {
	first, err := Compile(u16(`library-0-\d+`), Flags{})
	require.NoError(t, err)
	for i := 1; i < 1000; i++ {
		_, err := Compile(u16(fmt.Sprintf(`library-%d-\d+`, i)), Flags{})
		require.NoError(t, err)
	}
	again, err := Compile(u16(`library-0-\d+`), Flags{})
	require.NoError(t, err)
	require.Same(t, first, again)
}
