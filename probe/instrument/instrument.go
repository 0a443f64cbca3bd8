package instrument

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/version"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/probe/srcedit"
	"github.com/augur-perf/augur/source/frontend"
	"golang.org/x/tools/go/packages"
)

// Build is the result of instrumenting: an overlay for the go command and what is needed to
// read the counters back.
type Build struct {
	// Overlay is the path of the JSON file to pass as go build/test/run -overlay.
	Overlay string
	// Packages are the instrumented packages, sorted by import path.
	Packages []*Package
	// Files maps each rewritten source file (as the user has it) to its rewritten copy.
	Files map[string]string
	// Cgo names the selected functions left uncounted because they are declared in files that
	// import "C" (see frontend.WithoutCgo); cgo's own functions are left out unnamed.
	Cgo []string
}

// Package is one instrumented package.
type Package struct {
	Path string `json:"package"`
	// Layout is a digest of the counter layout: a counter file is read only by the build whose
	// layout it names.
	Layout   string `json:"layout"`
	Counters int    `json:"counters"`
	// Journal is the capacity of each block's redo journal (see readCounterFile).
	Journal int        `json:"journal"`
	Funcs   []FuncInfo `json:"functions"`
	plans   []*funcPlan
}

// FuncInfo describes one instrumented function in a counter file header.
type FuncInfo struct {
	Name  string `json:"name"`
	Pos   string `json:"pos"`
	Hash  string `json:"hash"`
	Nodes int    `json:"nodes"`
	Base  int    `json:"base"`
}

// SourceHash digests a function's source text, from "func" to the closing brace.
func SourceHash(text []byte) string {
	h := sha256.Sum256(text)
	return hex.EncodeToString(h[:8])
}

// FuncHash is the digest of fn's source text as profiles record it, so that a profile measured on
// other source can be recognised. The text is the file's own, not the one a //line directive
// names (generated code: goyacc's output names the grammar).
func FuncHash(fn *frontend.Func) (string, error) {
	tf := fn.Pkg.Fset.File(fn.Decl.Pos())
	src, err := os.ReadFile(tf.Name())
	if err != nil {
		return "", err
	}
	start, end := tf.Offset(fn.Decl.Pos()), tf.Offset(fn.Decl.End())
	if end > len(src) {
		return "", fmt.Errorf("%s: the file changed while augur read it", fn.Pkg.Fset.Position(fn.Decl.Pos()))
	}
	return SourceHash(src[start:end]), nil
}

