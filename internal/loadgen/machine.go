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
	// Others is the share of every other process on the machine, the kernel's threads
	// included (on a quiet machine a few percent: the disk's flushes of PostgreSQL's commits).
	Others float64 `json:"others"`
	// Steal is the share the hypervisor gave to other virtual machines while this one had work
	// to run (steal time); 0 on bare metal.
	Steal float64 `json:"steal"`
	// Idle is the share no one used (waits for the disk included).
	Idle float64 `json:"idle"`
}

// machineTimes is the processor time the whole machine spent up to one moment, summed over
// its processors (the first line of /proc/stat), and when it was read.
type machineTimes struct {
	// steal is the time taken by the hypervisor, idle the time no one ran (iowait
	// included), total every column but the guest ones (which user time already counts).
	steal, idle, total time.Duration
	// cpus is the machine's processors (the cpuN lines), at the moment of the reading
	// (monotonic): the machine's whole time between two readings is the time between them
	// times cpus.
	cpus int
	at   time.Time
	ok   bool
}

// readMachineTimes reads /proc/stat; ok is false where there is none.
func readMachineTimes() (machineTimes, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineTimes{}, false
	}
	m, err := parseMachineTimes(b)
	m.at = time.Now()
	return m, err == nil
}

// parseMachineTimes reads the aggregate "cpu" line of /proc/stat: user, nice, system, idle,
// iowait, irq, softirq, steal, guest, guest_nice, in clock ticks, and counts the per-processor
// lines (cpu0, cpu1...) that follow it. Kernels older than 2.6.11 give fewer columns; the
// missing ones count as 0.
func parseMachineTimes(stat []byte) (machineTimes, error) {
	line, rest, _ := bytes.Cut(stat, []byte("\n"))
	cpus := 0
	for len(rest) > 0 {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		if id, ok := bytes.CutPrefix(l, []byte("cpu")); ok && len(id) > 0 && id[0] >= '0' && id[0] <= '9' {
			cpus++
		}
	}
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
		steal: tick(col[7]),
		idle:  tick(col[3] + col[4]),
		total: tick(total),
		cpus:  cpus,
		ok:    true,
	}, nil
}

// machineLoad is how the machine's time between two samples was spent; nil when either
// sample lacks the machine's or the measured processes' times.
//
// The whole is the time between the samples times the processors, and Others what is left of
// it once the measured processes', the hypervisor's and the idle time are taken out. The sum
// of /proc/stat's columns is not that whole: where the kernel samples busy time by ticks
// while it measures idle time (its tick stops while a processor idles), the columns need not
// add up to the elapsed time. Under calls10 they summed to about 5% less, so that shares of
// their sum added up to more than the whole, while the processes' own times plus the idle
// time made it up to within 1%.
func machineLoad(before, after cpuSample) *MachineLoad {
	if !before.ok || !after.ok || !before.machine.ok || !after.machine.ok {
		return nil
	}
	whole := after.machine.total - before.machine.total
	if cpus := after.machine.cpus; cpus > 0 && !before.machine.at.IsZero() && !after.machine.at.IsZero() {
		whole = after.machine.at.Sub(before.machine.at) * time.Duration(cpus)
	}
	if whole <= 0 {
		return nil
	}
	share := func(d time.Duration) float64 { return max(0, float64(d)/float64(whole)) }
	measured := (after.self + after.children + after.alive + after.postgres) -
		(before.self + before.children + before.alive + before.postgres)
	steal := after.machine.steal - before.machine.steal
	idle := after.machine.idle - before.machine.idle
	return &MachineLoad{
		Measured: share(measured),
		// The processes' times and /proc/stat are read apart and rounded to ticks, so what
		// is left can come out a little below zero on an otherwise idle machine.
		Others: share(whole - measured - steal - idle),
		Steal:  share(steal),
		Idle:   share(idle),
	}
}
