package instrument

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// TimingFile is the name of the file the timing build adds to each package of a timed function.
const TimingFile = "zz_augur_time.go"

// EnvHz names the environment variable that sets the timing build's CPU sampling rate.
const EnvHz = "AUGUR_CPU_HZ"

// rateMessage is what the runtime prints when go test starts its CPU profile after the timing
// build set the rate: the rate set first stays. RunExec drops the line.
const rateMessage = "runtime: cannot set cpu profile rate until previous profile has finished."

// Each timed function has slots counters, slotStride uint64s (a cache line) apart, and a call
// increments the one its goroutine's stack address picks: calls on several goroutines at once
// (on different stacks) then mostly neither lose increments nor pass the line between
// processors, at the cost of a shift and a mask; the slots are added up when read.
const (
	slots      = 64
	slotStride = 8
)

// invocationMagic starts every invocation counter file, laid out as counter files are.
const invocationMagic = "AUGURINV "

// A Timing is what a timed run gives: the CPU time sampled in each timed function's frames per
// line of its source, and how often each was entered, on a build without the counting probes.
type Timing struct {
	*Measurement
	// Invocations counts the calls of each timed function (by frontend.Func.Name).
	Invocations map[string]uint64
	// CPU is the CPU profile: each timed function's samples per line (see profile.Lines).
	CPU *profile.CPU
	// CPUTimeNS is the test binary's CPU time, user and system, measured by the kernel; 0 when
	// it could not be (the samples' period then stands for the time of each).
	CPUTimeNS int64
}

// Time runs a go test workload on the user's code as it is, but for one counter increment at
// the entry of each function of fns (so that its calls are known), with a CPU profile. The
// statement-level probes of Measure cost more than many statements they count (+70 % on a
// function of 100 ns), so time measured under them is not the time of the code users run; the
// timing build's one increment per call costs about a nanosecond. Positions in the CPU profile
// are the user's own: the timing build changes no line. The increment is a plain one, as an
// atomic one would cost several nanoseconds, into one of 64 slots picked by the goroutine's stack
// (see slots): calls on several goroutines at once lose a count only when two stacks pick the
// same slot, which makes their time per call come out high.
//
// The test binary runs under "go test -exec 'self ExecCommand'" (self is a program that calls
// RunExec when given ExecCommand: augur): the kernel's count of its CPU time is exact, so a
// function's time is that total times its share of the samples, whose error is binomial, much
// smaller for a function that takes most of the time than the Poisson error of a sample count.
//
// hz is the sampling rate asked for (go test's own is 100 Hz: a second of workload gives a
// function about a hundred samples). The timing build sets it in the init function of the first
// package timed, before go test starts its profile (whose own rate the runtime then refuses, as
// RunExec does not show). On Linux CPU timers fire on the kernel's tick (often 250 Hz): a faster
// rate gives as many samples as ticks, and those that do not come are lost, not added up; that
// costs nothing here, because the samples only share out the exact CPU time, but it would make
// the samples' own period too short, so a run whose CPU time could not be had is an error.
func Time(prog *frontend.Program, fns []*frontend.Func, w Workload, self string, hz int) (*Timing, error) {
	if err := CheckTimed(w.Args); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "augur-time-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	overlay, pkgs, cgo, err := timingBuild(prog, fns, filepath.Join(work, "src"))
	if err != nil {
		return nil, err
	}
	noteCgo(w.Stderr, cgo, "timed")
	counters := filepath.Join(work, "counters")
	if err := os.Mkdir(counters, 0o755); err != nil {
		return nil, err
	}
	w.cpuFile = filepath.Join(work, "cpu.pprof")
	m, err := runGo(w, []string{"-overlay=" + overlay, "-exec=" + strconv.Quote(self) + " " + ExecCommand},
		[]string{EnvDir + "=" + counters, EnvHz + "=" + strconv.Itoa(hz)})
	if err != nil {
		return nil, err
	}
	t := &Timing{Measurement: m, Invocations: map[string]uint64{}}
	if m.ExitCode != 0 || m.Signal != nil {
		return t, nil
	}
	if t.Processes, err = readInvocations(counters, pkgs, t.Invocations); err != nil {
		return nil, err
	}
	f, err := os.Open(w.cpuFile)
	if err != nil {
		return nil, fmt.Errorf("--time: the workload wrote no CPU profile (%v); go test writes one only when it tests a single package", err)
	}
	defer f.Close()
	names := make([]string, len(fns))
	for i, fn := range fns {
		names[i] = fn.Name
	}
	if t.CPU, err = profile.ReadCPU(f, names); err != nil {
		return nil, fmt.Errorf("--time: %v", err)
	}
	var ok bool
	if t.CPUTimeNS, ok, err = readCPUTime(counters); err != nil {
		return nil, err
	}
	if !ok && hz != 100 {
		return nil, errors.New("--time: the test binary's CPU time was not recorded (it runs under go test -exec augur " + ExecCommand + ")")
	}
	return t, nil
}