// Instrument rewrites the files holding fns (functions selected from prog) into dir, adds the
// runtime file to each package, and writes the overlay file. The user's files are only read.
func Instrument(prog *frontend.Program, fns []*frontend.Func, dir string) (*Build, error) {
	if len(fns) == 0 {
		return nil, errors.New("instrument: no functions selected")
	}
	b := &Build{Files: map[string]string{}}
	fns, b.Cgo = frontend.WithoutCgo(fns)
	byPkg := map[string][]*frontend.Func{}
	seen := map[*ast.FuncDecl]bool{}
	for _, fn := range fns {
		if seen[fn.Decl] {
			continue
		}
		seen[fn.Decl] = true
		byPkg[fn.Pkg.PkgPath] = append(byPkg[fn.Pkg.PkgPath], fn)
	}
	if len(byPkg) == 0 {
		return nil, fmt.Errorf("instrument: every function selected is in a file that imports \"C\" (%s): the go command compiles such a file from cgo's output, which augur cannot rewrite", strings.Join(b.Cgo, ", "))
	}
	paths := make([]string, 0, len(byPkg))
	for p := range byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	replace := map[string]string{}
	var lks []leafPkg
	for _, path := range paths {
		pkg := byPkg[path][0].Pkg
		noteSafeIndexes(pkg.TypesInfo, pkg.Syntax) // before anything asks what may panic
		lks = append(lks, leafPkg{pkg, byPkg[path]})
	}
	lp := findLeaves(lks)
	// Plans first, for every package: twins reach across packages (see findTwins).
	type pkgWork struct {
		pk     *Package
		list   []*frontend.Func
		prefix string
		srcs   map[*ast.File][]byte
	}
	var works []pkgWork
	var tps []twinPkg
	for _, path := range paths {
		list := byPkg[path]
		pkg := list[0].Pkg
		if len(pkg.Syntax) == 0 || len(pkg.GoFiles) == 0 {
			return nil, fmt.Errorf("instrument: package %s has no source files", path)
		}
		pk := &Package{Path: path}
		prefix := srcedit.NamePrefix(pkg.Syntax)
		leaves := lp.leafFuncs(pkg)
		// Twins call generic functions of the runtime from the package's own files: not in a
		// package whose Go version predates them (nor do leaves' call sites count there).
		generic := typeParams(pkg)
		derived, sites := lp.derived[path], lp.sites[path]
		srcs := map[*ast.File][]byte{}
		for k, fn := range list {
			file := fileOf(pkg.Syntax, fn.Decl)
			if file == nil {
				return nil, fmt.Errorf("instrument: %s: declaration not found in the package's files", fn.Name)
			}
			if srcs[file] == nil {
				src, err := os.ReadFile(prog.Fset.File(file.Pos()).Name())
				if err != nil {
					return nil, fmt.Errorf("instrument: %v", err)
				}
				srcs[file] = src
			}
			safe := derefSafe(pkg.TypesInfo, fn, leaves, exprSource(srcs[file], prog.Fset, pkg.TypesInfo, leaves.rename))
			p, err := newPlan(fn, k, safe)
			if err != nil {
				return nil, fmt.Errorf("instrument: %v", err)
			}
			p.leaves = leaves
			p.derived, p.sites, p.copy = derived[k], sites[k], lp.copies[path][k]
			for j, s := range p.sites {
				s.ctr = 2 + 3*p.n + p.e + j
			}
			p.slotSites()
			pk.plans = append(pk.plans, p)
		}
		// Twins (see twins.go): an entry's body is replaced, its twin and those of the
		// functions its twin reaches appended to their files; twins count paths (see
		// paths.go), so only functions whose paths can be numbered have them.
		for k, fn := range list {
			p := pk.plans[k]
			file := fileOf(pkg.Syntax, fn.Decl)
			if noTwins || !generic || !twinEligible(pkg.TypesInfo, fn, p) {
				continue
			}
			pf := &fileEdits{File: srcedit.New(prog.Fset, srcs[file], prefix), file: file}
			if pp, err := planPaths(p, pkg.TypesInfo, pf); err == nil {
				p.pp = pp
			}
		}
		works = append(works, pkgWork{pk, list, prefix, srcs})
		tps = append(tps, twinPkg{prog.Fset, pkg.TypesInfo, pkg.Syntax, list, pk.plans})
	}
	tss := findTwins(tps)
	for pi, w := range works {
		pk, list, prefix, srcs, ts := w.pk, w.list, w.prefix, w.srcs, tss[pi]
		path, pkg := pk.Path, list[0].Pkg
		files := map[*ast.File]*fileEdits{}
		var order []*ast.File
		base := firstCounter // the first counters of every block are no function's (see paths.go)
		for k, fn := range list {
			p := pk.plans[k]
			if !ts.twin[k] {
				p.pp = nil
			} else {
				p.pp.clear = ts.clear[k]
			}
			file := fileOf(pkg.Syntax, fn.Decl)
			src := srcs[file]
			p.base = base
			if p.pp != nil {
				p.pp.base = base + p.size() - p.pp.size()
			}
			base += p.size()
			fe := files[file]
			if fe == nil && !p.derived {
				// A file holding only derived leaves is left as it is (the import would go
				// unused).
				fe = &fileEdits{File: srcedit.New(prog.Fset, src, prefix), file: file}
				files[file] = fe
				order = append(order, file)
				// On the package clause's line, so that every line stays where it was.
				fe.Insert(file.Name.End(), "; import _augur_r "+strconv.Quote(path+"/"+RuntimeDir))
			}
			start, end := prog.Fset.Position(fn.Decl.Pos()).Offset, prog.Fset.Position(fn.Decl.End()).Offset
			pk.Funcs = append(pk.Funcs, FuncInfo{
				Name:  fn.Name,
				Pos:   prog.Fset.Position(fn.Decl.Pos()).String(),
				Hash:  SourceHash(src[start:end]),
				Nodes: len(fn.CFG.Nodes),
				Base:  p.base,
			})
		}
		twinsOf := map[*ast.File][]string{}
		for k, fn := range list {
			p := pk.plans[k]
			if p.derived || inEntry(fn, list, ts) {
				continue
			}
			file := fileOf(pkg.Syntax, fn.Decl)
			fe := files[file]
			if ts.entry[k] {
				names := nameParams(fe, fn.Decl)
				body := fe.Src[fe.Off(fn.Decl.Body.Lbrace)+1 : fe.Off(fn.Decl.Body.Rbrace)]
				fe.Add(fn.Decl.Body.Lbrace+1, fn.Decl.Body.Rbrace, 1, entryCode(fn, p, names)+strings.Repeat("\n", bytes.Count(body, []byte("\n"))))
			} else if err := rewriteFunc(fe, p, pkg.TypesInfo, false); err != nil {
				return nil, fmt.Errorf("instrument: %s: %v", fn.Name, err)
			}
			if p.copy != "" {
				twinsOf[file] = append(twinsOf[file], leafCopy(prog.Fset, srcs[file], fn, p.copy))
			}
			if !ts.twin[k] {
				continue
			}
			text, err := twinText(prog.Fset, srcs[file], prefix, file, p, litsOf(fn, list, pk.plans), ts.calls[k], ts.side[k], pkg.TypesInfo)
			if err != nil {
				return nil, fmt.Errorf("instrument: %s: twin: %v", fn.Name, err)
			}
			pos := prog.Fset.Position(fn.Decl.Pos())
			twinsOf[file] = append(twinsOf[file], "\n//line "+pos.Filename+":"+strconv.Itoa(pos.Line)+"\n"+text+"\n")
			if ts.sideEntry[k] {
				text, err := sideText(prog.Fset, srcs[file], prefix, file, fn, p)
				if err != nil {
					return nil, fmt.Errorf("instrument: %s: side entry: %v", fn.Name, err)
				}
				twinsOf[file] = append(twinsOf[file], "\n//line "+pos.Filename+":"+strconv.Itoa(pos.Line)+"\n"+text+"\n")
			}
		}
		pk.Counters = base
		for _, p := range pk.plans {
			pk.Journal = max(pk.Journal, p.journal)
		}
		lay, _ := json.Marshal(struct {
			P    string
			N, J int
			F    []FuncInfo
		}{path, base, pk.Journal, pk.Funcs})
		pk.Layout = SourceHash(lay)
		pdir := filepath.Join(dir, strconv.Itoa(pi))
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			return nil, err
		}
		for _, file := range order {
			fe := files[file]
			out, err := fe.Apply()
			if err != nil {
				return nil, fmt.Errorf("instrument: %s: %v", prog.Fset.File(file.Pos()).Name(), err)
			}
			for _, t := range twinsOf[file] {
				out = append(out, t...)
			}
			orig := prog.Fset.File(file.Pos()).Name()
			dst := filepath.Join(pdir, filepath.Base(orig))
			if err := os.WriteFile(dst, out, 0o644); err != nil {
				return nil, err
			}
			replace[orig] = dst
			b.Files[orig] = dst
		}
		header, _ := json.Marshal(pk)
		var sides []string
		for _, j := range ts.sides {
			sides = append(sides, works[j].pk.Path)
		}
		rt := strings.ReplaceAll(runtimeSource(pkg.Types.Name(), pk, "\x00", sides), "_augur_", prefix)
		rt = strings.Replace(rt, strconv.Quote("\x00"), strconv.Quote(string(header)), 1)
		dst := filepath.Join(pdir, RuntimeFile)
		if err := os.WriteFile(dst, []byte(rt), 0o644); err != nil {
			return nil, err
		}
		pkgDir := filepath.Dir(pkg.GoFiles[0])
		replace[filepath.Join(pkgDir, RuntimeFile)] = dst
		if err := os.MkdirAll(filepath.Join(pdir, RuntimeDir), 0o755); err != nil {
			return nil, err
		}
		ents, _ := rtFiles.ReadDir("rt")
		for _, e := range ents {
			data, _ := rtFiles.ReadFile("rt/" + e.Name())
			rtDst := filepath.Join(pdir, RuntimeDir, e.Name())
			if err := os.WriteFile(rtDst, data, 0o644); err != nil {
				return nil, err
			}
			replace[filepath.Join(pkgDir, RuntimeDir, e.Name())] = rtDst
		}
		b.Packages = append(b.Packages, pk)
	}
	byPath := map[string]*Package{}
	for _, pk := range b.Packages {
		byPath[pk.Path] = pk
	}
	for _, pk := range b.Packages {
		for _, p := range pk.plans {
			for _, s := range p.sites {
				callee := byPath[s.calleePkg].plans[s.callee]
				callee.from = append(callee.from, siteRef{pk.Path, p, s.ctr})
			}
		}
	}
	ov, _ := json.MarshalIndent(map[string]any{"Replace": replace}, "", " ")
	b.Overlay = filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(b.Overlay, ov, 0o644); err != nil {
		return nil, err
	}
	return b, nil
}

