// Package taint computes which configuration options may influence each
// decision (if, for condition, range, switch, select) of a Go program: the
// statement-influence map of ConfigCrusher (Velez et al., ASE journal 2020),
// by static taint analysis on go/ssa with a VTA call graph.
//
// It owns loading for analysis, SSA construction, the call graph, the taint
// abstraction and the mapping of SSA branches back to source decisions. It
// must not find options itself (package sources declares them), must not
// compute dominance (package dom), and never writes to the analysed code.
//
// # Abstraction
//
// The analysis is flow-insensitive; every set it reports over-approximates
// the options that can influence a decision, modulo reflection, unsafe,
// assembly and code without SSA bodies.
//
//   - SSA values (locals, parameters, phis) carry taint sets. Arguments flow
//     to parameters along VTA call-graph edges. Results are context-sensitive
//     (summary.go): a call's result takes the taint of its own arguments
//     through the callee's return summary, so a shared helper keeps its
//     callers' options apart; recursive functions share one result set.
//   - Memory is abstracted by a unification-based (Steensgaard-style)
//     points-to analysis: every pointer-like value has a target class; copies
//     (phi, calls, returns, conversions, interfaces, closures' free
//     variables) unify classes, and each class has one pointee class for the
//     pointers stored in it. A class carries the taint of what is stored in
//     it. Variables captured by closures are such classes: MakeClosure
//     bindings are unified with the closure's free variables.
//   - Struct fields are field-based: one class per declared field (the
//     generic origin for instantiated types), whatever object holds it. A
//     store of tainted data to field F of type T taints every load of T.F,
//     and storing a whole struct value taints all its fields.
//   - Slices, arrays, maps and channels are element-based per abstract
//     object: all elements (map keys and values, channel buffers) of one
//     unified allocation class share one taint set. append and copy unify
//     their operands' classes. Sends taint receives of channels in the same
//     class, Select cases included.
//   - Calls to functions without SSA bodies (standard library loaded from
//     export data, unresolved dynamic calls) pass the union of their
//     arguments' taint to the result.
//   - Implicit flows: control dependence comes from post-dominators
//     (package dom) on SSA blocks. A block's local pc taint is the union of
//     the conditions it is transitively control dependent on. Stores, map
//     updates and sends take the pc taint and the function's context taint;
//     a phi takes the conditions its incoming edges depend on and its block
//     does not (exactly the `if a { x = true }; if b && x` case); a return
//     takes its block's pc taint.
//   - Calling context: a call made in a block with pc taint, or from a
//     function with context taint, or through a tainted function value,
//     gives the callee that context taint, and every decision in the callee
//     is influenced by it. So moo(c) called under `if a` makes `if c` inside
//     moo influenced by {a, c}.
//
// A decision's influence is its conditions' taint plus its pc taint plus its
// function's context taint. The fixpoint is a worklist over a constraint
// graph whose nodes hold option bitsets: it is monotone on a finite lattice,
// so it terminates, and every edge is visited at most once per new option.
//
// Its size (about 1.7k lines) is one analysis: the constraint graph, the per-function summaries
// applied per call site, the standard library's parser summaries and the configuration libraries'
// sources all feed one fixpoint, and splitting them would export the graph's internals.
package taint

import (
	"errors"
	"fmt"
	"go/token"
	"sort"
	"strings"

	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/source/dom"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Config controls Load.
type Config struct {
	// Dir is the directory go list runs in ("" = current directory).
	Dir string
	// Env is the environment for go list (nil = this process's).
	Env []string
	// Tests includes test packages.
	Tests bool
	// Deps also analyses, from source, every dependency outside the
	// standard library (the whole module graph). Without it, dependencies
	// are loaded from export data and calls into them are summarised.
	Deps bool
}

// LoadMode is what Analyze needs from go/packages.
const LoadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// Load loads the packages matching patterns with syntax and types; every
// package error is returned, each with its position.
func Load(cfg Config, patterns ...string) ([]*packages.Package, error) {
	pc := &packages.Config{Mode: LoadMode, Dir: cfg.Dir, Env: cfg.Env, Tests: cfg.Tests}
	if cfg.Deps {
		// A cheap first pass lists the graph; the second loads the non-std
		// part of it from source as roots, the rest from export data.
		lc := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
			Dir: cfg.Dir, Env: cfg.Env, Tests: cfg.Tests}
		roots, err := packages.Load(lc, patterns...)
		if err != nil {
			return nil, err
		}
		var paths []string
		packages.Visit(roots, nil, func(p *packages.Package) {
			if p.Module != nil && !strings.HasSuffix(p.ID, ".test") && !strings.Contains(p.ID, " [") {
				paths = append(paths, p.PkgPath)
			}
		})
		sort.Strings(paths)
		patterns = paths
	}
	pkgs, err := packages.Load(pc, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, errors.New(e.Error()))
		}
	})
	if len(pkgs) == 0 {
		errs = append(errs, fmt.Errorf("taint: no packages match %q", patterns))
	}
	return pkgs, errors.Join(errs...)
}

