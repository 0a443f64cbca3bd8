// Package build builds the deployed variants of a release (augur field build): one binary per
// variant, each counting only the units its variant probes — a statement's executions and, for
// a decision, each outcome in the order of the front end's successors — with the probe runtime
// (package github.com/augur-perf/augur/field/rt) stamped with its release, variant and collector
// defaults. The user's tree is only read: rewritten files and the runtime reach go build through
// -overlay, and builds are reproducible (-trimpath; nothing of the temporary directory reaches
// the binary). It owns the rewriting for the field and the builds; it must not run the variants
// or talk to a collector.
package build

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/rt"
	"github.com/augur-perf/augur/probe/srcedit"
	"github.com/augur-perf/augur/source/frontend"
)

// Options control Build.
type Options struct {
	// Dir is the directory the packages are loaded from and go build runs in ("" is ".").
	Dir string
	// Main is the main package to build, as the go command names it (./cmd/app).
	Main string
	// Out is the directory the binaries are written to.
	Out string
	// URL, Token, Site and Spool are the defaults stamped into the binaries for
	// AUGUR_FIELD_URL, AUGUR_FIELD_TOKEN, AUGUR_FIELD_SITE and AUGUR_FIELD_SPOOL.
	URL, Token, Site, Spool string
	// Flush is the period of packages (0: one minute); SpoolMax the spool's bound in bytes
	// (0: 16 MiB).
	Flush    time.Duration
	SpoolMax int64
	// Variants selects variants by id; empty means all.
	Variants []int
	// Rate, between 0 and 1, samples: each probe execution is counted with this probability
	// (CBI's geometric countdowns), and packages carry it so that the counts are scaled by
	// 1/Rate. 0 or 1 counts every execution.
	Rate float64
}

// Binary is one variant's build.
type Binary struct {
	Variant int
	Path    string
	// Probes is how many units the binary counts; Skipped lists the variant's units it cannot
	// count (deferred calls running as the function leaves), which it never reports.
	Probes  int
	Skipped []int
	SHA256  string
}

// RuntimeDir is the directory, under the main module's root, of the package the overlay adds:
// the probe runtime with its stamp.
const RuntimeDir = "zz_augurfield"

// Build builds the variants of m.
func Build(m *plan.Manifest, o Options) ([]Binary, error) {
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	if o.Main == "" {
		return nil, fmt.Errorf("no main package to build")
	}
	mainPkg, err := goList(dir, o.Main)
	if err != nil {
		return nil, err
	}
	var variants []plan.Variant
	for _, v := range m.Variants {
		if len(o.Variants) == 0 || slices.Contains(o.Variants, v.ID) {
			variants = append(variants, v)
		}
	}
	if len(variants) == 0 {
		return nil, fmt.Errorf("release %s has none of the variants %v", m.Release, o.Variants)
	}
	units := map[int]plan.Unit{}
	for _, u := range m.Units {
		units[u.ID] = u
	}
	// The main package is loaded only if it is probed: loaded from source beside the packages
	// it imports, their types would not be the ones it sees (see exitHook).
	paths := map[string]bool{}
	for _, v := range variants {
		for _, id := range v.Probes {
			u, ok := units[id]
			switch {
			case !ok:
				return nil, fmt.Errorf("variant %d probes unit %d, which the manifest does not list", v.ID, id)
			case u.Func == "":
				return nil, fmt.Errorf("unit %d (%s) names no function: make the manifest again with augur field plan", id, u.Pos)
			}
			paths[pkgOf(u.Func)] = true
		}
	}
	var patterns []string
	for p := range paths {
		patterns = append(patterns, p)
	}
	sort.Strings(patterns)
	prog, err := frontend.Load(dir, patterns...)
	if err != nil {
		return nil, err
	}
	funcs := map[string]*frontend.Func{}
	for _, pkg := range prog.Packages {
		fns, err := prog.Select(pkg.PkgPath)
		if err != nil {
			return nil, err
		}
		for _, fn := range fns {
			funcs[fn.Name] = fn
		}
	}
	b := &builder{prog: prog, funcs: funcs, units: units, main: mainPkg, o: o, release: m.Release}
	for _, v := range variants {
		for _, id := range v.Probes {
			if err := b.check(units[id]); err != nil {
				return nil, err
			}
		}
	}
	if _, err := os.Stat(filepath.Join(mainPkg.Module.Dir, RuntimeDir)); err == nil {
		return nil, fmt.Errorf("%s exists in the module: augur field build needs that name for its runtime", filepath.Join(mainPkg.Module.Dir, RuntimeDir))
	}
	out, err := filepath.Abs(o.Out)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	// Two builds at a time: the go command compiles in parallel but links on one core.
	bins := make([]Binary, len(variants))
	errs := make([]error, len(variants))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, v := range variants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			bins[i], errs[i] = b.variant(v, filepath.Join(out, fmt.Sprintf("%s-v%d", filepath.Base(mainPkg.ImportPath), v.ID)))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("variant %d: %w", variants[i].ID, err)
		}
	}
	return bins, nil
}

