// Package timing measures the self time of code regions (package regions)
// by instrumenting their entries and exits and building the program with
// `go build -overlay`, as ConfigCrusher measures its regions (Velez et al.,
// ASE journal 2020).
//
// It owns the source rewriting for region probes, the injected runtime file
// and reading the timing files back. It must not touch the user's files or
// go.mod (every rewritten file reaches the go command through the overlay
// only), must not choose regions (package regions) or run the program
// (package runner), and it does not edit package instrument, whose overlay
// mechanics it imitates.
//
// Its size (about 1.6k lines) is the rewriter, the injected runtime it writes
// (runtime.go: per-thread CPU clocks, goroutine-aware region stacks) and the
// module cache copy a build of a dependency's regions needs (modcache.go).
//
// # Probes
//
// Probes are inserted on existing lines, so line numbers in errors, panics
// and stack traces stay the user's. Every function holding a region gets a
// prologue right after its opening brace:
//
//	_augurT_f := _augurT_fr(); defer _augurT_un(&_augurT_f);
//
// and each region R gets `_augurT_in(&_augurT_f, R)` before its first
// statement and `; _augurT_out(&_augurT_f, R)` after its last one. An else-if
// region is wrapped as `else { in; if ... ; out }`. The whole program is the
// base region 0: main's prologue enters it.
//
// Exits on every path out of a span:
//   - fall-through past the last statement: the exit probe after it (left out
//     after a terminating statement, where it would be unreachable and
//     would turn a terminating statement list into a "missing return");
//   - break, continue, goto and fallthrough whose target lies outside the
//     span: exit probes (innermost region first) before the branch;
//   - return, panic and runtime.Goexit: the deferred _augurT_un pops every
//     region the frame opened (the stack depth at the frame's entry is
//     recorded), so user defers that run during a return are charged to the
//     region open at the return;
//   - os.Exit and fatal errors run no defers: the timing file is a MAP_SHARED
//     memory mapping, so everything completed survives, and regions still
//     open (the base region at least) are reported by Collect as Issues
//     (their time since entry is lost).
//
// Entries a span's first probe misses: a goto from outside the span to a
// label inside it (typically back to the labelled statement the span starts
// with, whose entry probe precedes the label) gets the entry probe before
// it, after the exits of the spans it leaves, outermost region first, so the
// exit at the span's end matches.
//
// # Self time, wall time and goroutines
//
// The runtime keeps one nesting stack of (region, start, time in nested
// regions) per goroutine that has regions open, in the timing file that
// every instrumented package of the process maps (named by pid), so that
// regions nest across packages; a lock word in the same file orders the
// probes. A region's self time on a goroutine is its duration minus the
// durations of the regions nested in it on that goroutine, on the monotonic
// clock; RegionTime.SelfNs sums it over the goroutines. RegionTime.WallNs
// is the region's share of the wall time: at every moment the time is
// shared equally among the regions innermost on some goroutine (the base
// region only gets the time when no other region is innermost anywhere),
// so the shares add up to the wall time and, with one goroutine, equal the
// self times.
//
// A frame learns its goroutine at its first region entry. Go has no
// goroutine id, but runtime.Stack prints it (about 6 µs on a 2-core VM,
// more on deep stacks; paid on every call of lz4's high-compression loop it
// tripled the run time), so a fast path skips it: when one stack is in use
// and runtime.NumGoroutine() is 1 (a few loads), the stack is the caller's
// (a goroutine frees its stack when its last region closes, before it
// ends, so a stack in use is a live goroutine's). NumGoroutine leaves out
// the runtime's goroutines, which run finalizers and cleanups, so the fast
// path is compiled out (Build.FastOwner) when code outside the standard
// library that the program may run (as its call graph tells) calls
// runtime.SetFinalizer or AddCleanup. What remains inexact is
// gcount's unsynchronised sum, which can count a goroutine short while
// another goroutine is being created. A frame keeps its goroutine's id and
// checks at each probe that its stack was not freed since (by a callee
// closing the last region) and taken by another goroutine.
//
// # CPU time
//
// SelfNs sums wall-clock intervals: a goroutine blocked on a channel, a
// lock, I/O or a sleep inside a region adds its waiting, as does one
// waiting for a core. RegionTime.CPUNs is CPU time instead, read from the
// kernel's per-thread CPU clocks (clock_gettime of the thread's clock id;
// Go has no per-goroutine clock, and runtime/metrics' /cpu/classes are
// process-wide estimates): every probe reads its thread's clock and charges
// the thread's CPU time since the thread's previous probe to the region that
// was innermost on the goroutine of that probe, then records its own
// innermost region. A goroutine that blocks hands its thread to another
// goroutine or to sleep, so its waiting is charged to nobody; what remains
// inexact is the stretch between a goroutine switch and the next probe on
// that thread (charged to the region of the goroutine switched away from),
// and a goroutine moved to a thread never seen before, whose first probe
// charges the thread's CPU time since it started to that goroutine's
// innermost region. When main returns, every thread's time since its last
// probe is charged. Threads are never pinned (runtime.LockOSThread would
// change how the program schedules). The two system calls cost about
// 1.5 µs a probe on a 2-core VM, so they are compiled in (Build.CPU) only
// on Linux and only when the program may start a goroutine: with one
// goroutine the CPU model would be the wall model.
//
// At most MaxGoroutines goroutines may have regions open at once and each
// stack holds MaxDepth entries: probes beyond are counted, not timed, and
// reported in Times.Issues, as are exits that do not match the top of the
// stack (a mismatch after recover, repaired by closing the regions above
// it).
// Spans must nest: Instrument refuses regions of one file that overlap
// without nesting, whose exits could never match.
package timing

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	gobuild "go/build"
	"go/token"
	"hash/fnv"
	"os"
	"path/filepath"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/taint"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"
)

