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
	"sync"
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
	Pointer    = unsafe.Pointer
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
// them share under a spin lock, then the blocks that goroutines take for a while (see Get). A
// block is n counters, the length of its journal and the journal, pairs (counter, new value)
// (see commit), then the count of its side calls and its side slots (see Side), padded to a
// whole number of pages (stride words).
type Counters struct {
	n, j, b int
	stride  int
	// sides are, per side slot of a block, the Unwound of the package whose blocks the slot
	// holds.
	sides []func(Pointer)
	// chunks keeps blocks made from the Go heap alive (see anon): a side slot holding one is
	// not a reference the collector sees.
	chunks [][]byte
	blocks [][]uint64
	ov     []uint64
	lock   uint32
	// owners holds, per function, the thread (getm) of one invocation in flight, or 0 (see
	// Enter).
	owners []uintptr
	// looks counts, per function, the invocations that looked for others in it through its
	// window (see Look).
	looks []uint32
	// win is the look window of the package's entries (see Window).
	win Uint32
	// caches holds, per P, blocks no goroutine holds (see Get), in a mapping: the race detector
	// does not see the goroutines that take turns on a P.
	caches []*cache
	// mu guards free, the blocks no goroutine holds beyond the caches', file and size.
	mu   sync.Mutex
	free []unsafe.Pointer
	// file is the counter file (nil when the blocks are anonymous memory), size the bytes of
	// blocks it holds after its header of hlen bytes.
	file       *os.File
	hlen, size int64
}

// A cache holds up to 7 blocks of one P that no goroutine holds (one cache line), and counts the
// blocks taken on the P (see Window).
type cache struct {
	n, gets uint32
	b       [7]unsafe.Pointer
}

// Open makes the counter blocks of a package with n counters, flushes of at most j at once, nf
// functions and a side slot per function of sides (see Side):
// a MAP_SHARED mapping of a file in the directory the environment variable env names (with the
// header before them), so that counts survive os.Exit and crashes, anonymous memory otherwise.
// The race detector does not shadow mappings: the probes' plain adds, exclusive by pinning, are
// not reported as races.
//
// The blocks are stride words apart: n + 2 + 2j + len(sides) rounded up to a whole number of
// pages (Stride), so that blocks added later (see Get) map at page offsets of the file.
func Open(env, magic, header, stem string, n, j, nf int, sides ...func(Pointer)) *Counters {
	c := &Counters{n: n, j: j, b: n + 1 + 2*j, stride: Stride(n+1+len(sides), j, os.Getpagesize()), sides: sides}
	// In a mapping too, for the race detector: the owners are read and written by any
	// goroutine, atomically.
	if own, err := syscall.Mmap(-1, 0, 8*max(nf, 1), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE); err == nil {
		c.owners = unsafe.Slice((*uintptr)(unsafe.Pointer(&own[0])), nf)
	} else {
		c.owners = make([]uintptr, nf)
	}
	c.looks = make([]uint32, nf)
	// At least 8 blocks: go test -cpu raises GOMAXPROCS after the package is initialised.
	ns := max(runtime.NumCPU(), runtime.GOMAXPROCS(0), 8)
	size := 8 * c.stride * (ns + 1)
	data := c.mapFile(os.Getenv(env), magic, header, stem, size)
	if data == nil {
		data = c.anon(size)
	}
	for i := range ns + 1 {
		c.blocks = append(c.blocks, unsafe.Slice((*uint64)(unsafe.Pointer(&data[i*8*c.stride])), c.b))
	}
	c.ov = c.blocks[ns]
	c.blocks = c.blocks[:ns]
	// The caches: a cache line each.
	cs := c.anon(ns * int(unsafe.Sizeof(cache{})))
	for i := range ns {
		c.caches = append(c.caches, (*cache)(unsafe.Pointer(&cs[i*int(unsafe.Sizeof(cache{}))])))
	}
	return c
}

// Stride is the distance in words between two blocks of n counters and a journal of j: the
// block's n + 1 + 2j words rounded up to whole pages of page bytes.
func Stride(n, j, page int) int {
	w := page / 8
	return (n + 1 + 2*j + w - 1) / w * w
}

// anon maps size bytes of zeroed memory, from the Go heap if mapping fails.
func (c *Counters) anon(size int) []byte {
	data, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil || len(data) < size {
		data = make([]byte, size)
		c.chunks = append(c.chunks, data)
	}
	return data
}