// pkgOf is the import path of a function name of the front end (path.F, path.T.M,
// path.(*T).M): up to the first dot after the last slash.
func pkgOf(name string) string {
	slash := strings.LastIndexByte(name, '/') + 1
	if dot := strings.IndexByte(name[slash:], '.'); dot >= 0 {
		return name[:slash+dot]
	}
	return name
}

type listed struct {
	ImportPath, Name, Dir string
	GoFiles               []string
	Module                *struct{ Path, Dir string }
}

func goList(dir, pattern string) (*listed, error) {
	cmd := exec.Command("go", "list", "-json=ImportPath,Name,Dir,GoFiles,Module", pattern)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", pattern, err, stderr.String())
	}
	var p listed
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("go list %s: %v", pattern, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s names more than one package: name the main package to build", pattern)
	}
	if p.Name != "main" {
		return nil, fmt.Errorf("%s is package %s, not a main package", p.ImportPath, p.Name)
	}
	if p.Module == nil || p.Module.Dir == "" {
		return nil, fmt.Errorf("%s is in no module on disk", p.ImportPath)
	}
	return &p, nil
}

type builder struct {
	prog    *frontend.Program
	funcs   map[string]*frontend.Func
	units   map[int]plan.Unit
	main    *listed
	o       Options
	release string
}

// check finds unit u's node and makes sure the source still is what the plan saw.
func (b *builder) check(u plan.Unit) error {
	fn := b.funcs[u.Func]
	if fn == nil {
		return fmt.Errorf("unit %d (%s): function %s is not in the source: make the manifest again with augur field plan", u.ID, u.Pos, u.Func)
	}
	if u.Node < 0 || u.Node >= len(fn.CFG.Nodes) {
		return fmt.Errorf("unit %d (%s): %s has no node %d: the source changed since the plan", u.ID, u.Pos, u.Func, u.Node)
	}
	nd := fn.CFG.Nodes[u.Node]
	at := fmt.Sprintf(":%d:%d", nd.Pos.Line, nd.Pos.Column)
	outcomes := 0
	if nd.IsDecision() {
		outcomes = len(nd.Succs)
	}
	if nd.IsExit() || !strings.HasSuffix(u.Pos, at) || outcomes != u.Outcomes {
		return fmt.Errorf("unit %d (%s, %d outcomes) is node %d of %s at %s (%s, %d outcomes) in the source: the source changed since the plan", u.ID, u.Pos, u.Outcomes, u.Node, u.Func, nd.Pos, nd.Text, outcomes)
	}
	if !within(b.main.Module.Dir, nd.Pos.Filename) {
		return fmt.Errorf("unit %d (%s): %s is outside the main module %s: only its files can be rewritten", u.ID, u.Pos, nd.Pos.Filename, b.main.Module.Path)
	}
	return nil
}