// noTwins turns twins off (tests compare the counts with and without them).
var noTwins bool

func fileOf(files []*ast.File, d *ast.FuncDecl) *ast.File {
	for _, f := range files {
		if f.Pos() <= d.Pos() && d.End() <= f.End() {
			return f
		}
	}
	return nil
}

// Collect reads the counter files under dir that this build's programs wrote (files of other
// builds are reported, not read) and returns the profile they add up to, with Runs 0 (the
// caller decides what a run is). files is how many counter files were read.
func (b *Build) Collect(dir string) (p *profile.Profile, files int, err error) {
	p = &profile.Profile{Format: profile.Format, Funcs: map[string]*profile.Func{}}
	sums := map[string][]uint64{}
	byPath := map[string]*Package{}
	for _, pk := range b.Packages {
		byPath[pk.Path] = pk
		sums[pk.Path] = make([]uint64, pk.Counters)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, err
	}
	var errs []string
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".cnt") {
			continue
		}
		name := filepath.Join(dir, e.Name())
		hdr, counts, err := readCounterFile(name)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		pk := byPath[hdr.Path]
		if pk == nil || pk.Layout != hdr.Layout || len(counts) != pk.Counters {
			errs = append(errs, fmt.Sprintf("%s: counters of another build of %s", name, hdr.Path))
			continue
		}
		s := sums[pk.Path]
		for i, c := range counts {
			s[i] += c
		}
		files++
	}
	var bad []string
	for _, pk := range b.Packages {
		s := sums[pk.Path]
		for _, pl := range pk.plans {
			pl.paths = nil
			if pl.pp == nil {
				continue
			}
			t, err := pl.pp.decode(s)
			if err != nil {
				bad = append(bad, err.Error())
				continue
			}
			pl.paths = t
			// The returns of derived leaves the paths counted go with the others.
			for site, n := range t.ticks {
				s[pl.base+site.ctr] += n
			}
		}
	}
	for _, pk := range b.Packages {
		s := sums[pk.Path]
		for _, pl := range pk.plans {
			if !pl.derived && pl.copy == "" {
				continue
			}
			// Its invocations are the returns counted at its call sites, in its package
			// and in others, and, a split leaf's, those it counted itself.
			n := uint64(0)
			for _, f := range pl.from {
				n += sums[f.pkg][f.caller.base+f.ctr]
			}
			if pl.derived {
				s[pl.base] = n
			} else {
				s[pl.base] += n
			}
		}
	}
	for _, pk := range b.Packages {
		for i, pl := range pk.plans {
			f, err := pl.profileFunc(sums[pk.Path])
			if err != nil {
				bad = append(bad, err.Error())
				continue
			}
			f.Pos, f.Hash = pk.Funcs[i].Pos, pk.Funcs[i].Hash
			f.Concurrent = sums[pk.Path][pl.overlaps()] > 0
			p.Funcs[pl.fn.Name] = f
		}
	}
	if len(bad) > 0 {
		return nil, files, &InconsistentError{Funcs: bad}
	}
	if len(errs) > 0 {
		return p, files, errors.New(strings.Join(errs, "\n"))
	}
	return p, files, nil
}