// CheckTimed checks that args is a workload Time can run: a go test command without flags Time
// sets itself.
func CheckTimed(args []string) error {
	if err := CheckWorkload(args); err != nil {
		return err
	}
	if args[1] != "test" {
		return errors.New("--time needs a go test workload (it records the CPU profile with go test -cpuprofile); for a program, wrap the run in a test or benchmark")
	}
	if hasFlag(args[2:], "cpuprofile") || hasFlag(args[2:], "exec") {
		return errors.New("--time adds -cpuprofile and -exec itself: remove them from the workload")
	}
	return nil
}

// timingPkg is one package of the timing build: its counter k counts calls of Funcs[k].
type timingPkg struct {
	Path  string   `json:"package"`
	Funcs []string `json:"functions"`
}

// timingBuild writes the timing build of fns into dir: each file holding one of them, with
// "_augurT_c[k·512+_augurT_slot()]++;" after the opening brace of its body (on the brace's line,
// so that no line moves), and one runtime file per package. It returns the overlay's path and
// the functions left out because they are in files that import "C" (see Build.Cgo).
func timingBuild(prog *frontend.Program, fns []*frontend.Func, dir string) (string, []*timingPkg, []string, error) {
	if len(fns) == 0 {
		return "", nil, nil, errors.New("--time: no functions selected")
	}
	fns, cgo := frontend.WithoutCgo(fns)
	type edit struct {
		off int
		k   int
	}
	byPkg := map[string]*timingPkg{}
	edits := map[string][]edit{} // file → insertions
	pkgOf := map[string]*frontend.Func{}
	seen := map[*ast.FuncDecl]bool{}
	for _, fn := range fns {
		if seen[fn.Decl] || fn.Decl.Body == nil {
			continue
		}
		seen[fn.Decl] = true
		tp := byPkg[fn.Pkg.PkgPath]
		if tp == nil {
			tp = &timingPkg{Path: fn.Pkg.PkgPath}
			byPkg[tp.Path] = tp
			pkgOf[tp.Path] = fn
		}
		// The file's own name, not one a //line directive gives (goyacc's output names the
		// grammar).
		tf := prog.Fset.File(fn.Decl.Body.Lbrace)
		edits[tf.Name()] = append(edits[tf.Name()], edit{tf.Offset(fn.Decl.Body.Lbrace) + 1, len(tp.Funcs)})
		tp.Funcs = append(tp.Funcs, fn.Name)
	}
	if len(byPkg) == 0 && len(cgo) > 0 {
		return "", nil, nil, fmt.Errorf("--time: every function selected is in a file that imports \"C\" (%s): the go command compiles such a file from cgo's output, which augur cannot rewrite", strings.Join(cgo, ", "))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, nil, err
	}
	replace := map[string]string{}
	files := make([]string, 0, len(edits))
	for f := range edits {
		files = append(files, f)
	}
	sort.Strings(files)
	for i, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return "", nil, nil, err
		}
		es := edits[name]
		sort.Slice(es, func(a, b int) bool { return es[a].off > es[b].off })
		for _, e := range es {
			if e.off > len(src) || src[e.off-1] != '{' {
				return "", nil, nil, fmt.Errorf("%s: the file changed while augur read it", name)
			}
			inc := "_augurT_c[" + strconv.Itoa(e.k*slotStride*slots) + "+_augurT_slot()]++;"
			src = append(src[:e.off], append([]byte(inc), src[e.off:]...)...)
		}
		dst := filepath.Join(dir, strconv.Itoa(i)+"_"+filepath.Base(name))
		if err := os.WriteFile(dst, src, 0o644); err != nil {
			return "", nil, nil, err
		}
		replace[name] = dst
	}
	paths := make([]string, 0, len(byPkg))
	for p := range byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var pkgs []*timingPkg
	for i, p := range paths {
		tp, fn := byPkg[p], pkgOf[p]
		header, _ := json.Marshal(tp)
		dst := filepath.Join(dir, "rt"+strconv.Itoa(i)+".go")
		if err := os.WriteFile(dst, []byte(timingRuntime(fn.Pkg.Types.Name(), tp, string(header), i == 0)), 0o644); err != nil {
			return "", nil, nil, err
		}
		replace[filepath.Join(filepath.Dir(fn.Pkg.GoFiles[0]), TimingFile)] = dst
		pkgs = append(pkgs, tp)
	}
	ov, _ := json.MarshalIndent(map[string]any{"Replace": replace}, "", " ")
	overlay := filepath.Join(dir, "overlay.json")
	return overlay, pkgs, cgo, os.WriteFile(overlay, ov, 0o644)
}

