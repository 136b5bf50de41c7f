package loadgen

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseMachineTimes(t *testing.T) {
	t.Parallel()
	tick := func(n int64) time.Duration { return time.Duration(n) * clockTick }
	tests := []struct {
		name    string
		stat    string
		want    machineTimes
		wantErr bool
	}{
		{
			name: "every column",
			stat: "cpu  100 2 30 500 7 1 4 9 50 0\ncpu0 50 1 15 250 3 0 2 4 25 0\ncpu1 50 1 15 250 4 1 2 5 25 0\nintr 1\n",
			// guest (50) is already in user (100), so it is not added again.
			want: machineTimes{steal: tick(9), idle: tick(507), total: tick(653), cpus: 2, ok: true},
		},
		{
			name: "an old kernel's four columns",
			stat: "cpu 10 0 5 85\ncpu0 10 0 5 85\n",
			want: machineTimes{idle: tick(85), total: tick(100), cpus: 1, ok: true},
		},
		{
			name: "no per-processor lines",
			stat: "cpu 10 0 5 85\nintr 1\ncpufreq 3\n",
			want: machineTimes{idle: tick(85), total: tick(100), ok: true},
		},
		{name: "not the cpu line first", stat: "intr 1\ncpu 1 2 3 4\n", wantErr: true},
		{name: "too few columns", stat: "cpu 1 2 3\n", wantErr: true},
		{name: "not a number", stat: "cpu 1 x 3 4\n", wantErr: true},
		{name: "empty", stat: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseMachineTimes([]byte(tt.stat))
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

// TestMachineLoad splits the machine's time between two samples into the measured processes',
// everyone else's, the hypervisor's and nobody's.
func TestMachineLoad(t *testing.T) {
	t.Parallel()
	s := time.Second
	start := time.Now()
	before := cpuSample{self: s, children: 0, alive: s, postgres: 2 * s, ok: true,
		machine: machineTimes{steal: s, idle: 20 * s, total: 31 * s, cpus: 2, at: start, ok: true}}
	// Over 5 s of two processors (10 s of their time): the measured processes took 4 s (self
	// 2, a child that ended 1, a child still running 0, PostgreSQL 1), the hypervisor 1 s, 4 s
	// went unused, and someone else had the last second.
	after := cpuSample{self: 3 * s, children: s, alive: s, postgres: 3 * s, ok: true,
		machine: machineTimes{steal: 2 * s, idle: 24 * s, total: 41 * s, cpus: 2, at: start.Add(5 * s), ok: true}}
	require.Equal(t, &MachineLoad{Measured: 0.4, Others: 0.1, Steal: 0.1, Idle: 0.4}, machineLoad(before, after))

	// The whole is the elapsed time, not the sum of /proc/stat's columns, which fall short of
	// it when busy time is sampled by ticks: with the columns 5% short, the shares still make
	// up the whole.
	short := after
	short.machine.total = 40*s + s/2
	require.Equal(t, &MachineLoad{Measured: 0.4, Others: 0.1, Steal: 0.1, Idle: 0.4}, machineLoad(before, short))

	// Samples taken apart can put the measured processes a little above what the others
	// left; no one else then gets a negative share.
	quiet := after
	quiet.machine.idle = 25*s + s/2
	require.Equal(t, 0.0, machineLoad(before, quiet).Others)

	// Without the processors' count or the moments, the columns' sum is the whole.
	noCount := after
	noCount.machine.cpus = 0
	require.Equal(t, &MachineLoad{Measured: 0.4, Others: 0.1, Steal: 0.1, Idle: 0.4}, machineLoad(before, noCount))

	noMachine := after
	noMachine.machine = machineTimes{}
	require.Nil(t, machineLoad(before, noMachine))
	require.Nil(t, machineLoad(cpuSample{}, after))
}

// TestReadMachineTimes reads this machine's /proc/stat, where there is one: time goes on.
func TestReadMachineTimes(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("/proc/stat is Linux's")
	}
	first, ok := readMachineTimes()
	require.True(t, ok)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		next, ok := readMachineTimes()
		require.True(t, ok)
		require.GreaterOrEqual(t, next.total, first.total)
		if next.total > first.total {
			require.GreaterOrEqual(t, next.idle+next.steal, first.idle+first.steal)
			require.Positive(t, next.cpus)
			require.True(t, next.at.After(first.at))
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the machine's time did not advance in 5 s")
}