// Result is the statement-influence map and what later stages need.
type Result struct {
	Fset *token.FileSet
	// Options are all options found, in sources.Set order; bit i of every
	// internal set is Options.Options[i].
	Options *sources.Set
	// Decisions of the analysed packages, in file and position order,
	// influenced or not.
	Decisions []*Decision
	// Irrelevant lists the options that influence no decision.
	Irrelevant []string
	// Cgo lists the files that import "C", whose decisions are left out: the go command
	// compiles such a file from cgo's output, which augur analysed and cannot rewrite.
	Cgo []string
	// Prog, Packages and CallGraph are kept for the regions stage.
	Prog      *ssa.Program
	Packages  []*ssa.Package
	CallGraph *callgraph.Graph

	pdoms map[*ssa.Function]*dom.PostDom
}

// Decision is one source-level decision: all SSA branches of one if, loop
// or switch condition (&& and || included) or select.
type Decision struct {
	Pos  token.Position
	Kind string // "if", "for", "range", "switch", "typeswitch", "select"
	Text string // e.g. "if b && x"
	// Func is the enclosing function's SSA name ("foo", "foo$1", "M").
	Func string
	// Options that may influence the decision, sorted; empty if none.
	Options []string
	// Regions has one entry per SSA function holding the decision's
	// branches (several for generic instantiations); empty when SSA has no
	// branch for it (constant conditions, unreachable code).
	Regions []Region
	// End is where the decision's influence ends: the position of the
	// first region's IPDom, or the zero Position when that is the exit.
	End token.Position
}

// Region is the part of one SSA function a decision controls.
type Region struct {
	Func *ssa.Function
	// Blocks are the blocks ending in the decision's *ssa.If branches.
	Blocks []*ssa.BasicBlock
	// IPDom is the nearest common post-dominator of Blocks, where the
	// influence of the decision ends (ConfigCrusher's Algorithm 2); nil
	// when only the function's exit post-dominates them.
	IPDom *ssa.BasicBlock
}

// Influenced reports whether any option influences d.
func (d *Decision) Influenced() bool { return len(d.Options) > 0 }

// PostDom returns the post-dominator tree of fn's blocks (block indices;
// the virtual exit is len(fn.Blocks)); nil if fn has no body.
func (r *Result) PostDom(fn *ssa.Function) *dom.PostDom {
	if pd, ok := r.pdoms[fn]; ok {
		return pd
	}
	if len(fn.Blocks) == 0 {
		return nil
	}
	pd := dom.PostDominators(blockSuccs(fn))
	r.pdoms[fn] = pd
	return pd
}

func blockSuccs(fn *ssa.Function) [][]int {
	succs := make([][]int, len(fn.Blocks))
	for i, b := range fn.Blocks {
		for _, s := range b.Succs {
			succs[i] = append(succs[i], s.Index)
		}
	}
	return succs
}

// Analyze finds the options of pkgs (sources.Find with decls), builds SSA
// for pkgs (bodies for the packages with syntax, export data for the
// rest), computes a VTA call graph refined from CHA, and runs the taint
// analysis. Decisions are reported for the packages in pkgs with syntax.
func Analyze(pkgs []*packages.Package, decls sources.Decls) (*Result, error) {
	if len(pkgs) == 0 {
		return nil, errors.New("taint: no packages to analyse")
	}
	set, err := sources.Find(pkgs, decls)
	if err != nil {
		return nil, err
	}
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.GlobalDebug|ssa.InstantiateGenerics)
	for i, p := range ssaPkgs {
		if p == nil {
			return nil, fmt.Errorf("taint: package %s has errors or no types", pkgs[i].PkgPath)
		}
	}
	prog.Build()
	funcs := ssautil.AllFunctions(prog)
	cg := vta.CallGraph(funcs, cha.CallGraph(prog))

	r := &Result{Fset: prog.Fset, Options: set, Prog: prog, Packages: ssaPkgs, CallGraph: cg,
		pdoms: map[*ssa.Function]*dom.PostDom{}}
	a := newAnalysis(r, set)
	a.indexCallees(cg)
	a.seedSites(set)
	var fns []*ssa.Function
	for fn := range funcs {
		if len(fn.Blocks) > 0 {
			fns = append(fns, fn)
		}
	}
	// Map iteration order must not leak into node numbering.
	sort.Slice(fns, func(i, j int) bool {
		if fns[i].Pos() != fns[j].Pos() {
			return fns[i].Pos() < fns[j].Pos()
		}
		return fns[i].String() < fns[j].String()
	})
	for _, fn := range fns {
		a.function(fn)
	}
	a.summarise()
	a.solve()
	a.typeFromParses()
	r.Decisions = a.decisions(pkgs)
	used := make([]bool, len(set.Options))
	for _, d := range r.Decisions {
		for _, o := range d.Options {
			used[a.optIndex[o]] = true
		}
	}
	for i, o := range set.Options {
		if !used[i] {
			r.Irrelevant = append(r.Irrelevant, o.Name)
		}
	}
	return r, nil
}
