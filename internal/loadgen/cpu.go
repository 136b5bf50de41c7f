package loadgen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// CPUPerRun is the processor time one run cost, split between the client side and
// PostgreSQL. Unlike rates, these figures hold on a busy machine: they say how far a scenario
// is from the ceiling when both are CPU-bound on the same cores.
type CPUPerRun struct {
	// Client is the generator's process: for a scenario, the service it started in process
	// (codemode dev: API, worker, interpreter) and the generator's own HTTP client and toolset;
	// for the ceiling, pgbench.
	Client time.Duration `json:"client"`
	// Postgres is every process of the PostgreSQL cluster: backends, WAL writer, checkpointer.
	Postgres time.Duration `json:"postgres"`
}

// Total is Client plus Postgres.
func (c CPUPerRun) Total() time.Duration { return c.Client + c.Postgres }

// cpuMeter reads the processor time spent so far by this process, its waited-for children
// (pgbench) and a local PostgreSQL cluster, from /proc. It works on Linux with the database on
// this machine; elsewhere ok is false and no CPU figures are reported.
type cpuMeter struct {
	postmaster int
}

// cpuSample is the processor time spent up to one moment.
type cpuSample struct {
	// self is this process's time, children its children's that ended and were waited for
	// (pgbench), alive its children's still running (worker processes started with -workers).
	self, children, alive, postgres time.Duration
	// machine is the machine's time, from /proc/stat.
	machine machineTimes
	ok      bool
}

// clockTick is the unit of /proc/<pid>/stat times (USER_HZ, 100 on every Linux platform Go
// supports).
const clockTick = 10 * time.Millisecond

// newCPUMeter finds the cluster's postmaster as the parent of conn's backend.
func newCPUMeter(ctx context.Context, conn *pgx.Conn) *cpuMeter {
	var backend int
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		return nil
	}
	st, err := readStat(backend)
	if err != nil {
		return nil
	}
	return &cpuMeter{postmaster: st.ppid}
}

// sample reads the times now.
func (m *cpuMeter) sample() cpuSample {
	if m == nil {
		return cpuSample{}
	}
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return cpuSample{}
	}
	pg, ok := m.postgres()
	if !ok {
		return cpuSample{}
	}
	alive, ok := childrenTime(os.Getpid())
	if !ok {
		return cpuSample{}
	}
	machine, _ := readMachineTimes()
	return cpuSample{self: rusageTime(self), children: rusageTime(children), alive: alive, postgres: pg, machine: machine, ok: true}
}

// postgres sums the postmaster's own time, the time of its children that ended (cutime and
// cstime), and the time of the children alive now.
//
// A child that ends during the scan of /proc would be missed (its time joins cutime after the
// postmaster was read and it is gone from /proc) or counted twice, and backends end in bursts
// just when a sample is taken: when pgbench or the service's pool disconnects. So the scan is
// repeated until the postmaster's reaped time is the same before and after it.
func (m *cpuMeter) postgres() (time.Duration, bool) {
	const attempts = 100
	for range attempts {
		pm, err := readStat(m.postmaster)
		if err != nil {
			return 0, false
		}
		alive, ok := childrenTime(m.postmaster)
		if !ok {
			return 0, false
		}
		again, err := readStat(m.postmaster)
		if err != nil {
			return 0, false
		}
		if again.cutime+again.cstime == pm.cutime+pm.cstime {
			return pm.utime + pm.stime + pm.cutime + pm.cstime + alive, true
		}
	}
	return 0, false
}

// childrenTime sums the time of the children of parent alive now.
func childrenTime(parent int) (time.Duration, bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	var total time.Duration
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == parent {
			continue
		}
		st, err := readStat(pid)
		if err != nil || st.ppid != parent {
			continue
		}
		total += st.utime + st.stime
	}
	return total, true
}

// perRun is the time between two samples divided by runs; client says whether this process
// (a scenario) or its children (the ceiling's pgbench) are the client.
func perRun(before, after cpuSample, runs int, childrenAreClient bool) *CPUPerRun {
	if !before.ok || !after.ok || runs <= 0 {
		return nil
	}
	client := after.self - before.self
	if childrenAreClient {
		client = after.children - before.children
	}
	return &CPUPerRun{
		Client:   client / time.Duration(runs),
		Postgres: (after.postgres - before.postgres) / time.Duration(runs),
	}
}

func rusageTime(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

type procStat struct {
	ppid                         int
	utime, stime, cutime, cstime time.Duration
}

// readStat reads the fields of /proc/<pid>/stat that cpuMeter needs. The command name (the
// second field) is in parentheses and may hold spaces, so fields are counted after its end.
func readStat(pid int) (procStat, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, err
	}
	s := string(b)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return procStat{}, fmt.Errorf("loadgen: unexpected /proc/%d/stat", pid)
	}
	f := strings.Fields(s[end+1:])
	// f[0] is field 3 (state); ppid is field 4, utime..cstime fields 14..17.
	if len(f) < 15 {
		return procStat{}, fmt.Errorf("loadgen: short /proc/%d/stat", pid)
	}
	num := func(i int) int64 { n, _ := strconv.ParseInt(f[i], 10, 64); return n }
	tick := func(i int) time.Duration { return time.Duration(num(i)) * clockTick }
	return procStat{ppid: int(num(1)), utime: tick(11), stime: tick(12), cutime: tick(13), cstime: tick(14)}, nil
}