// Build is an instrumented build: the overlay for the go command and what
// Collect needs.
type Build struct {
	// Overlay is the JSON file to pass as go build -overlay.
	Overlay string
	// Regions are the timed regions; ID 0 is the base region when Base.
	Regions []regions.Region
	// Base is true when main.main was found and times the base region 0.
	Base bool
	// NRegions is the number of region slots (largest ID + 1).
	NRegions int
	// Layout identifies this build's timing files.
	Layout int64
	// FastOwner is set when frame prologues may skip the goroutine id
	// (see the package doc): off when the analysed code registers
	// finalizers or cleanups, or when there is no call graph to tell.
	FastOwner bool
	// CPU is set when the probes read the threads' CPU clocks (see "CPU
	// time" in the package doc): on Linux, when the program may start a
	// goroutine as far as the call graph tells (or there is none to tell).
	CPU bool
	// Files maps each rewritten user file to its rewritten copy.
	Files map[string]string
}

type edit struct {
	off  int
	prio int
	ord  int
	text string
}

type fileWork struct {
	pf    *regions.ParsedFile
	name  string
	edits []edit
	funcs map[ast.Node]*ast.BlockStmt
	base  *ast.FuncDecl
}

func (fw *fileWork) add(off, prio, ord int, text string) {
	fw.edits = append(fw.edits, edit{off, prio, ord, text})
}

