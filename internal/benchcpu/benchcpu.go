// Package benchcpu measures the CPU time a benchmark's process spends (user and system, all
// threads, garbage collection included), so that benchmarks can report figures per second of
// CPU, which a loaded machine disturbs less than wall-clock time.
package benchcpu

import (
	"syscall"
	"testing"
	"time"
)

// Clock is the process's CPU time when it was started.
type Clock struct{ start time.Duration }

// Start reads the process's CPU time.
func Start() Clock { return Clock{start: processCPU()} }

// Elapsed is the CPU time the process spent since Start.
func (c Clock) Elapsed() time.Duration { return processCPU() - c.start }

// ReportThroughput adds the metric "MB/cpu-s": bytesPerOp times b.N over the CPU time spent.
func (c Clock) ReportThroughput(b *testing.B, bytesPerOp int) {
	if d := c.Elapsed(); d > 0 {
		b.ReportMetric(float64(bytesPerOp)*float64(b.N)/d.Seconds()/1e6, "MB/cpu-s")
	}
}

// ReportPerOp adds the metric "cpu-ns/op": the CPU time spent per operation.
func (c Clock) ReportPerOp(b *testing.B) {
	if d := c.Elapsed(); d > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
