// The build line gives this file its own language version: copied into a program whose go.mod
// says an older go (1.16, say), it still builds with what it uses (min, max, range over an int).
//go:build go1.22

// Package rt is the runtime that augur's instrumentation injects into an instrumented program:
// a copy of this file becomes the package <instrumented package>/zz_augur_rt through the
// overlay, imported by the instrumented package's own generated file (see package
// github.com/augur-perf/augur/probe/instrument for how counting works). Being its own package,
// it is out of reach of the names the instrumented package declares: a package may declare
// len, uint64 or true at package level, and the probes in its files refer only to this
// package's exported names (through an import name the package does not use) and to their own.
//
// It must import nothing but the standard library: it is compiled into the user's program.
package rt

import (
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// Aliases of the predeclared types, for the code inserted into the instrumented package, where
// the predeclared names may be shadowed.
type (
	Bool       = bool
	Byte       = byte
	Complex64  = complex64
	Complex128 = complex128
	Error      = error
	Float32    = float32
	Float64    = float64
	Int        = int
	Int8       = int8
	Int16      = int16
	Int32      = int32
	Int64      = int64
	Rune       = rune
	String     = string
	Uint       = uint
	Uint8      = uint8
	Uint16     = uint16
	Uint32     = uint32
	Uint64     = uint64
	Uintptr    = uintptr
	Any        = any
)

// Pin pins the goroutine to its P and returns the P's id: until Unpin, the goroutine is not
// preempted and nothing else runs on that P (sync.Pool does the same).
//
//go:linkname Pin runtime.procPin
func Pin() int

// Unpin ends Pin.
//
//go:linkname Unpin runtime.procUnpin
func Unpin()

// Rand returns a pseudo-random number from the running thread's generator (no lock, no
// pinning: for sampling only).
//
//go:linkname Rand runtime.cheaprand
func Rand() uint32

// getm returns the running thread's runtime descriptor (an M).
//
//go:linkname getm runtime.getm
func getm() uintptr

// Counters are one package's counter blocks: one per P, then the overflow block the Ps beyond
// them share under a spin lock. A block is n counters, the length of its journal and the
// journal, pairs (counter, new value) (see commit).
type Counters struct {
	n, j, b int
	blocks  [][]uint64
	ov      []uint64
	lock    uint32
	// owners holds, per function, the goroutine (getg) of one invocation in flight, or 0
	// (see Enter).
	owners []uintptr
}

// Open makes the counter blocks of a package with n counters, flushes of at most j at once and
// nf functions:
// a MAP_SHARED mapping of a file in the directory the environment variable env names (with the
// header before them), so that counts survive os.Exit and crashes, anonymous memory otherwise.
// The race detector does not shadow mappings: the probes' plain adds, exclusive by pinning, are
// not reported as races.
func Open(env, magic, header, stem string, n, j, nf int) *Counters {
	c := &Counters{n: n, j: j, b: n + 1 + 2*j}
	// In a mapping too, for the race detector: the owners are read and written by any
	// goroutine, atomically.
	if own, err := syscall.Mmap(-1, 0, 8*max(nf, 1), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE); err == nil {
		c.owners = unsafe.Slice((*uintptr)(unsafe.Pointer(&own[0])), nf)
	} else {
		c.owners = make([]uintptr, nf)
	}
	// At least 8 blocks: go test -cpu raises GOMAXPROCS after the package is initialised.
	ns := max(runtime.NumCPU(), runtime.GOMAXPROCS(0), 8)
	size := 8 * c.b * (ns + 1)
	data := mapFile(os.Getenv(env), magic, header, stem, size)
	if data == nil {
		data, _ = syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	}
	if len(data) < size {
		data = make([]byte, size)
	}
	for i := range ns + 1 {
		c.blocks = append(c.blocks, unsafe.Slice((*uint64)(unsafe.Pointer(&data[i*8*c.b])), c.b))
	}
	c.ov = c.blocks[ns]
	c.blocks = c.blocks[:ns]
	return c
}

func mapFile(dir, magic, header, stem string, size int) []byte {
	if dir == "" {
		return nil
	}
	page := os.Getpagesize()
	hlen := (len(magic) + 21 + len(header) + page) / page * page
	hdr := make([]byte, hlen)
	for i := range hdr {
		hdr[i] = '\n'
	}
	copy(hdr, magic+strconv.Itoa(hlen)+"\n"+header+"\n")
	base := dir + "/" + stem + "." + strconv.Itoa(os.Getpid())
	for i := 0; i < 1000; i++ {
		name := base + "." + strconv.Itoa(i) + ".cnt"
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			if os.IsExist(err) {
				continue
			}
			break
		}
		_, err = f.Write(hdr)
		if err == nil {
			err = f.Truncate(int64(hlen + size))
		}
		var data []byte
		if err == nil {
			data, err = syscall.Mmap(int(f.Fd()), int64(hlen), size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
		}
		f.Close()
		if err != nil {
			break
		}
		return data
	}
	return nil
}

// Blocks returns the per-P blocks as pointers to arrays of the block's size (A), for the
// probes: a constant index into an array pointer needs no bounds check.
func Blocks[A any](c *Counters) []*A {
	out := make([]*A, len(c.blocks))
	for i, b := range c.blocks {
		out[i] = (*A)(unsafe.Pointer(&b[0]))
	}
	return out
}

// Len is len(bs), for code where len may be shadowed.
func Len[B any](bs []*B) int { return len(bs) }

func (c *Counters) lockOv() {
	for !atomic.CompareAndSwapUint32(&c.lock, 0, 1) {
	}
}

// Over adds v to counter i of the overflow block (a probe on a P beyond the blocks).
//
//go:noinline
func (c *Counters) Over(i int, v uint64) {
	c.lockOv()
	c.ov[i] += v
	atomic.StoreUint32(&c.lock, 0)
}

// OverSub subtracts v from counter i of the overflow block.
//
//go:noinline
func (c *Counters) OverSub(i int, v uint64) {
	c.lockOv()
	c.ov[i] -= v
	atomic.StoreUint32(&c.lock, 0)
}

// Apply adds v[j] to counter ix[j] for each j, all or none even if the process ends midway
// (os.Exit in another goroutine): the counts of an invocation or a loop go in at once.
func (c *Counters) Apply(ix []int32, v []uint64) {
	p := Pin()
	if p < len(c.blocks) {
		c.commit(c.blocks[p], ix, v)
	} else {
		c.lockOv()
		c.commit(c.ov, ix, v)
		atomic.StoreUint32(&c.lock, 0)
	}
	Unpin()
}

// commit is a redo log in block b, which the caller owns (pinned to its P, or holding the
// overflow lock): the new values go to the journal, one store of its length commits them, and
// they are copied to the counters. The reader of a counter file whose journal length is not
// zero copies them again. Only the end of the process interrupts it, and an ended process has
// made exactly the stores before the instruction it ended at: the stores need no fences (an
// atomic store costs an XCHG on amd64), only to stay in program order, which the indexes the
// compiler cannot tell apart (b[c.n] against b[ix[j]]) keep.
func (c *Counters) commit(b []uint64, ix []int32, v []uint64) {
	k := 0
	for j, x := range v {
		if x != 0 {
			b[c.n+1+2*k] = uint64(ix[j])
			b[c.n+2+2*k] = b[ix[j]] + x
			k++
		}
	}
	if k == 0 {
		return
	}
	b[c.n] = uint64(k)
	for j := 0; j < k; j++ {
		b[b[c.n+1+2*j]] = b[c.n+2+2*j]
	}
	b[c.n] = 0
}

// Enter records that a goroutine running on this thread is in function f, unless a goroutine
// on another thread already is: then it counts an overlap in counter ctr, two goroutines in f at
// once. It returns the thread when it became f's owner (Leave ends that), else 0. Go gives no
// goroutine identity, and threads tell apart those that run in parallel, which is what makes
// wall time not additive: two goroutines in f on one thread, one of them blocked, go unseen; a
// goroutine that blocks in f, resumes on another thread and enters f again is counted.
// Invocations that may unwind without Leave use Check instead.
func (c *Counters) Enter(f int, ctr int32) uintptr {
	g := getm()
	for {
		o := atomic.LoadUintptr(&c.owners[f])
		switch {
		case o == g:
			return 0 // recursion
		case o != 0:
			c.Apply([]int32{ctr}, []uint64{1})
			return 0
		case atomic.CompareAndSwapUintptr(&c.owners[f], 0, g):
			return g
		}
	}
}

// Check counts an overlap in counter ctr if a goroutine on another thread is in f, without
// becoming f's owner: for invocations that could unwind without Leave (a function without a
// frame that may panic), which would leave a stale owner behind.
func (c *Counters) Check(f int, ctr int32) {
	if o := atomic.LoadUintptr(&c.owners[f]); o != 0 && o != getm() {
		c.Apply([]int32{ctr}, []uint64{1})
	}
}

// Leave ends the ownership Enter gave o.
func (c *Counters) Leave(f int, o uintptr) {
	atomic.CompareAndSwapUintptr(&c.owners[f], o, 0)
}

// Tick counts in *n a call of a derived leaf that returned v, and returns v: a local of the
// caller's register region (see derive.go in package instrument). Inlined, it is one increment.
func Tick[T any](n *Uint64, v T) T {
	*n++
	return v
}

// TickM is Tick in a region whose locals are mirrored in *m for its deferred flush.
func TickM[T any](n, m *Uint64, v T) T {
	*n++
	*m = *n
	return v
}

// TickP adds one to counter i (pinned, as the probes do) for a call of a derived leaf that
// returned v, and returns v: for call sites whose caller holds no locals.
func TickP[T any](c *Counters, i int, v T) T {
	if p := Pin(); p < len(c.blocks) {
		c.blocks[p][i]++
	} else {
		c.Over(i, 1)
	}
	Unpin()
	return v
}

// Frame is the per-invocation state of a function that may panic or defers.
type Frame struct {
	Cur int32 // the last node that may panic to have started
	K   int32 // the deferred call running (1-based), 0 when none
	// 0 body, 1 return, 2 panic, 3 goexit, 4 not represented, 5 a panic unwinding through
	// deferred calls the CFG does not show (Cur panicked), 6 that panic recovered
	Chain uint8
	N     []uint64 // the invocation's counts, by slot (see Desc.Sl)
	O     uintptr  // what Enter returned
}

// Desc describes one function for the hooks.
type Desc struct {
	Cnt, Pan int32      // counter index of Count[0] and Panics[0]
	Rec      int32      // counter index of Recovered[0]
	Fl       []int32    // per node: counter index of its first edge's flow
	Fx       []uint8    // per node: &3 term (1 panic, 2 goexit, 3 exit), 4 recover decision, 8 implicit panic goes on a panic chain
	Run      [4][]int32 // per chain, per defer statement: its DeferRun node, or -1
	Done     [4]int32   // per chain: counter index of the DeferDispatch "done" flow, or -1
	Mx       []int32    // per slot of the mirror array: its counter index
	Base     int32      // counter index of the invocations
	Sl       []int32    // per counter from Base: its slot in Frame.N, or -1
	Ctr      []int32    // per slot of Frame.N: its counter index
	F        int32      // the function's number in its package
}

// inc counts counter i of the invocation s.
func inc(s *Frame, d *Desc, i int32) {
	s.N[d.Sl[i-d.Base]]++
}

// Flush adds the register-loop counts mirrored in m that the loops had no chance to flush (the
// function is unwinding; on other exits m is all zeros).
func (c *Counters) Flush(m []uint64, d *Desc) {
	for _, x := range m {
		if x != 0 {
			c.Apply(d.Mx, m)
			return
		}
	}
}

// Cond records that node n, a condition that may panic, starts.
func Cond(s *Frame, n int32) bool {
	s.Cur = n
	return true
}

// unwind classifies an unwinding that started in the body.
func unwind(s *Frame, d *Desc) {
	c := s.Cur
	if c < 0 {
		s.Chain = 4
		return
	}
	switch d.Fx[c] & 3 {
	case 1:
		s.Chain = 2
	case 2:
		s.Chain = 3
	default:
		inc(s, d, d.Pan+c)
		if d.Fx[c]&8 != 0 {
			s.Chain = 2
		} else {
			s.Chain = 5
		}
	}
}

// Exit runs last when the invocation leaves: it finishes its counts and adds them to the P's
// block.
//
//go:noinline
func (c *Counters) Exit(s *Frame, d *Desc) {
	if s.Chain == 0 {
		unwind(s, d)
	}
	if s.Chain == 6 && mode() == 0 {
		// A panic at Cur was recovered outside the CFG and the function returns normally.
		inc(s, d, d.Rec+s.Cur)
	}
	if s.Chain < 4 {
		if i := d.Done[s.Chain]; i >= 0 {
			inc(s, d, i)
		}
	}
	c.Apply(d.Ctr, s.N)
	if s.O != 0 {
		c.Leave(int(d.F), s.O)
	}
}

// Pre runs before deferred call k.
//
//go:noinline
func (c *Counters) Pre(s *Frame, d *Desc, k int32) {
	if s.Chain == 0 {
		unwind(s, d)
	}
	s.K = k
	if s.Chain >= 4 {
		return
	}
	r := d.Run[s.Chain][k-1]
	if r < 0 {
		s.Chain = 4
		return
	}
	inc(s, d, d.Cnt+r)
}

// mode says why the deferred call that called its caller runs: 0 normal, 1 panicking,
// 2 runtime.Goexit.
//
//go:noinline
func mode() int {
	var pc [1]uintptr
	if runtime.Callers(3, pc[:]) == 0 {
		return 0
	}
	if f := runtime.FuncForPC(pc[0] - 1); f != nil {
		switch f.Name() {
		case "runtime.gopanic":
			return 1
		case "runtime.Goexit":
			return 2
		}
	}
	return 0
}

// Post runs after deferred call k: it tells whether the call returned, panicked or recovered.
//
//go:noinline
func (c *Counters) Post(s *Frame, d *Desc, k int32) {
	if s.K != k {
		return // the defer statement panicked before registering its call
	}
	s.K = 0
	if s.Chain >= 4 {
		if s.Chain == 5 && mode() == 0 {
			s.Chain = 6 // the deferred call recovered
		}
		return
	}
	r := d.Run[s.Chain][k-1]
	m := mode()
	f := d.Fx[r]
	switch s.Chain {
	case 1:
		if m == 0 {
			return
		}
	case 2:
		if f&4 != 0 {
			if m == 0 {
				inc(s, d, d.Fl[r])
				s.Chain = 1
				return
			}
			if m == 1 {
				inc(s, d, d.Fl[r]+1)
				return
			}
		} else if m == 1 {
			return
		}
	case 3:
		if m == 2 {
			return
		}
	}
	if s.Chain == 2 && m == 0 {
		// A deferred call the CFG does not show recovering (a named function, a method)
		// recovered: the panic chain ends here.
		inc(s, d, d.Pan+r)
		s.Cur, s.Chain = r, 6
		return
	}
	switch {
	case f&3 == 1 && m == 1:
		s.Chain = 2
		return
	case f&3 == 2 && m == 2:
		s.Chain = 3
		return
	}
	inc(s, d, d.Pan+r)
	if f&8 != 0 && m == 1 {
		s.Chain = 2
	} else {
		s.Chain = 4
	}
}