// Instrument rewrites the files holding regs (and main's file, for the base
// region) into dir, adds the runtime file to each package, and writes
// dir/overlay.json. res is the analysis the regions came from; it is used to
// find main.main. Region IDs must be positive and distinct.
func Instrument(res *taint.Result, regs []regions.Region, dir string) (*Build, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	b := &Build{Files: map[string]string{}, Regions: regs}
	nreg := 1
	ids := map[int]bool{}
	for _, r := range regs {
		if r.ID <= 0 || ids[r.ID] {
			return nil, fmt.Errorf("%s: timing: region ID %d is not positive or not unique", r.Start, r.ID)
		}
		ids[r.ID] = true
		nreg = max(nreg, r.ID+1)
	}
	b.NRegions = nreg
	files := map[string]*fileWork{}
	var order []string
	work := func(name string) (*fileWork, error) {
		if fw := files[name]; fw != nil {
			return fw, nil
		}
		if strings.HasSuffix(name, "_test.go") {
			return nil, fmt.Errorf("%s: timing: regions in test files are not supported", name)
		}
		pf, err := regions.ParseFile(name)
		if err != nil {
			return nil, err
		}
		fw := &fileWork{pf: pf, name: name, funcs: map[ast.Node]*ast.BlockStmt{}}
		files[name] = fw
		order = append(order, name)
		return fw, nil
	}
	var errs []string
	type placed struct {
		r      regions.Region
		lo, hi int
	}
	spans := map[*fileWork][]placed{}
	for _, r := range regs {
		fw, err := work(r.File)
		if err != nil {
			return nil, err
		}
		sp, err := regions.Locate(fw.pf, r)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		lo, hi := fw.pf.Off(sp.Pos()), fw.pf.Off(sp.End())
		for _, q := range spans[fw] {
			if (q.lo < lo && lo < q.hi && q.hi < hi) || (lo < q.lo && q.lo < hi && hi < q.hi) {
				// A goroutine has one nesting stack: the exit of the
				// region entered first would find the other on top.
				errs = append(errs, fmt.Sprintf("%s: region %d overlaps region %d (%s) without nesting in it", r.Start, r.ID, q.r.ID, q.r.Start))
			}
		}
		spans[fw] = append(spans[fw], placed{r, lo, hi})
		fw.funcs[sp.Func] = sp.Body
		addRegion(fw, sp, r.ID)
	}
	if len(errs) > 0 {
		return nil, errors.New("timing: " + strings.Join(errs, "\n"))
	}
	if mainFn := findMain(res); mainFn != "" {
		fw, err := work(mainFn)
		if err != nil {
			return nil, err
		}
		for _, d := range fw.pf.File.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
				fw.base = fd
				fw.funcs[fd] = fd.Body
				b.Base = true
			}
		}
	}
	b.FastOwner = !mayFinalize(res)
	b.CPU = goruntime.GOOS == "linux" && mayGo(res)
	h := fnv.New64a()
	for _, r := range regs {
		fmt.Fprintf(h, "%d %s %d %d\n", r.ID, r.File, r.Start.Offset, r.End.Offset)
	}
	fmt.Fprintf(h, "%d %v", nreg, b.Base)
	b.Layout = int64(h.Sum64() >> 1)

	replace := map[string]string{}
	pkgDirs := map[string]string{}
	for i, name := range order {
		fw := files[name]
		for fn, body := range fw.funcs {
			text := " _augurT_f := _augurT_fr(); defer _augurT_un(&_augurT_f);"
			if fd, ok := fn.(*ast.FuncDecl); ok && fd == fw.base {
				text += " _augurT_in(&_augurT_f, 0);"
			}
			fw.add(fw.pf.Off(body.Lbrace)+1, -1, 0, text)
		}
		out := apply(fw.pf.Src, fw.edits)
		sub := filepath.Join(dir, strconv.Itoa(i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return nil, err
		}
		dst := filepath.Join(sub, filepath.Base(name))
		if err := os.WriteFile(dst, out, 0o644); err != nil {
			return nil, err
		}
		replace[name] = dst
		b.Files[name] = dst
		pkgDirs[filepath.Dir(name)] = fw.pf.File.Name.Name
	}
	dirs := make([]string, 0, len(pkgDirs))
	for d := range pkgDirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for i, d := range dirs {
		sub := filepath.Join(dir, "rt"+strconv.Itoa(i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return nil, err
		}
		dst := filepath.Join(sub, RuntimeFile)
		if err := os.WriteFile(dst, []byte(runtimeSource(pkgDirs[d], nreg, b.Layout, b.FastOwner, b.CPU)), 0o644); err != nil {
			return nil, err
		}
		replace[filepath.Join(d, RuntimeFile)] = dst
	}
	if mainFile := findMain(res); mainFile != "" {
		if err := relocate(replace, dir, mainFile); err != nil {
			return nil, err
		}
	}
	ov, _ := json.MarshalIndent(map[string]any{"Replace": replace}, "", " ")
	b.Overlay = filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(b.Overlay, ov, 0o644); err != nil {
		return nil, err
	}
	return b, nil
}

func findMain(res *taint.Result) string {
	if res == nil {
		return ""
	}
	for _, p := range res.Packages {
		if p == nil || p.Pkg.Name() != "main" {
			continue
		}
		if fn := p.Func("main"); fn != nil && fn.Pos().IsValid() {
			return res.Fset.PositionFor(fn.Pos(), false).Filename
		}
	}
	return ""
}

// mayFinalize reports whether code outside the standard library may run on
// the runtime's finalizer or cleanup goroutines, which runtime.NumGoroutine
// does not count: it calls runtime.SetFinalizer or runtime.AddCleanup from a
// function that may run (the standard library's own finalizers run no
// instrumented code). A library function nothing in the program calls
// (klauspost/compress's zstd.DecodeTo registers a finalizer) does not turn
// the fast path off for everyone using the rest of the library.
func mayFinalize(res *taint.Result) bool {
	if res == nil || res.CallGraph == nil {
		return true
	}
	goroot := ""
	if gobuild.Default.GOROOT != "" {
		goroot = filepath.Join(gobuild.Default.GOROOT, "src") + string(filepath.Separator)
	}
	var live map[*ssa.Function]bool
	for fn, node := range res.CallGraph.Nodes {
		if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "runtime" {
			continue
		}
		name := fn.Name()
		if o := fn.Origin(); o != nil {
			name = o.Name()
		}
		if name != "SetFinalizer" && name != "AddCleanup" {
			continue
		}
		for _, e := range node.In {
			c := e.Caller.Func
			if c == nil || c.Pkg == nil {
				return true
			}
			first, _, _ := strings.Cut(c.Pkg.Pkg.Path(), "/")
			file := res.Fset.PositionFor(c.Pos(), false).Filename
			if !strings.Contains(first, ".") && (goroot == "" || file == "" || strings.HasPrefix(file, goroot)) {
				continue
			}
			if live == nil {
				live = reachable(res.CallGraph)
			}
			if live[c] {
				return true
			}
		}
	}
	return false
}

// mayGo reports whether the program may start a goroutine: a function the
// call graph says may run holds a go statement. Without a call graph it may.
// Only then are the CPU clocks worth their two system calls a probe: with
// one goroutine the summed model is the wall model.
func mayGo(res *taint.Result) bool {
	if res == nil || res.CallGraph == nil {
		return true
	}
	for fn := range reachable(res.CallGraph) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Go); ok {
					return true
				}
			}
		}
	}
	return false
}

