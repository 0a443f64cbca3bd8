package timing

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/regions"
)

// runCPU runs bin as run does and also returns the CPU time the kernel
// charged the whole process (user + system), the oracle for CPUNs.
func runCPU(t *testing.T, b *Build, bin string, args ...string) (*Times, int64) {
	t.Helper()
	tm, cpu, _ := runAll(t, b, bin, args...)
	return tm, cpu
}

// runAll runs bin with args and gives the times collected, the CPU time the kernel charged the
// whole process (user + system) and the stretches the program noted on its standard output
// (testdata/slept).
func runAll(t *testing.T, b *Build, bin string, args ...string) (*Times, int64, noted) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), EnvDir+"="+dir)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s%s", bin, args, err, stdout.String(), stderr.String())
	}
	tm, err := b.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := noted{}
	for _, line := range strings.Split(stdout.String(), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || f[0] != "slept" {
			continue
		}
		start, err1 := strconv.ParseInt(f[2], 10, 64)
		end, err2 := strconv.ParseInt(f[3], 10, 64)
		if err1 != nil || err2 != nil || end < start {
			t.Fatalf("%s %v: bad note %q", bin, args, line)
		}
		seen[f[1]] = append(seen[f[1]], [2]int64{start, end})
	}
	ps := cmd.ProcessState
	return tm, (ps.UserTime() + ps.SystemTime()).Nanoseconds(), seen
}

// noted are the stretches of code a test program timed itself (package slept in testdata:
// mostly its sleeps), by label (the region they ran in), as [start, end] nanoseconds on its
// monotonic clock. A region's probes are outside the stretches it holds, so its time is at
// least theirs, and more by its probes and other code only: a loaded machine's overshooting
// sleeps are in both.
type noted map[string][][2]int64

// sum is the nanoseconds noted under label, summed over the stretches.
func (n noted) sum(label string) int64 {
	var s int64
	for _, x := range n[label] {
		s += x[1] - x[0]
	}
	return s
}

// union is the nanoseconds during which some stretch noted under label ran.
func (n noted) union(label string) int64 {
	xs := slices.Clone(n[label])
	slices.SortFunc(xs, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	var s, reach int64
	for i, x := range xs {
		switch {
		case i == 0 || x[0] >= reach:
			s += x[1] - x[0]
			reach = x[1]
		case x[1] > reach:
			s += x[1] - reach
			reach = x[1]
		}
	}
	return s
}

// near reports whether a region's time got lies between the time seen in the stretches it
// holds and that plus slack ms (its probes and the code around the sleeps; a preemption there),
// and is at least the nominal want ms of its sleeps.
func near(got, seen int64, want, slack float64) bool {
	return ms(got) >= max(want, ms(seen)) && ms(got) <= ms(seen)+slack
}

func regionByText(t *testing.T, regs []regions.Region, fn, prefix string) int {
	t.Helper()
	for _, r := range regs {
		if r.Func == fn && strings.HasPrefix(r.Text, prefix) {
			return r.ID
		}
	}
	t.Fatalf("no region %q... in %s: %+v", prefix, fn, regs)
	return 0
}

// sum adds up the times of the regions ids: a worker's region and that of
// the loop it calls (a region of its own, nested in it).
func sum(tm *Times, ids ...int) RegionTime {
	var r RegionTime
	for _, id := range ids {
		x := tm.Regions[id]
		r.SelfNs += x.SelfNs
		r.CPUNs += x.CPUNs
		r.Entries += x.Entries
	}
	return r
}

// TestCPUWaiting checks the CPU time of a region whose two goroutines
// mostly wait: each computes a few milliseconds, then sleeps 30 ms and
// blocks on a channel until main closes it at 60 ms. Summed over the two
// goroutines the region (with the loop nested in it) holds about 120 ms of
// wall time (at least the two sleeps) but only their few
// milliseconds of computing: the CPU time must be under a fifth of the
// summed wall time, and no more than the kernel charged the process. Up to
// three runs, as a loaded machine may stretch the computing part.
func TestCPUWaiting(t *testing.T) {
	b, bin, regs := build(t, "testdata/cpu")
	if !b.CPU {
		t.Fatalf("a program starting goroutines reads no CPU clocks")
	}
	id, loop := regionByText(t, regs, "worker", "if *w"), regionByText(t, regs, "spin", "for")
	var last string
	for try := 0; try < 3; try++ {
		tm, proc := runCPU(t, b, bin, "-W")
		r := sum(tm, id, loop)
		if !tm.CPU || !tm.Concurrent || len(tm.Issues) > 0 || r.Entries != 4 {
			t.Fatalf("cpu %v, concurrent %v, issues %v, regions %+v", tm.CPU, tm.Concurrent, tm.Issues, r)
		}
		if ms(r.SelfNs) < 60 {
			t.Fatalf("summed wall time %.1f ms, want at least the two sleeps' 60", ms(r.SelfNs))
		}
		if r.CPUNs > 0 && float64(r.CPUNs) < 0.2*float64(r.SelfNs) && r.CPUNs <= proc {
			return
		}
		last = fmt.Sprintf("CPU %.1f ms, summed wall %.1f ms, process CPU %.1f ms", ms(r.CPUNs), ms(r.SelfNs), ms(proc))
		t.Log(last)
	}
	t.Errorf("waiting goroutines: %s; want CPU under a fifth of the summed wall time and within the process's", last)
}

// TestCPUComputing checks the CPU time of a region (with the loop nested
// in it) whose two goroutines only compute (about 150 ms each here, no
// allocation): it must be the bulk of what the kernel charged the whole
// process (at least 90 %: the rest is start-up, the runtime and main) and
// never more (plus 2 ms for the clocks' granularity). It matches the
// summed wall time within 15 % only when each goroutine has a core to
// itself: on a loaded machine they also wait for one, which is in the
// summed wall time and not in CPU time (at load 8 on 2 cores the summed wall
// time was twice the CPU time, the CPU time still within 2 % of the
// kernel's). That comparison is made when the load average is under 1;
// otherwise the summed wall time must be at least the CPU time. Up to three
// runs.
func TestCPUComputing(t *testing.T) {
	b, bin, regs := build(t, "testdata/cpu")
	id, loop := regionByText(t, regs, "worker", "if *c"), regionByText(t, regs, "spin", "for")
	var last string
	for try := 0; try < 3; try++ {
		quiet := loadAverage(t) < 1
		tm, proc := runCPU(t, b, bin, "-C")
		r := sum(tm, id, loop)
		if !tm.CPU || len(tm.Issues) > 0 || r.Entries != 4 {
			t.Fatalf("cpu %v, issues %v, region %+v", tm.CPU, tm.Issues, r)
		}
		cpu, self, p := float64(r.CPUNs), float64(r.SelfNs), float64(proc)
		wall := cpu <= 1.15*self && (!quiet || cpu >= 0.85*self)
		if cpu >= 0.9*p && cpu <= p+2e6 && wall {
			return
		}
		last = fmt.Sprintf("CPU %.1f ms, summed wall %.1f ms, process CPU %.1f ms (quiet: %v)", ms(r.CPUNs), ms(r.SelfNs), ms(proc), quiet)
		t.Log(last)
	}
	t.Errorf("computing goroutines: %s; want CPU at least 90 %% of the process's, and within 15 %% of the summed wall time on a quiet machine", last)
}

// loadAverage is the machine's one-minute load average (0 when it cannot be read).
func loadAverage(t *testing.T) float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	x, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		t.Fatalf("/proc/loadavg: %v", err)
	}
	return x
}
