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