// reachable is the set of functions the program may run, as far as the
// call graph tells: the roots and what live functions call or take the
// value of. Roots are the main and init functions and every method (the
// standard library, whose bodies the graph may lack, calls methods through
// interfaces); a function whose value a live function takes may be called
// back by the standard library, so it is live too.
func reachable(cg *callgraph.Graph) map[*ssa.Function]bool {
	live := map[*ssa.Function]bool{}
	var work []*ssa.Function
	mark := func(fn *ssa.Function) {
		if fn != nil && !live[fn] {
			live[fn] = true
			work = append(work, fn)
		}
	}
	for fn := range cg.Nodes {
		if fn != nil && (fn.Signature.Recv() != nil || fn.Name() == "init" || (fn.Name() == "main" && fn.Pkg != nil && fn.Pkg.Pkg.Name() == "main")) {
			mark(fn)
		}
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if node := cg.Nodes[fn]; node != nil {
			for _, e := range node.Out {
				mark(e.Callee.Func)
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee *ssa.Value
				if call, ok := instr.(ssa.CallInstruction); ok && !call.Common().IsInvoke() {
					callee = &call.Common().Value
				}
				for _, op := range instr.Operands(nil) {
					if f, ok := (*op).(*ssa.Function); ok && op != callee {
						mark(f)
					}
				}
			}
		}
	}
	return live
}