func (c *Counters) mapFile(dir, magic, header, stem string, size int) []byte {
	if dir == "" {
		return nil
	}
	page := os.Getpagesize()
	hlen := (len(magic) + 42 + len(header) + page) / page * page
	hdr := make([]byte, hlen)
	for i := range hdr {
		hdr[i] = '\n'
	}
	// The header's length and the blocks' stride (which depends on the page size), then the
	// header.
	copy(hdr, magic+strconv.Itoa(hlen)+" "+strconv.Itoa(c.stride)+"\n"+header+"\n")
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
		if err != nil {
			f.Close()
			break
		}
		// Kept open: blocks added later (see Get) extend the file.
		c.file, c.hlen, c.size = f, int64(hlen), int64(size)
		return data
	}
	return nil
}

// Get returns a block for the calling goroutine alone, until it gives it back with Put: an
// entry of an instrumented package (a function called from outside it) takes one, and the
// package's functions it calls count into it with plain stores, without pinning. A goroutine
// holds a block only while it runs in the package, so blocks are few (one per goroutine in the
// package at once, and those the Ps cache); the reader adds every block up, so a block is never
// zeroed nor merged. A is the package's block type (its counters and journal).
func Get[A any](c *Counters) *A {
	return (*A)(c.get())
}

// Put gives back a block Get returned (deferred by the entry, so that a panic unwinding
// through the package gives it back too). Word 0 of the block is its spill word: not zero when
// the entry's twin is unwinding from a node that stored, right before it, the index (plus one)
// of the counter to add to then (see paths.go in package instrument).
//
// Words 1 to 4 hold the counts, held in registers, of the cycles of a loop the twin was running,
// and words 5 to 8 their counters: not zero when it unwound from inside the loop. Words 9 and 10
// are the ownership slot (see HeldEnter): not zero when the entry owns its function.
func Put[A any](c *Counters, b *A) {
	c.put(unsafe.Pointer(b))
}

// Window is the look window of the package's entries, whose functions count in twins, without
// an invocation counter whose commits could reopen a window of their own (see Shut): it reopens
// where the count of blocks taken on some P passes a multiple of WindowPeriod, and shuts as a
// function's does.
func (c *Counters) Window() *Uint32 { return &c.win }

// HeldEnter is Look for the entry of function f, which holds block b, through the package's
// entries' window: becoming f's owner, it records f and the owner in b's ownership slot, and Put
// gives the function up, however the twin returned or unwound. A block has one entry at a time,
// so one slot is enough.
func HeldEnter[A any](c *Counters, f int, ctr int32, b *A) {
	c.looked(f, &c.win)
	if o := c.Enter(f, ctr); o != 0 {
		w := (*[11]uint64)(unsafe.Pointer(b))
		w[9], w[10] = uint64(f)+1, uint64(o)
	}
}

// unwound adds to block w what its spill and mirror words hold (see Put) and clears them, gives
// up the function its ownership slot holds, and does the same in the blocks of its side slots
// (see Side): a panic unwinding from a twin of another package called through one of them
// leaves its state there, and the spill word of the block whose twin made the call is set (by
// the call's node, or Side).
func (c *Counters) unwound(w []uint64) {
	c.unwoundSides(unsafe.Pointer(&w[0]))
	if w[9] != 0 {
		c.Leave(int(w[9]-1), uintptr(w[10]))
		w[9], w[10] = 0, 0
	}
	if s := w[0]; s != 0 {
		if s <= uint64(c.n) {
			w[s-1]++
		}
		w[0] = 0
	}
	for j := 1; j <= 4; j++ {
		if n := w[j]; n != 0 {
			if i := w[4+j]; i < uint64(c.n) {
				w[i] += n
			}
			w[j] = 0
		}
	}
}

// Unwound is Put's work for a block b of this package held in another package's side slot, when
// the block holding that slot unwound: the package's AugurUnwound_<digest> calls it (see Side).
func (c *Counters) Unwound(b Pointer) {
	if w := (*[10]uint64)(b); w[0]|w[1]|w[2]|w[3]|w[4]|w[9] != 0 {
		c.unwound(unsafe.Slice((*uint64)(b), c.n))
		return
	}
	c.unwoundSides(b)
}