func within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// variant rewrites, stamps and builds one variant into out.
func (b *builder) variant(v plan.Variant, out string) (Binary, error) {
	bin := Binary{Variant: v.ID, Path: out}
	tmp, err := os.MkdirTemp("", "augur-field-build-")
	if err != nil {
		return bin, err
	}
	defer os.RemoveAll(tmp)
	rtPath := b.main.Module.Path + "/" + RuntimeDir
	w := &rewrite{fset: b.prog.Fset, files: map[string]*srcedit.File{}, rtPath: rtPath, flags: map[*frontend.Func][]string{}, sampled: b.o.Rate > 0 && b.o.Rate < 1}
	var probes []rt.Probe
	slot := 0
	ids := append([]int(nil), v.Probes...)
	sort.Ints(ids)
	for _, id := range ids {
		u := b.units[id]
		fn := b.funcs[u.Func]
		nd := fn.CFG.Nodes[u.Node]
		if nd.Kind == frontend.KindDeferRun || nd.Kind == frontend.KindDeferDispatch {
			bin.Skipped = append(bin.Skipped, id)
			continue
		}
		fe, err := w.file(fn)
		if err != nil {
			return bin, err
		}
		if err := w.probe(fe, fn, nd, slot); err != nil {
			return bin, fmt.Errorf("unit %d (%s): %v", id, u.Pos, err)
		}
		probes = append(probes, rt.Probe{ID: id, Slot: slot, Outcomes: u.Outcomes})
		slot += max(u.Outcomes, 1)
	}
	bin.Probes = len(probes)
	for fn, flags := range w.flags {
		w.files[w.fset.File(fn.Decl.Pos()).Name()].Insert(fn.Decl.Body.Lbrace+1, "var "+strings.Join(flags, ", ")+" _augur_f.Bool; ")
	}
	if err := w.exitHook(b.main); err != nil {
		return bin, err
	}
	replace := map[string]string{}
	names := make([]string, 0, len(w.files))
	for name := range w.files {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		src, err := w.files[name].Apply()
		if err != nil {
			return bin, fmt.Errorf("%s: %v", name, err)
		}
		dst := filepath.Join(tmp, strconv.Itoa(i)+"_"+filepath.Base(name))
		if err := os.WriteFile(dst, src, 0o644); err != nil {
			return bin, err
		}
		replace[name] = dst
	}
	rtDir := filepath.Join(b.main.Module.Dir, RuntimeDir)
	for name, src := range map[string]string{"rt.go": rt.Source, "zz_stamp.go": b.stamp(v.ID, probes, slot)} {
		dst := filepath.Join(tmp, "rt_"+name)
		if err := os.WriteFile(dst, []byte(src), 0o644); err != nil {
			return bin, err
		}
		replace[filepath.Join(rtDir, name)] = dst
	}
	ov, _ := json.MarshalIndent(map[string]any{"Replace": replace}, "", " ")
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		return bin, err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-overlay", overlay, "-o", out, b.main.ImportPath)
	cmd.Dir = b.o.Dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return bin, fmt.Errorf("go build: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return bin, err
	}
	sum := sha256.Sum256(data)
	bin.SHA256 = hex.EncodeToString(sum[:])
	return bin, nil
}

// stamp renders the runtime's generated file: the counters and the variant's stamp.
// Its //go:build go1.22 line is the file's own language version: it builds in a module whose go
// line is older.
func (b *builder) stamp(variant int, probes []rt.Probe, width int) string {
	o := b.o
	blocks, rate := width, 0.0
	if o.Rate > 0 && o.Rate < 1 {
		// Two more slots per block: the countdown (CD) and its random state.
		blocks, rate = width+2, o.Rate
	}
	var ps strings.Builder
	for _, p := range probes {
		fmt.Fprintf(&ps, "\t\t{ID: %d, Slot: %d, Outcomes: %d},\n", p.ID, p.Slot, p.Outcomes)
	}
	return fmt.Sprintf(`// Code generated by augur field build; DO NOT EDIT.

//go:build go1.22

package rt

// S are the per-P counter blocks the probes add to; NS is their number; CD is the slot of a
// sampled build's countdown.
var S = Blocks[[%[11]d]uint64](%[11]d)

var NS = len(S)

const CD = %[1]d

func init() {
	Start(&Stamp{
		Release: %[2]q, Variant: %[3]d,
		URL: %[4]q, Token: %[5]q, Site: %[6]q, Spool: %[7]q,
		Flush: %[8]d, SpoolMax: %[9]d, Rate: %[12]v,
		Probes: []Probe{
%[10]s		},
	})
}
`, width, b.release, variant, o.URL, o.Token, o.Site, o.Spool, int64(o.Flush), o.SpoolMax, ps.String(), blocks, rate)
}