// InconsistentError is a measurement whose counts break flow conservation: no profile comes
// from it.
type InconsistentError struct {
	// Funcs describes each function whose counts do not conserve flow, one line each.
	Funcs []string
}

func (e *InconsistentError) Error() string {
	return fmt.Sprintf("the counts of %d function(s) do not conserve flow, so no profile was written:\n  %s\n"+
		"Every probe is exact, so the likely cause is counter files changed after the run (a process of the "+
		"workload still running while augur read them, or files written by something else), or a defect "+
		"in augur's probes for these functions (please report it with the functions' source)",
		len(e.Funcs), strings.Join(e.Funcs, "\n  "))
}

func readCounterFile(name string) (*Package, []uint64, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, err
	}
	if !bytes.HasPrefix(data, []byte(counterMagic)) {
		return nil, nil, fmt.Errorf("%s: not an augur counter file", name)
	}
	nl := bytes.IndexByte(data, '\n')
	hlen, stride, err := headerLine(data, nl)
	if err != nil || hlen > len(data) {
		return nil, nil, fmt.Errorf("%s: bad header", name)
	}
	var pk Package
	if err := json.Unmarshal(bytes.TrimSpace(data[nl+1:hlen]), &pk); err != nil {
		return nil, nil, fmt.Errorf("%s: bad header: %v", name, err)
	}
	// One block per P, the overflow block and the blocks goroutines took (see rt.Get), added
	// up here (mod 2^64: the overflow block may hold subtractions of counts other blocks added).
	// A block is the counters, the length of its journal and the journal, pairs (counter, new
	// value), padded to the stride: a length other than zero means the process ended while
	// copying a committed journal into the counters, so the copy is finished here.
	body := data[hlen:]
	n, bsize := pk.Counters, pk.Counters+1+2*pk.Journal
	if n <= 0 || pk.Journal < 0 || stride < bsize || len(body) == 0 || len(body)%(8*stride) != 0 {
		return nil, nil, fmt.Errorf("%s: %d bytes of counters, not whole blocks of %d", name, len(body), stride)
	}
	counts := make([]uint64, n)
	block := make([]uint64, bsize)
	for at := 0; at < len(body); at += 8 * stride {
		for i := range block {
			block[i] = binary.NativeEndian.Uint64(body[at+8*i:])
		}
		k := block[n]
		if k > uint64(pk.Journal) {
			return nil, nil, fmt.Errorf("%s: journal of %d entries in a block of capacity %d", name, k, pk.Journal)
		}
		for j := 0; j < int(k); j++ {
			i := block[n+1+2*j]
			if i >= uint64(n) {
				return nil, nil, fmt.Errorf("%s: journal names counter %d of %d", name, i, n)
			}
			block[i] = block[n+2+2*j]
		}
		for i := range n {
			counts[i] += block[i]
		}
	}
	return &pk, counts, nil
}