func apply(src []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.off != b.off {
			return a.off < b.off
		}
		if a.prio != b.prio {
			return a.prio < b.prio
		}
		return a.ord < b.ord
	})
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(src[last:e.off])
		out.WriteString(e.text)
		last = e.off
	}
	out.Write(src[last:])
	return out.Bytes()
}

// addRegion inserts region id's entry and exit probes.
func addRegion(fw *fileWork, sp *regions.Span, id int) {
	pf := fw.pf
	stmts := sp.Stmts()
	lo, hi := pf.Off(sp.Pos()), pf.Off(sp.End())
	size := hi - lo
	in := fmt.Sprintf("_augurT_in(&_augurT_f, %d); ", id)
	out := fmt.Sprintf("_augurT_out(&_augurT_f, %d)", id)
	last := stmts[len(stmts)-1]
	exitAtEnd := !terminating(last) && !isFallthrough(last)
	if sp.ElseIf != nil {
		fw.add(lo, 0, -size, "{ "+in)
		if exitAtEnd {
			fw.add(hi, 3, size, "; "+out+" }")
		} else {
			fw.add(hi, 3, size, " }")
		}
	} else {
		fw.add(lo, 0, -size, in)
		if exitAtEnd {
			fw.add(hi, 3, size, "; "+out)
		}
	}
	for _, br := range leaving(sp) {
		fw.add(pf.Off(br.Pos()), 1, size, out+"; ")
	}
	// After the exits of the spans the goto leaves (priority 1), outer
	// spans first, as at a span's start.
	for _, br := range entering(sp) {
		fw.add(pf.Off(br.Pos()), 2, -size, in)
	}
}

// entering lists the gotos outside sp that jump to a label inside it. They
// skip the entry probe (a goto to the label of the span's first statement,
// or into the middle of the span), so each gets the entry probe before it:
// the exit on the span's way out then matches, and the region is charged
// from the jump on.
func entering(sp *regions.Span) []*ast.BranchStmt {
	lo, hi := sp.Pos(), sp.End()
	inside := func(n ast.Node) bool { return n.Pos() >= lo && n.End() <= hi }
	in := map[string]bool{}
	var gotos []*ast.BranchStmt
	ast.Inspect(sp.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its labels are its own
		case *ast.LabeledStmt:
			if inside(n) {
				in[n.Label.Name] = true
			}
		case *ast.BranchStmt:
			if n.Tok == token.GOTO && n.Label != nil && !inside(n) {
				gotos = append(gotos, n)
			}
		}
		return true
	})
	var out []*ast.BranchStmt
	for _, g := range gotos {
		if in[g.Label.Name] {
			out = append(out, g)
		}
	}
	return out
}

func isFallthrough(s ast.Stmt) bool {
	b, ok := s.(*ast.BranchStmt)
	return ok && b.Tok == token.FALLTHROUGH
}

// leaving lists the branch statements in sp whose target is outside it.
func leaving(sp *regions.Span) []*ast.BranchStmt {
	lo, hi := sp.Pos(), sp.End()
	inside := func(n ast.Node) bool { return n != nil && n.Pos() >= lo && n.End() <= hi }
	labels := map[string]*ast.LabeledStmt{}
	ast.Inspect(sp.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.LabeledStmt:
			labels[n.Label.Name] = n
		}
		return true
	})
	var out []*ast.BranchStmt
	var stack []ast.Node // enclosing breakable statements inside the span
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case nil:
			return false
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			stack = append(stack, n)
			ast.Inspect(n, func(m ast.Node) bool {
				if m == n {
					return true
				}
				return visit(m)
			})
			stack = stack[:len(stack)-1]
			return false
		case *ast.BranchStmt:
			leaves := false
			switch {
			case n.Label != nil:
				leaves = !inside(labels[n.Label.Name])
			case n.Tok == token.BREAK:
				leaves = len(stack) == 0
			case n.Tok == token.CONTINUE:
				leaves = true
				for _, s := range stack {
					switch s.(type) {
					case *ast.ForStmt, *ast.RangeStmt:
						leaves = false
					}
				}
			case n.Tok == token.FALLTHROUGH:
				leaves = true
				for _, s := range stack {
					if _, ok := s.(*ast.SwitchStmt); ok {
						leaves = false
					}
				}
			}
			if leaves {
				out = append(out, n)
			}
			return false
		}
		return true
	}
	for _, s := range sp.Stmts() {
		ast.Inspect(s, visit)
	}
	return out
}

