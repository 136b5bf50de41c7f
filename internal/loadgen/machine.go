package loadgen

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strconv"
	"time"
)

// MachineLoad is how the machine's processors were spent while a scenario ran (its warm-up
// included), each a fraction of all of them. Latency on a CPU-bound machine depends on what
// else runs there, so a figure taken while Others or Steal was more than a few percent was
// taken on a machine busy with other work, and compares only with figures taken alike.
type MachineLoad struct {
	// Measured is the share of what is measured: this process (with the service it started),
	// its children (pgbench, the worker processes of -workers) and PostgreSQL.
	Measured float64 `json:"measured"`
	// Others is the share of every other process on the machine.
	Others float64 `json:"others"`
	// Steal is the share the hypervisor gave to other virtual machines while this one had work
	// to run (steal time); 0 on bare metal.
	Steal float64 `json:"steal"`
	// Idle is the share no one used (waits for the disk included).
	Idle float64 `json:"idle"`
}

// machineTimes is the processor time the whole machine spent up to one moment, summed over
// its processors (the first line of /proc/stat).
type machineTimes struct {
	// busy is the time processes ran (user, nice and system time), steal the time taken by
	// the hypervisor, idle the time no one ran (iowait included), total every column but the
	// guest ones (which user time already counts).
	busy, steal, idle, total time.Duration
	ok                       bool
}

// readMachineTimes reads /proc/stat; ok is false where there is none.
func readMachineTimes() (machineTimes, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineTimes{}, false
	}
	m, err := parseMachineTimes(b)
	return m, err == nil
}

// parseMachineTimes reads the aggregate "cpu" line of /proc/stat: user, nice, system, idle,
// iowait, irq, softirq, steal, guest, guest_nice, in clock ticks. Kernels older than 2.6.11
// give fewer columns; the missing ones count as 0.
func parseMachineTimes(stat []byte) (machineTimes, error) {
	line, _, _ := bytes.Cut(stat, []byte("\n"))
	sc := bufio.NewScanner(bytes.NewReader(line))
	sc.Split(bufio.ScanWords)
	if !sc.Scan() || sc.Text() != "cpu" {
		return machineTimes{}, errors.New("loadgen: /proc/stat does not start with the cpu line")
	}
	var col [8]int64 // user nice system idle iowait irq softirq steal
	n := 0
	for n < len(col) && sc.Scan() {
		v, err := strconv.ParseInt(sc.Text(), 10, 64)
		if err != nil {
			return machineTimes{}, errors.New("loadgen: unexpected /proc/stat cpu line")
		}
		col[n] = v
		n++
	}
	if n < 4 {
		return machineTimes{}, errors.New("loadgen: short /proc/stat cpu line")
	}
	tick := func(v int64) time.Duration { return time.Duration(v) * clockTick }
	var total int64
	for _, v := range col {
		total += v
	}
	return machineTimes{
		busy:  tick(col[0] + col[1] + col[2]),
		steal: tick(col[7]),
		idle:  tick(col[3] + col[4]),
		total: tick(total),
		ok:    true,
	}, nil
}

// machineLoad is how the machine's time between two samples was spent; nil when either
// sample lacks the machine's or the measured processes' times.
func machineLoad(before, after cpuSample) *MachineLoad {
	if !before.ok || !after.ok || !before.machine.ok || !after.machine.ok {
		return nil
	}
	total := after.machine.total - before.machine.total
	if total <= 0 {
		return nil
	}
	share := func(d time.Duration) float64 { return max(0, float64(d)/float64(total)) }
	measured := (after.self + after.children + after.alive + after.postgres) -
		(before.self + before.children + before.alive + before.postgres)
	busy := after.machine.busy - before.machine.busy
	return &MachineLoad{
		Measured: share(measured),
		// Per-process times and /proc/stat are sampled apart and rounded to ticks, so the
		// difference can come out a little below zero on an otherwise idle machine.
		Others: share(busy - measured),
		Steal:  share(after.machine.steal - before.machine.steal),
		Idle:   share(after.machine.idle - before.machine.idle),
	}
}