// headerLine parses a counter file's first line (ending at nl): the magic, the header's length
// and the blocks' stride in words.
func headerLine(data []byte, nl int) (hlen, stride int, err error) {
	if nl < len(counterMagic) {
		return 0, 0, errors.New("no header line")
	}
	f := strings.Fields(string(data[len(counterMagic):nl]))
	if len(f) != 2 {
		return 0, 0, errors.New("bad header line")
	}
	if hlen, err = strconv.Atoi(f[0]); err == nil {
		stride, err = strconv.Atoi(f[1])
	}
	return hlen, stride, err
}

// profileFunc derives one function's counts from its package's summed counters.
func (p *funcPlan) profileFunc(c []uint64) (*profile.Func, error) {
	val, bad := p.solve(c)
	if bad >= 0 {
		nd := p.g.Nodes[bad]
		return nil, fmt.Errorf("%s: %s: node %d (%s): counts not determined", nd.Pos, p.fn.Name, bad, nd.Text)
	}
	if msg := p.check(c, val); msg != "" {
		return nil, fmt.Errorf("%s: %s", p.fn.Name, msg)
	}
	f := &profile.Func{Invocations: c[p.base], Nodes: make([]profile.Node, p.n)}
	for i, nd := range p.g.Nodes {
		n := &f.Nodes[i]
		n.Count = val[i]
		n.Panics = val[p.n+p.e+i]
		if p.frame {
			n.Recovered = c[p.rec(i)]
			if n.Recovered > n.Panics {
				return nil, fmt.Errorf("%s: node %d (%s, %s): %d of its %d panics recovered", p.fn.Name, i, nd.Text, nd.Pos, n.Recovered, n.Panics)
			}
		}
		if nd.IsDecision() {
			n.Outcomes = make([]uint64, len(nd.Succs))
			for k := range nd.Succs {
				n.Outcomes[k] = val[p.n+p.edge0[i]+k]
			}
		}
	}
	if p.paths != nil {
		if err := p.addPaths(f, p.paths); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// typeParams reports whether every file of pkg may use type parameters (Go 1.18 on, as go.mod
// or the file's build line says).
func typeParams(pkg *packages.Package) bool {
	for _, f := range pkg.Syntax {
		if v := pkg.TypesInfo.FileVersions[f]; v != "" && version.Compare(v, "go1.18") < 0 {
			return false
		}
	}
	return true
}