// unwoundSides does unwound's work in the blocks that block b's side slots hold.
func (c *Counters) unwoundSides(b unsafe.Pointer) {
	for i, f := range c.sides {
		if s := *c.slot(b, i); s != nil {
			f(s)
		}
	}
}

// slot is side slot i of block b.
func (c *Counters) slot(b unsafe.Pointer, i int) *unsafe.Pointer {
	return (*unsafe.Pointer)(unsafe.Add(b, 8*(c.b+1+i)))
}

// Side returns the block of this package that side slot k of a block of another package holds
// (w is that block's spill word, word 0), taking one (as Get does) the first time: it is that
// block's for good, as the blocks of the slots of its own slots are. A twin of another package
// that holds its block calls a function of this package through the function's side entry
// (AugurSide_F), which counts in its twin, with plain adds, into the slot's block: the goroutine
// holding the caller's block holds it too, and the static calls between the packages of a build
// take no block and pin nothing.
//
// A panic unwinding from the twin leaves its state in the slot's block, for the caller's entry's
// Put to add (see unwound), which it looks for only where its own spill word is set. So Side sets
// a clear one to SideMark (the caller's node stores nothing where a twin it called right before
// cleared it), and SideDone clears it again.
func Side[A any](c *Counters, w *Uint64, k int) *A {
	s := (*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(w), 8*k))
	if *s == nil {
		*s = c.get()
	}
	if *w == 0 {
		*w = SideMark
	}
	return (*A)(*s)
}

// SideMark is the spill word of a block while one of its side slots' blocks is in a call (see
// Side): above every counter's index, it adds nothing where the block unwinds.
const SideMark = ^Uint64(0)

// SideDone ends a side entry's call of its twin with block b (see Side), as Put ends an entry's:
// it clears the spill word, and the caller's w if Side set it, gives up the function if the side
// entry became its owner, and reopens the package's entries' window where the calls through b
// pass a multiple of WindowPeriod (word at of b counts them), as Get does where the blocks taken
// on a P do.
func SideDone[A any](c *Counters, b *A, at int, w *Uint64) {
	if *w == SideMark {
		*w = 0
	}
	x := (*[11]uint64)(unsafe.Pointer(b))
	x[0] = 0
	n := (*uint64)(unsafe.Add(unsafe.Pointer(b), 8*at))
	if *n++; x[9] != 0 || *n&(WindowPeriod-1) == 0 {
		c.sideDone(x, *n)
	}
}

//go:noinline
func (c *Counters) sideDone(w *[11]uint64, n uint64) {
	if w[9] != 0 {
		c.Leave(int(w[9]-1), uintptr(w[10]))
		w[9], w[10] = 0, 0
	}
	if n&(WindowPeriod-1) == 0 {
		Reopen(&c.win)
	}
}

func (c *Counters) get() unsafe.Pointer {
	if p := Pin(); p < len(c.caches) {
		if k := c.caches[p]; k.n > 0 {
			k.n--
			b := k.b[k.n]
			if k.gets++; k.gets&(WindowPeriod-1) == 0 {
				Reopen(&c.win)
			}
			Unpin()
			return b
		}
	}
	Unpin()
	return c.getSlow()
}

func (c *Counters) put(b unsafe.Pointer) {
	// The spill word and the mirrors' counts are zero unless the block's twin unwound, the
	// ownership slot unless its entry became the owner.
	if w := (*[10]uint64)(b); w[0]|w[1]|w[2]|w[3]|w[4]|w[9] != 0 {
		c.unwound(unsafe.Slice((*uint64)(b), c.n))
	}
	if p := Pin(); p < len(c.caches) {
		if k := c.caches[p]; int(k.n) < len(k.b) {
			k.b[k.n] = b
			k.n++
			Unpin()
			return
		}
	}
	Unpin()
	c.mu.Lock()
	c.free = append(c.free, b)
	c.mu.Unlock()
}