// rewrite collects one variant's edits.
type rewrite struct {
	fset   *token.FileSet
	files  map[string]*srcedit.File
	rtPath string
	// flags are the locals each function declares at its start (see probe).
	flags  map[*frontend.Func][]string
	parsed map[*frontend.Func]bool
	// sampled makes every probe count with the build's rate (see inc).
	sampled bool
}

// file returns the edits of the file that declares fn, importing the runtime on its package
// clause's line (so that every line stays where it was).
func (w *rewrite) file(fn *frontend.Func) (*srcedit.File, error) {
	name := w.fset.File(fn.Decl.Pos()).Name()
	fe := w.files[name]
	if fe == nil {
		var file *ast.File
		for _, f := range fn.Pkg.Syntax {
			if f.Pos() <= fn.Decl.Pos() && fn.Decl.End() <= f.End() {
				file = f
			}
		}
		if file == nil {
			return nil, fmt.Errorf("%s: declaration not found in the package's files", fn.Name)
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		fe = srcedit.New(w.fset, src, srcedit.NamePrefix(fn.Pkg.Syntax))
		fe.Insert(file.Name.End(), "; import _augur_f "+strconv.Quote(w.rtPath))
		w.files[name] = fe
	}
	if w.parsed == nil {
		w.parsed = map[*frontend.Func]bool{}
	}
	if !w.parsed[fn] {
		fe.Parents(fn.Decl.Body)
		w.parsed[fn] = true
	}
	return fe, nil
}

// exitHook makes main send the last package when it returns or calls os.Exit: a deferred call
// at its start, and the argument of every os.Exit call in the main package wrapped so that it
// flushes first (os.Exit skips deferred calls; the wrapper keeps the import of os used). Exits
// elsewhere (log.Fatal, os.Exit in other packages) skip the last package. The main package's
// files are parsed here, apart from the loaded packages, and edited by offset.
func (w *rewrite) exitHook(main *listed) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range main.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(main.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	edits := func(f *ast.File) (*srcedit.File, error) {
		path := fset.File(f.Pos()).Name()
		fe := w.files[path]
		if fe == nil {
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			fe = srcedit.New(fset, src, srcedit.NamePrefix(files))
			fe.AddAt(fset.Position(f.Name.End()).Offset, 1, "; import _augur_f "+strconv.Quote(w.rtPath))
			w.files[path] = fe
		}
		return fe, nil
	}
	found := false
	for _, f := range files {
		osName := ""
		for _, im := range f.Imports {
			if im.Path.Value == `"os"` {
				osName = "os"
				if im.Name != nil {
					osName = im.Name.Name
				}
			}
		}
		var err error
		ast.Inspect(f, func(n ast.Node) bool {
			if err != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Recv == nil && n.Name.Name == "main" && n.Body != nil {
					var fe *srcedit.File
					if fe, err = edits(f); err == nil {
						fe.AddAt(fset.Position(n.Body.Lbrace).Offset+1, 1, "defer _augur_f.Exit(); ")
						found = true
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || len(n.Args) != 1 || sel.Sel.Name != "Exit" {
					break
				}
				if x, ok := sel.X.(*ast.Ident); ok && osName != "" && osName != "_" && x.Name == osName {
					var fe *srcedit.File
					if fe, err = edits(f); err == nil {
						fe.AddAt(fset.Position(n.Args[0].Pos()).Offset, 1, "_augur_f.Flushed(")
						fe.AddAt(fset.Position(n.Args[0].End()).Offset, 0, ")")
					}
				}
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	if !found {
		return fmt.Errorf("%s has no func main", main.ImportPath)
	}
	return nil
}

// inc is the code that counts slot k: the goroutine pinned to its P adds to the P's block (see
// package rt; measured against atomics in its benchmarks). Sampled (CBI), every execution
// decrements the P's countdown (slot CD of its block, a constant of the stamp) and the one that
// takes it to zero is counted and draws the next from the geometric distribution.
func (w *rewrite) inc(k int) string {
	if w.sampled {
		return fmt.Sprintf("{_augur_p := _augur_f.Pin(); if _augur_p < _augur_f.NS {_augur_b := _augur_f.S[_augur_p]; _augur_b[_augur_f.CD]--; if _augur_b[_augur_f.CD] == 0 {_augur_b[_augur_f.CD] = _augur_f.Gap(&_augur_b[_augur_f.CD+1]); _augur_b[%[1]d]++}} else {_augur_f.OverSampled(%[1]d)}; _augur_f.Unpin()}; ", k)
	}
	return fmt.Sprintf("{_augur_p := _augur_f.Pin(); if _augur_p < _augur_f.NS {_augur_f.S[_augur_p][%[1]d]++} else {_augur_f.Over(%[1]d)}; _augur_f.Unpin()}; ", k)
}

// probe adds the code that counts node nd of fn from slot on: a statement is counted right
// before it runs; an if's outcomes at the start of its branches (an else added where there is
// none); a loop's (for with a condition, range) at the start of its body and after the loop
// (see loop); a switch's, type switch's or select's at the start of their clauses (a clause
// entered by fallthrough is not the switch's outcome), and the default outcome of a switch
// without default in an added default clause. Every probe is the same few inlined
// instructions, no call but the pinning. A decision's count is the sum of its outcomes, so a
// condition that panics is not counted.
func (w *rewrite) probe(fe *srcedit.File, fn *frontend.Func, nd *frontend.Node, slot int) error {
	g := fn.CFG
	out := func(name string) int {
		for k, e := range nd.Succs {
			if e.Outcome == name {
				return slot + k
			}
		}
		return -1
	}
	flag := func(kind string) string {
		f := "_augur_" + kind + strconv.Itoa(nd.ID)
		if !slices.Contains(w.flags[fn], f) {
			w.flags[fn] = append(w.flags[fn], f)
		}
		return f
	}
	if nd.IsDecision() {
		switch s := nd.AST.(type) {
		case *ast.IfStmt:
			fe.Insert(s.Body.Lbrace+1, w.inc(out(frontend.OutTrue)))
			switch e := s.Else.(type) {
			case nil:
				fe.Add(s.Body.End(), token.NoPos, 2, " else {"+w.inc(out(frontend.OutFalse))+"}")
			case *ast.BlockStmt:
				fe.Insert(e.Lbrace+1, w.inc(out(frontend.OutFalse)))
			default:
				fe.BeforeStmt(e, w.inc(out(frontend.OutFalse)))
			}
		case *ast.ForStmt:
			w.loop(fe, s, s.Body, flag, out(frontend.OutTrue), out(frontend.OutFalse))
		case *ast.RangeStmt:
			w.loop(fe, s, s.Body, flag, out(frontend.OutNext), out(frontend.OutDone))
		case *ast.SwitchStmt:
			return w.clauses(fe, s.Body, nd, slot, flag)
		case *ast.TypeSwitchStmt:
			return w.clauses(fe, s.Body, nd, slot, flag)
		case *ast.SelectStmt:
			return w.clauses(fe, s.Body, nd, slot, flag)
		default:
			return fmt.Errorf("no probe for a decision %T", nd.AST)
		}
		return nil
	}
	if nd.Kind == frontend.KindLoop {
		fe.Insert(nd.AST.(*ast.ForStmt).Body.Lbrace+1, w.inc(slot))
		return nil
	}
	s, ok := nd.AST.(ast.Stmt)
	if !ok {
		return fmt.Errorf("no probe for %s", nd.Text)
	}
	if blk, ok := s.(*ast.BlockStmt); ok {
		// An empty block (a function's, a branch's, a loop's body) is counted inside.
		fe.Insert(blk.Lbrace+1, w.inc(slot))
		return nil
	}
	// Init and post statements of headers are not in statement lists.
	for t := range g.StmtNode {
		switch t := t.(type) {
		case *ast.IfStmt:
			if t.Init == s {
				fe.BeforeStmt(t, w.inc(slot))
				return nil
			}
		case *ast.SwitchStmt:
			if t.Init == s {
				fe.BeforeStmt(t, w.inc(slot))
				return nil
			}
		case *ast.TypeSwitchStmt:
			if t.Init == s {
				fe.BeforeStmt(t, w.inc(slot))
				return nil
			}
		case *ast.ForStmt:
			if t.Init == s {
				fe.BeforeStmt(t, w.inc(slot))
				return nil
			}
			if t.Post == s {
				// The post statement runs after the body falls through or continues.
				fe.Add(t.Body.Rbrace, token.NoPos, 1, "; "+w.inc(slot))
				for _, nj := range g.Nodes {
					if nj.Kind == frontend.KindJump && len(nj.Succs) == 1 && nj.Succs[0].To == nd.ID {
						fe.BeforeStmt(nj.AST.(ast.Stmt), w.inc(slot))
					}
				}
				return nil
			}
		}
	}
	fe.BeforeStmt(s, w.inc(slot))
	return nil
}

// loop counts the outcomes of a loop's condition or range: one more iteration (slot next) at
// the start of the body; the loop ending (slot done) after it, unless a break left it (a flag
// the breaks set says so; return, goto and continue to an outer loop skip the code after it).
func (w *rewrite) loop(fe *srcedit.File, s ast.Stmt, body *ast.BlockStmt, flag func(string) string, next, done int) {
	fe.Insert(body.Lbrace+1, w.inc(next))
	f := flag("d")
	label := ""
	if l, ok := fe.Parent[s].(*ast.LabeledStmt); ok {
		label = l.Label.Name
	}
	for _, br := range breaksOf(fe, s, body, label) {
		fe.BeforeStmt(br, f+" = true; ")
	}
	fe.Add(s.End(), token.NoPos, 6, "; if "+f+" {"+f+" = false} else {"+w.inc(done)+"}")
}

// clauses counts the outcomes of a switch, type switch or select at the start of each clause.
func (w *rewrite) clauses(fe *srcedit.File, body *ast.BlockStmt, nd *frontend.Node, slot int, flag func(string) string) error {
	fell := ""
	for i, c := range body.List {
		var colon token.Pos
		var outcome string
		var stmts []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			colon, stmts = c.Colon, c.Body
			outcome = frontend.CaseOutcome(i + 1)
			if c.List == nil {
				outcome = frontend.OutDefault
			}
		case *ast.CommClause:
			colon, stmts = c.Colon, c.Body
			outcome = frontend.CaseOutcome(i + 1)
			if c.Comm == nil {
				outcome = frontend.OutDefault
			}
		}
		k := -1
		for j, e := range nd.Succs {
			if e.Outcome == outcome {
				k = j
			}
		}
		if k < 0 {
			return fmt.Errorf("clause %d of %s is no outcome", i+1, nd.Text)
		}
		if fell != "" {
			// Entered by the previous clause's fallthrough, or as the switch's outcome.
			fe.Insert(colon+1, "if "+fell+" {"+fell+" = false} else {"+w.inc(slot+k)+"}; ")
		} else {
			fe.Insert(colon+1, w.inc(slot+k))
		}
		fell = ""
		if n := len(stmts); n > 0 {
			if br, ok := stmts[n-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				// One flag per switch: only one fallthrough is pending at a time.
				fell = flag("t")
				fe.BeforeStmt(br, fell+" = true; ")
			}
		}
	}
	for j, e := range nd.Succs {
		if e.Outcome == frontend.OutDefault && !hasDefault(body) {
			fe.Add(body.Rbrace, token.NoPos, 2, "; default: "+w.inc(slot+j))
		}
	}
	return nil
}

func hasDefault(body *ast.BlockStmt) bool {
	for _, c := range body.List {
		switch c := c.(type) {
		case *ast.CaseClause:
			if c.List == nil {
				return true
			}
		case *ast.CommClause:
			if c.Comm == nil {
				return true
			}
		}
	}
	return false
}

// breaksOf lists the break statements that leave loop: unlabelled ones not inside a nested
// for, range, switch or select, and those naming its label; function literals are other
// functions.
func breaksOf(fe *srcedit.File, loop ast.Stmt, body *ast.BlockStmt, label string) []*ast.BranchStmt {
	var out []*ast.BranchStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok != token.BREAK {
				return true
			}
			if n.Label != nil {
				if n.Label.Name == label {
					out = append(out, n)
				}
				return true
			}
			for p := fe.Parent[n]; p != nil && p != ast.Node(loop); p = fe.Parent[p] {
				switch p.(type) {
				case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
					return true
				}
			}
			out = append(out, n)
		}
		return true
	})
	return out
}
