package bench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// Measurement is the median wall time of several runs of one script on one engine.
type Measurement struct {
	Median time.Duration
	Runs   []time.Duration
}

// Check runs a script once on an engine and verifies its value.
func Check(ctx context.Context, e Engine, s Script) error {
	got, err := e.Run(ctx, s.Source)
	if err != nil {
		return fmt.Errorf("%s on %s: %w", s.Name, e.Name(), err)
	}
	if got != s.Expected {
		return fmt.Errorf("%s on %s: %w: got %s, want %s", s.Name, e.Name(), ErrWrongValue, got, s.Expected)
	}
	return nil
}

// Time runs source once on an engine and returns how long it took, compile included.
func Time(ctx context.Context, e Engine, source string) (time.Duration, error) {
	start := time.Now()
	if _, err := e.Run(ctx, source); err != nil {
		return 0, fmt.Errorf("%s: %w", e.Name(), err)
	}
	return time.Since(start), nil
}

// Median returns the median of durations (the mean of the middle two for an even count);
// 0 for none.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Geomean returns the geometric mean of positive ratios; NaN for none.
func Geomean(ratios []float64) float64 {
	if len(ratios) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, r := range ratios {
		sum += math.Log(r)
	}
	return math.Exp(sum / float64(len(ratios)))
}