// terminating follows the Go specification's terminating statements.
func terminating(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.GOTO
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	case *ast.BlockStmt:
		return len(s.List) > 0 && terminating(s.List[len(s.List)-1])
	case *ast.IfStmt:
		return s.Else != nil && terminating(s.Body) && terminating(s.Else)
	case *ast.LabeledStmt:
		return terminating(s.Stmt)
	case *ast.ForStmt:
		return s.Cond == nil && !hasBreak(s.Body, labelOf(s))
	case *ast.SwitchStmt:
		return clausesTerminate(s.Body, true, labelOf(s))
	case *ast.TypeSwitchStmt:
		return clausesTerminate(s.Body, true, labelOf(s))
	case *ast.SelectStmt:
		return clausesTerminate(s.Body, false, labelOf(s))
	}
	return false
}

// labelOf is unknown without parents; a labeled break is treated as
// possibly targeting s, which only makes terminating more conservative.
func labelOf(ast.Stmt) string { return "" }

func clausesTerminate(body *ast.BlockStmt, needDefault bool, label string) bool {
	hasDefault := !needDefault
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			list = c.Body
			if c.List == nil {
				hasDefault = true
			}
		case *ast.CommClause:
			list = c.Body
		}
		if len(list) == 0 {
			return false
		}
		if l := list[len(list)-1]; !terminating(l) && !isFallthrough(l) {
			return false
		}
		for _, s := range list {
			if hasBreak(s, label) {
				return false
			}
		}
	}
	return hasDefault
}

// hasBreak reports whether n holds a break that may leave the statement
// whose body n is: an unlabeled break outside nested breakables, or any
// labeled break.
func hasBreak(n ast.Node, label string) bool {
	found := false
	var visit func(n ast.Node, nested bool)
	visit = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					for _, c := range children(m) {
						visit(c, true)
					}
					return false
				}
			case *ast.BranchStmt:
				if m.Tok == token.BREAK && (m.Label != nil || !nested) {
					found = true
				}
			}
			return true
		})
	}
	visit(n, false)
	return found
}

func children(n ast.Node) []ast.Node {
	switch n := n.(type) {
	case *ast.ForStmt:
		return []ast.Node{n.Body}
	case *ast.RangeStmt:
		return []ast.Node{n.Body}
	case *ast.SwitchStmt:
		return []ast.Node{n.Body}
	case *ast.TypeSwitchStmt:
		return []ast.Node{n.Body}
	case *ast.SelectStmt:
		return []ast.Node{n.Body}
	}
	return nil
}

// RegionTime is one region's totals over the files read.
type RegionTime struct {
	ID int `json:"id"`
	// SelfNs is the region's self time summed over the goroutines it ran on:
	// each goroutine's time inside it less its time in regions nested in it
	// on the same goroutine.
	SelfNs int64 `json:"self_ns"`
	// CPUNs is the CPU time of the threads that ran the region's code,
	// summed over the goroutines it ran on (Build.CPU; 0 otherwise): time
	// its goroutines spent blocked, sleeping or waiting for a core is not
	// in it, unlike SelfNs.
	CPUNs int64 `json:"cpu_ns,omitempty"`
	// WallNs is the region's share of the wall time: at each moment the
	// wall time is shared equally among the regions innermost on some
	// goroutine. For the base region it is the time no other region was
	// innermost anywhere, from the first package's initialisation on.
	WallNs  int64 `json:"wall_ns"`
	Entries int64 `json:"entries"`
	// Untimed counts probes of goroutines that found no free stack
	// (more than MaxGoroutines with regions open at once): not timed.
	Untimed int64 `json:"untimed,omitempty"`
}