// timingRuntime renders the runtime file of the timing build: the invocation counters, in a
// memory-mapped file when EnvDir names a directory (so that they survive os.Exit, as the
// counting runtime's do). Every name it declares starts with _augurT_ and every package it uses
// is imported under such a name, so that it cannot clash with the user's.
// Its //go:build go1.22 line is the file's own language version: it builds in a module whose go
// line is older.
func timingRuntime(pkgName string, tp *timingPkg, header string, rate bool) string {
	stem := strings.NewReplacer("/", "_", ".", "_").Replace(tp.Path)
	setRate := ""
	if rate {
		setRate = `
// The CPU profile's rate, set before go test starts the profile at its own.
func init() {
	if hz, err := _augurT_strconv.Atoi(_augurT_os.Getenv(` + strconv.Quote(EnvHz) + `)); err == nil && hz > 0 && hz != 100 {
		_augurT_rt.SetCPUProfileRate(hz)
	}
}
`
	}
	return `// Code generated by augur --time; DO NOT EDIT.

//go:build go1.22

package ` + pkgName + `

import (
	_augurT_os "os"
	_augurT_rt "runtime"
	_augurT_strconv "strconv"
	_augurT_sys "syscall"
	_augurT_unsafe "unsafe"
)

var _ = _augurT_rt.SetCPUProfileRate
` + setRate + `
const _augurT_n = ` + strconv.Itoa(len(tp.Funcs)*slots*slotStride) + `

// _augurT_slot picks the calling goroutine's counter of a function: its stack's 8 KiB page, as
// one of ` + strconv.Itoa(slots) + ` cache lines.
func _augurT_slot() uintptr {
	var b byte
	return uintptr(_augurT_unsafe.Pointer(&b)) >> 13 & ` + strconv.Itoa(slots-1) + ` * ` + strconv.Itoa(slotStride) + `
}

// _augurT_c counts the calls of the timed functions.
var _augurT_c = _augurT_open()

func _augurT_open() *[_augurT_n]uint64 {
	dir := _augurT_os.Getenv(` + strconv.Quote(EnvDir) + `)
	if dir == "" {
		return new([_augurT_n]uint64)
	}
	page := _augurT_os.Getpagesize()
	head := ` + strconv.Quote(header) + `
	hlen := (len(` + strconv.Quote(invocationMagic) + `) + 21 + len(head) + page) / page * page
	hdr := make([]byte, hlen)
	for i := range hdr {
		hdr[i] = '\n'
	}
	copy(hdr, ` + strconv.Quote(invocationMagic) + `+_augurT_strconv.Itoa(hlen)+"\n"+head+"\n")
	base := dir + "/" + ` + strconv.Quote(stem) + ` + "." + _augurT_strconv.Itoa(_augurT_os.Getpid())
	for i := 0; i < 1000; i++ {
		f, err := _augurT_os.OpenFile(base+"."+_augurT_strconv.Itoa(i)+".inv", _augurT_os.O_RDWR|_augurT_os.O_CREATE|_augurT_os.O_EXCL, 0o644)
		if err != nil {
			if _augurT_os.IsExist(err) {
				continue
			}
			break
		}
		_, err = f.Write(hdr)
		if err == nil {
			err = f.Truncate(int64(hlen) + 8*_augurT_n)
		}
		var data []byte
		if err == nil {
			data, err = _augurT_sys.Mmap(int(f.Fd()), int64(hlen), 8*_augurT_n, _augurT_sys.PROT_READ|_augurT_sys.PROT_WRITE, _augurT_sys.MAP_SHARED)
		}
		f.Close()
		if err != nil {
			break
		}
		return (*[_augurT_n]uint64)(_augurT_unsafe.Pointer(&data[0]))
	}
	return new([_augurT_n]uint64)
}
`
}