// getSlow takes a block from the shared free list, or adds blocks: the counter file grows by
// them (they are mapped at its end), or they are anonymous memory.
func (c *Counters) getSlow() unsafe.Pointer {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.free); n > 0 {
		b := c.free[n-1]
		c.free = c.free[:n-1]
		return b
	}
	const k = 4 // blocks at a time
	size := 8 * c.stride * k
	var data []byte
	if c.file != nil {
		if err := c.file.Truncate(c.hlen + c.size + int64(size)); err == nil {
			data, err = syscall.Mmap(int(c.file.Fd()), c.hlen+c.size, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
			if err == nil {
				c.size += int64(size)
			} else {
				data = nil
				c.file.Truncate(c.hlen + c.size)
			}
		}
	}
	if data == nil {
		// Not in the file (or no file): counts that do not reach it, but exact elsewhere.
		data = c.anon(size)
	}
	for i := 1; i < k; i++ {
		c.free = append(c.free, unsafe.Pointer(&data[i*8*c.stride]))
	}
	return unsafe.Pointer(&data[0])
}

// BlockSlice points to the per-P blocks as a []unsafe.Pointer, which the probes read as a []*A,
// A the array type of the block's size (the same layout; a constant index into an array pointer
// needs no bounds check): no type parameters, which a package whose Go version predates them
// could not instantiate.
func (c *Counters) BlockSlice() unsafe.Pointer {
	ps := make([]unsafe.Pointer, len(c.blocks))
	for i, b := range c.blocks {
		ps[i] = unsafe.Pointer(&b[0])
	}
	return unsafe.Pointer(&ps)
}

// NumBlocks is the number of per-P blocks.
func NumBlocks(c *Counters) int { return len(c.blocks) }

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
func (c *Counters) Apply(ix []int32, v []uint64) { c.apply(ix, v, nil) }

// apply is Apply that also reopens the look window w, if not nil, where the count of ix[0] in
// the P's block passes a multiple of WindowPeriod (v[0] is one: an invocation).
func (c *Counters) apply(ix []int32, v []uint64, w *Uint32) {
	p := Pin()
	if p < len(c.blocks) {
		b := c.blocks[p]
		c.commit(b, ix, v)
		if w != nil && b[ix[0]]&(WindowPeriod-1) == 0 {
			Reopen(w)
		}
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

// Windows: a function looks for other goroutines in it (Enter or Check) while its window is open, a
// flag the probes read at entry (Shut). The window opens where the function's invocation count on
// some P passes a multiple of WindowPeriod (see Reopen), and it is open at the start; it shuts
// after WindowLooks looks (in all threads). So one invocation in WindowPeriod/WindowLooks looks, as
// a random draw of one in 64 would, but the branch that decides keeps its outcome for long runs of
// invocations: a draw's outcome, changing from one invocation to the next, enters the history the
// branch predictor keys the function's other branches by, and in a short invocation that cost more
// than all its counting (a binary search of ten steps: 4.4 ns a call, against 9 ns for the search
// alone). In a window every thread's invocations look, so that two goroutines in the function at
// once are seen.
const (
	WindowPeriod = 1 << 14
	WindowLooks  = 256
)

// Shut reports whether the look window *w is shut. Atomic, for the race detector: the probes
// of every goroutine read it.
func Shut(w *Uint32) Bool { return atomic.LoadUint32(w) != 0 }

// Reopen opens the look window *w.
func Reopen(w *Uint32) { atomic.StoreUint32(w, 0) }

// Look is Enter through f's window *w, which it shuts at the WindowLooks-th look.
func (c *Counters) Look(f int, ctr int32, w *Uint32) uintptr {
	c.looked(f, w)
	return c.Enter(f, ctr)
}

// Peek is Check through f's window *w, as Look is Enter.
func (c *Counters) Peek(f int, ctr int32, w *Uint32) {
	c.looked(f, w)
	c.Check(f, ctr)
}

func (c *Counters) looked(f int, w *Uint32) {
	if atomic.AddUint32(&c.looks[f], 1)%WindowLooks == 0 {
		atomic.StoreUint32(w, 1)
	}
}

// Tick counts in *n a call of a derived leaf that returned v, and returns v: a local of the
// caller's register region (see derive.go in package instrument). Inlined, it is one increment.
func Tick[T any](n *Uint64, v T) T {
	*n++
	return v
}

// Use returns true, having had v evaluated: a guard evaluates again an expression about to panic,
// so that it panics right there (see triploop.go in package instrument).
func Use[T any](v T) Bool { return true }

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
	O     uintptr  // what Look returned
	W     *Uint32  // the function's look window (see Shut)
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

// Flush adds the register-loop counts mirrored in m that the loops had no chance to flush: the
// function is unwinding (its deferred closure calls Flush only then; see returned in package
// instrument).
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
	c.apply(d.Ctr, s.N, s.W)
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