// Times is what Collect read.
type Times struct {
	// Regions has one entry per region slot, base region 0 first.
	Regions []RegionTime `json:"regions"`
	// Goroutines is the largest number of goroutines that had regions open
	// at once, the largest over the files.
	Goroutines int `json:"goroutines"`
	// Concurrent is set when regions were open on two goroutines at once:
	// SelfNs and WallNs then differ.
	Concurrent bool `json:"concurrent"`
	// CPU is set when the build read CPU clocks (Build.CPU): CPUNs holds
	// CPU time.
	CPU bool `json:"cpu,omitempty"`
	// Open lists regions still open when a process ended (os.Exit, fatal
	// error, main returning while other goroutines were inside regions):
	// their time since entry is missing.
	Open   []int    `json:"open,omitempty"`
	Issues []string `json:"issues,omitempty"`
	Files  int      `json:"files"`
}

// Collect reads the timing files the build's programs wrote into dir and
// sums them. Files of other builds are reported in Issues, not read; no
// file at all is an error.
func (b *Build) Collect(dir string) (*Times, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	t := &Times{Regions: make([]RegionTime, b.NRegions), CPU: b.CPU}
	for i := range t.Regions {
		t.Regions[i].ID = i
	}
	size := fileSlots(b.NRegions)
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".tim") {
			continue
		}
		name := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if len(data) < 8*size {
			t.Issues = append(t.Issues, name+": short timing file")
			continue
		}
		s := make([]int64, headerSlots+regionSlots*b.NRegions)
		for i := range s {
			s[i] = int64(binary.NativeEndian.Uint64(data[8*i:]))
		}
		if s[slotMagic] != magic || s[slotLayout] != b.Layout || s[slotNReg] != int64(b.NRegions) {
			t.Issues = append(t.Issues, name+": timing file of another build")
			continue
		}
		t.Files++
		var open, untimed []string
		for i := range t.Regions {
			r := s[headerSlots+regionSlots*i:]
			t.Regions[i].SelfNs += r[rSelf]
			t.Regions[i].CPUNs += r[rCPU]
			t.Regions[i].WallNs += r[rWall]
			t.Regions[i].Entries += r[rEntries]
			t.Regions[i].Untimed += r[rUntimed]
			if r[rUntimed] > 0 {
				untimed = append(untimed, fmt.Sprintf("R%d×%d", i, r[rUntimed]))
			}
			if r[rOpen] > 0 {
				t.Open = append(t.Open, i)
				open = append(open, "R"+strconv.Itoa(i))
			}
		}
		t.Goroutines = max(t.Goroutines, int(s[slotMaxInUse]))
		if s[slotUntimed] > 0 {
			t.Issues = append(t.Issues, fmt.Sprintf("%s: %d probes ran on goroutines beyond the %d that may have regions open at once (not timed): %s",
				e.Name(), s[slotUntimed], MaxGoroutines, strings.Join(untimed, " ")))
		}
		if s[slotThreads] > 0 {
			t.Issues = append(t.Issues, fmt.Sprintf("%s: %d probes ran on threads beyond the %d whose CPU clocks are followed (their CPU time is not attributed)", e.Name(), s[slotThreads], MaxThreads))
		}
		if s[slotMismatch] > 0 {
			t.Issues = append(t.Issues, fmt.Sprintf("%s: %d region exits did not match the innermost open region", e.Name(), s[slotMismatch]))
		}
		if s[slotOverflow] > 0 {
			t.Issues = append(t.Issues, fmt.Sprintf("%s: %d region entries beyond nesting depth %d were not timed", e.Name(), s[slotOverflow], MaxDepth))
		}
		if len(open) > 0 {
			t.Issues = append(t.Issues, fmt.Sprintf("%s: the process ended with regions open (os.Exit, a fatal error, or main returning while other goroutines ran regions), their time since entry is lost: %s",
				e.Name(), strings.Join(open, " ")))
		}
	}
	t.Concurrent = t.Goroutines > 1
	if t.Files == 0 {
		return t, fmt.Errorf("timing: %s: no timing file of this build (was %s set?)", dir, EnvDir)
	}
	return t, nil
}
