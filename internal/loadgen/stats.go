package loadgen

import (
	"sort"
	"time"
)

// Latency summarizes a set of durations.
type Latency struct {
	P50 time.Duration `json:"p50"`
	P90 time.Duration `json:"p90"`
	P99 time.Duration `json:"p99"`
	Max time.Duration `json:"max"`
}

// summarize returns the percentiles of ds (nearest rank); ds is sorted in place.
func summarize(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(p float64) time.Duration {
		i := int(p*float64(len(ds))+0.5) - 1
		return ds[min(max(i, 0), len(ds)-1)]
	}
	return Latency{P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: ds[len(ds)-1]}
}