// readInvocations adds the invocation counters of every process of the timing build into inv
// and says how many counter files it read.
func readInvocations(dir string, pkgs []*timingPkg, inv map[string]uint64) (int, error) {
	want := map[string]*timingPkg{}
	for _, p := range pkgs {
		want[p.Path] = p
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	files := 0
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".inv") {
			continue
		}
		name := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(name)
		if err != nil {
			return files, err
		}
		nl := bytes.IndexByte(data, '\n')
		if !bytes.HasPrefix(data, []byte(invocationMagic)) || nl < 0 {
			return files, fmt.Errorf("%s: not an invocation counter file", name)
		}
		hlen, err := strconv.Atoi(string(data[len(invocationMagic):nl]))
		var tp timingPkg
		if err == nil && hlen <= len(data) {
			err = json.Unmarshal(bytes.TrimSpace(data[nl+1:hlen]), &tp)
		}
		p := want[tp.Path]
		block := slots * slotStride
		if err != nil || hlen > len(data) || p == nil || len(data)-hlen != 8*block*len(p.Funcs) {
			return files, fmt.Errorf("%s: bad invocation counter file", name)
		}
		for k, f := range p.Funcs {
			for j := range block {
				inv[f] += binary.NativeEndian.Uint64(data[hlen+8*(k*block+j):])
			}
		}
		files++
	}
	return files, nil
}

// ExecCommand is the first argument that makes a program built with this package (augur) run
// RunExec: Time passes "go test -exec 'SELF ExecCommand'" so that the test binary runs under it.
const ExecCommand = "__time-exec"

// RunExec runs a test binary (args: the binary and its arguments, as go test -exec gives them)
// and writes the CPU time it used, user and system, in nanoseconds, to a file in the directory
// EnvDir names: the exact total that the CPU profile's samples share out. It returns the
// binary's exit status. Interrupts reach the binary from the process group; RunExec waits.
func RunExec(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "augur "+ExecCommand+": no program to run")
		return 2
	}
	signal.Notify(make(chan os.Signal, 1), os.Interrupt, syscall.SIGTERM)
	cmd := exec.Command(args[0], args[1:]...)
	drop := &dropLine{w: os.Stderr, line: rateMessage}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, drop
	err := cmd.Run()
	os.Stderr.Write(drop.part) // an unfinished last line
	if cmd.ProcessState == nil {
		fmt.Fprintf(os.Stderr, "augur %s: %v\n", ExecCommand, err)
		return 1
	}
	if dir := os.Getenv(EnvDir); dir != "" {
		ns := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Nanoseconds()
		name := filepath.Join(dir, strconv.Itoa(cmd.ProcessState.Pid())+".cputime")
		if err := os.WriteFile(name, []byte(strconv.FormatInt(ns, 10)+"\n"), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "augur %s: %v\n", ExecCommand, err)
		}
	}
	if code := cmd.ProcessState.ExitCode(); code >= 0 {
		return code
	}
	return 1
}

// readCPUTime adds up the CPU time RunExec recorded in dir; ok is false when it recorded none.
func readCPUTime(dir string) (ns int64, ok bool, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.cputime"))
	if err != nil {
		return 0, false, err
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return 0, false, err
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		if err != nil {
			return 0, false, fmt.Errorf("%s: %v", name, err)
		}
		ns += v
	}
	return ns, len(names) > 0, nil
}

// dropLine passes what is written to it on to w, but for the lines equal to line.
type dropLine struct {
	w    io.Writer
	line string
	part []byte
}

func (d *dropLine) Write(p []byte) (int, error) {
	d.part = append(d.part, p...)
	for {
		i := bytes.IndexByte(d.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		if l := d.part[:i+1]; string(bytes.TrimRight(l, "\r\n")) != d.line {
			if _, err := d.w.Write(l); err != nil {
				return len(p), err
			}
		}
		d.part = d.part[i+1:]
	}
}
