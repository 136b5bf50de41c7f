package benchcpu

import "testing"

func TestElapsedCountsWork(t *testing.T) {
	t.Parallel()
	c := Start()
	x := 0
	for i := range 50_000_000 {
		x ^= i * 31
	}
	if c.Elapsed() <= 0 {
		t.Fatalf("no CPU time counted for a busy loop (%d)", x)
	}
}
