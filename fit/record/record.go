// Package record measures what fit learns from: it rewrites one function of a copy of its
// package (through go's -overlay; the user's files are never touched) so that each invocation
// writes one augur-trace/1 line — the parameters' sizes at entry (len of slices, maps, strings
// and channels; integer and float values; booleans as 0 and 1), each of the function's loops'
// iteration counts, each of its ifs' true and false outcomes and each clause's entries of its
// switches, type switches and selects, with its time when asked — and
// runs a go workload on it. The injected code
// uses the standard library only and is safe under concurrency. It owns the rewriting and the
// injected recorder; the trace format is fit/trace's.
package record

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/fit/trace"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/source/frontend"
)

// EnvTrace names the variable holding the trace file the recorder appends to.
const EnvTrace = "AUGUR_FIT_TRACE"

// Options control Record.
type Options struct {
	// Rate records each invocation with this probability (default 1: every one).
	Rate float64
	// Time adds each invocation's wall time in nanoseconds ("time_ns").
	Time bool
	// Fields are fields of struct parameters to record as parameters too, each PARAM.FIELD
	// (through nested fields and pointers: req.Page.Items) with how to measure it: "len" or
	// "value" (len(req.Items), req.Limit). An invocation where a pointer on the way is nil
	// is not recorded: the field has no value then.
	Fields []string
}

// Plan is the instrumentation of one function: the trace's header and the overlay.
type Plan struct {
	Header  trace.Header
	Overlay string
	work    string
}

// Instrument rewrites fn into work (a directory of augur's) and returns the plan.
func Instrument(fn *frontend.Func, work string, o Options) (*Plan, error) {
	if o.Rate == 0 {
		o.Rate = 1
	}
	if o.Rate < 0 || o.Rate > 1 {
		return nil, fmt.Errorf("rate %v: want 0 < rate ≤ 1", o.Rate)
	}
	if fn.FromCgo() {
		return nil, fmt.Errorf("%s is in a file that imports \"C\": the go command compiles such a file from cgo's output, which augur cannot rewrite", fn.Name)
	}
	fset := fn.CFG.Fset
	info := fn.Pkg.TypesInfo
	h := trace.Header{Function: fn.Name, Rate: o.Rate}
	// Parameters: what each contributes, as an expression evaluated at entry.
	var exprs []string
	if fn.Decl.Type.Params != nil {
		for _, field := range fn.Decl.Type.Params.List {
			for _, name := range field.Names {
				if name.Name == "_" {
					continue
				}
				obj, _ := info.Defs[name].(*types.Var)
				if obj == nil {
					continue
				}
				if e, label, ok := measureOf(name.Name, obj.Type()); ok {
					h.Params = append(h.Params, label)
					exprs = append(exprs, e)
				}
			}
		}
	}
	for _, spec := range o.Fields {
		e, label, err := fieldMeasure(fn, spec)
		if err != nil {
			return nil, err
		}
		h.Params = append(h.Params, label)
		exprs = append(exprs, e)
	}
	// Loops: the function's own for and range statements (not those of function literals).
	var loops []ast.Stmt
	ast.Inspect(fn.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			loops = append(loops, n.(ast.Stmt))
		}
		return true
	})
	for _, l := range loops {
		p := fset.Position(l.Pos())
		h.Quantities = append(h.Quantities, fmt.Sprintf("loop@%s:%d", filepath.Base(p.Filename), p.Line))
	}
	// Branches: each if's true and false outcomes, counted by wrapping its condition.
	var ifs []*ast.IfStmt
	ast.Inspect(fn.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			ifs = append(ifs, n)
		}
		return true
	})
	for _, s := range ifs {
		p := fset.Position(s.If)
		for _, out := range []string{"true", "false"} {
			h.Quantities = append(h.Quantities, fmt.Sprintf("branch@%s:%d:%s", filepath.Base(p.Filename), p.Line, out))
		}
	}
	// Switches, type switches and selects the CFG takes as decisions (two outcomes or more):
	// each clause's entries counted at the top of its body (an entry by fallthrough taken
	// back by the clause it falls from), and a switch without a default clause given one that
	// only counts, the "no case matched" outcome.
	type multi struct {
		body     *ast.BlockStmt
		implicit int // the counter of the added default clause, or -1
		first    int // the counter of the first clause
	}
	var multis []multi
	next := len(loops) + 2*len(ifs)
	ast.Inspect(fn.Decl.Body, func(n ast.Node) bool {
		var body *ast.BlockStmt
		var kw string
		var at token.Pos
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SwitchStmt:
			body, kw, at = n.Body, "switch@", n.Switch
		case *ast.TypeSwitchStmt:
			body, kw, at = n.Body, "switch@", n.Switch
		case *ast.SelectStmt:
			body, kw, at = n.Body, "select@", n.Select
		default:
			return true
		}
		hasDefault := kw == "select@" // a select without default has no other outcome
		for _, c := range body.List {
			if cc, ok := c.(*ast.CaseClause); ok && cc.List == nil {
				hasDefault = true
			}
			if cc, ok := c.(*ast.CommClause); ok && cc.Comm == nil {
				hasDefault = true
			}
		}
		outcomes := len(body.List)
		if !hasDefault {
			outcomes++
		}
		if outcomes < 2 {
			return true // not a decision of the CFG
		}
		p := fset.Position(at)
		mu := multi{body: body, implicit: -1, first: next}
		for k, c := range body.List {
			name := "case" + strconv.Itoa(k+1)
			if cc, ok := c.(*ast.CaseClause); ok && cc.List == nil {
				name = "default"
			}
			if cc, ok := c.(*ast.CommClause); ok && cc.Comm == nil {
				name = "default"
			}
			h.Quantities = append(h.Quantities, fmt.Sprintf("%s%s:%d:%s", kw, filepath.Base(p.Filename), p.Line, name))
			next++
		}
		if !hasDefault {
			h.Quantities = append(h.Quantities, fmt.Sprintf("%s%s:%d:default", kw, filepath.Base(p.Filename), p.Line))
			mu.implicit = next
			next++
		}
		multis = append(multis, mu)
		return true
	})
	counters := next
	if o.Time {
		h.Quantities = append(h.Quantities, "time_ns")
	}
	if len(h.Quantities) == 0 {
		return nil, fmt.Errorf("%s has no loop, if, switch or select to count (give --time to record its time)", fn.Name)
	}
	// The rewrite: a counter per loop incremented at the top of its body, two per if counted by
	// its wrapped condition, and at entry a deferred call that records the parameters
	// (evaluated now) and the counts (read at exit).
	file := fileOf(fn)
	if file == nil {
		return nil, fmt.Errorf("%s: its file was not found", fn.Name)
	}
	src, err := os.ReadFile(fset.File(file.Pos()).Name())
	if err != nil {
		return nil, err
	}
	tf := fset.File(file.Pos())
	type insert struct {
		at   int
		text string
	}
	var ins []insert
	prefix := "_augurfit_"
	counter := prefix + "c"
	start := prefix + "t"
	for i, l := range loops {
		var body *ast.BlockStmt
		switch l := l.(type) {
		case *ast.ForStmt:
			body = l.Body
		case *ast.RangeStmt:
			body = l.Body
		}
		ins = append(ins, insert{tf.Offset(body.Lbrace) + 1, fmt.Sprintf(" %s[%d]++;", counter, i)})
	}
	for i, s := range ifs {
		ins = append(ins, insert{tf.Offset(s.Cond.Pos()), fmt.Sprintf("%sBr(&%s, %d, ", prefix, counter, len(loops)+2*i)})
		ins = append(ins, insert{tf.Offset(s.Cond.End()), ")"})
	}
	for _, mu := range multis {
		for k, c := range mu.body.List {
			var colon token.Pos
			var stmts []ast.Stmt
			switch c := c.(type) {
			case *ast.CaseClause:
				colon, stmts = c.Colon, c.Body
			case *ast.CommClause:
				colon, stmts = c.Colon, c.Body
			}
			ins = append(ins, insert{tf.Offset(colon) + 1, fmt.Sprintf(" %s[%d]++;", counter, mu.first+k)})
			if m := len(stmts); m > 0 {
				if br, ok := stmts[m-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
					// The next clause's count goes up on entry; this entry is not its outcome.
					ins = append(ins, insert{tf.Offset(br.Pos()), fmt.Sprintf("%s[%d]--; ", counter, mu.first+k+1)})
				}
			}
		}
		if mu.implicit >= 0 {
			ins = append(ins, insert{tf.Offset(mu.body.Rbrace), fmt.Sprintf("default: %s[%d]++; ", counter, mu.implicit)})
		}
	}
	var entry strings.Builder
	fmt.Fprintf(&entry, " var %s [%d]uint64;", counter, counters)
	timeArg := "0"
	if o.Time {
		fmt.Fprintf(&entry, " %s := %sNow();", start, prefix)
		timeArg = start
	}
	fmt.Fprintf(&entry, " defer %sRecord([]float64{%s}, %s[:], %s);", prefix, strings.Join(exprs, ", "), counter, timeArg)
	ins = append(ins, insert{tf.Offset(fn.Decl.Body.Lbrace) + 1, entry.String()})
	// Apply from the end so offsets stay valid; everything stays on its line.
	for i := 0; i < len(ins); i++ {
		for j := i + 1; j < len(ins); j++ {
			if ins[j].at > ins[i].at {
				ins[i], ins[j] = ins[j], ins[i]
			}
		}
	}
	out := append([]byte(nil), src...)
	for _, in := range ins {
		out = append(out[:in.at], append([]byte(in.text), out[in.at:]...)...)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	path := fset.Position(file.Pos()).Filename
	rewritten := filepath.Join(work, filepath.Base(path))
	if err := os.WriteFile(rewritten, out, 0o644); err != nil {
		return nil, err
	}
	rt := runtimeSource(fn.Pkg.Name, counters, o)
	rtPath := filepath.Join(filepath.Dir(path), "zz_augurfit_runtime.go")
	rtFile := filepath.Join(work, "zz_augurfit_runtime.go")
	if err := os.WriteFile(rtFile, rt, 0o644); err != nil {
		return nil, err
	}
	overlay := filepath.Join(work, "overlay.json")
	ov := fmt.Sprintf(`{"Replace":{%s:%s,%s:%s}}`, strconv.Quote(path), strconv.Quote(rewritten), strconv.Quote(rtPath), strconv.Quote(rtFile))
	if err := os.WriteFile(overlay, []byte(ov), 0o644); err != nil {
		return nil, err
	}
	return &Plan{Header: h, Overlay: overlay, work: work}, nil
}

// ParamError is an Options.Fields entry that names no recordable field of the function: the
// caller's mistake, which a command line reports as a usage error.
type ParamError struct{ msg string }

func (e *ParamError) Error() string { return e.msg }

// UsageError says that the caller, not the program, is at fault.
func (e *ParamError) UsageError() bool { return true }

func paramErrorf(format string, a ...any) error { return &ParamError{fmt.Sprintf(format, a...)} }

// fieldMeasure turns PARAM.FIELD...=len|value into the expression recorded at entry, and its
// label: through pointers, a function literal called on the spot that gives NaN when one is nil
// (the program must behave as without augur: no nil dereference of ours), and the invocation is
// then not recorded.
func fieldMeasure(fn *frontend.Func, spec string) (expr, label string, err error) {
	path, how, ok := strings.Cut(spec, "=")
	parts := strings.Split(path, ".")
	if !ok || len(parts) < 2 || how != "len" && how != "value" {
		return "", "", paramErrorf("--param %q: want PARAM.FIELD=len or PARAM.FIELD=value (req.Items=len)", spec)
	}
	var t types.Type
	if fn.Sig != nil {
		for i := 0; i < fn.Sig.Params().Len(); i++ {
			if v := fn.Sig.Params().At(i); v.Name() == parts[0] {
				t = v.Type()
			}
		}
	}
	if t == nil {
		return "", "", paramErrorf("--param %q: %s has no parameter %s", spec, fn.Name, parts[0])
	}
	var guards []string
	for i, f := range parts[1:] {
		sofar := strings.Join(parts[:i+1], ".")
		if ptr, ok := t.Underlying().(*types.Pointer); ok {
			guards = append(guards, sofar+" == nil")
			t = ptr.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return "", "", paramErrorf("--param %q: %s is a %s, not a struct", spec, sofar, t)
		}
		var field *types.Var
		for k := 0; k < st.NumFields(); k++ {
			if st.Field(k).Name() == f {
				field = st.Field(k)
			}
		}
		if field == nil {
			return "", "", paramErrorf("--param %q: %s has no field %s", spec, sofar, f)
		}
		t = field.Type()
	}
	value, label, ok := measureOf(path, t)
	isLen := strings.HasPrefix(label, "len(")
	if !ok || isLen != (how == "len") {
		return "", "", paramErrorf("--param %q: %s is a %s, which is not measured by %s", spec, path, t, how)
	}
	if len(guards) == 0 {
		return value, label, nil
	}
	return fmt.Sprintf("func() float64 { if %s { return _augurfit_NaN() }; return %s }()", strings.Join(guards, " || "), value), label, nil
}

// measureOf says how a parameter of type t is characterised.
func measureOf(name string, t types.Type) (expr, label string, ok bool) {
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Chan:
		return "float64(len(" + name + "))", "len(" + name + ")", true
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return "float64(len(" + name + "))", "len(" + name + ")", true
		case u.Info()&(types.IsInteger|types.IsFloat) != 0:
			return "float64(" + name + ")", name, true
		case u.Info()&types.IsBoolean != 0:
			return "_augurfit_Bool(" + name + ")", name, true
		}
	case *types.Pointer:
		if s, ok := u.Elem().Underlying().(*types.Slice); ok && s != nil {
			return "float64(len(*" + name + "))", "len(*" + name + ")", true
		}
	}
	return "", "", false
}

func fileOf(fn *frontend.Func) *ast.File {
	for _, f := range fn.Pkg.Syntax {
		if f.Pos() <= fn.Decl.Pos() && fn.Decl.End() <= f.End() {
			return f
		}
	}
	return nil
}

// runtimeSource is the recorder injected into the package: standard library only, imports
// renamed so that nothing in the package can shadow them.
// Its //go:build go1.22 line is the file's own language version: it builds in a module whose go
// line is older.
func runtimeSource(pkg string, counters int, o Options) []byte {
	src := `// Code generated by augur fit record; DO NOT EDIT.

//go:build go1.22

package PKG

import (
	_augurfit_json "encoding/json"
	_augurfit_math "math"
	_augurfit_os "os"
	_augurfit_rand "math/rand/v2"
	_augurfit_sync "sync"
	_augurfit_time "time"
)

var (
	_augurfit_mu   _augurfit_sync.Mutex
	_augurfit_once _augurfit_sync.Once
	_augurfit_f    *_augurfit_os.File
)

const _augurfit_rate = RATE

func _augurfit_Now() int64 { return _augurfit_time.Now().UnixNano() }

// _augurfit_Br counts an if's outcome: counter k when its condition holds, k+1 otherwise.
func _augurfit_Br(c *[COUNTERS]uint64, k int, b bool) bool {
	if b {
		c[k]++
	} else {
		c[k+1]++
	}
	return b
}

// _augurfit_NaN is the value of a field behind a nil pointer.
func _augurfit_NaN() float64 { return _augurfit_math.NaN() }

func _augurfit_Bool(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func _augurfit_Record(p []float64, c []uint64, start int64) {
	if _augurfit_rate < 1 && _augurfit_rand.Float64() >= _augurfit_rate {
		return
	}
	for _, v := range p {
		if v != v { // a field behind a nil pointer: no value to record
			return
		}
	}
	q := make([]float64, 0, len(c)+1)
	for _, v := range c {
		q = append(q, float64(v))
	}
	if TIMED {
		q = append(q, float64(_augurfit_time.Now().UnixNano()-start))
	}
	line, err := _augurfit_json.Marshal(struct {
		P []float64 ` + "`json:\"p\"`" + `
		Q []float64 ` + "`json:\"q\"`" + `
	}{p, q})
	if err != nil {
		return
	}
	_augurfit_once.Do(func() {
		if path := _augurfit_os.Getenv(ENV); path != "" {
			_augurfit_f, _ = _augurfit_os.OpenFile(path, _augurfit_os.O_WRONLY|_augurfit_os.O_APPEND|_augurfit_os.O_CREATE, 0o644)
		}
	})
	if _augurfit_f == nil {
		return
	}
	_augurfit_mu.Lock()
	// One write per line, under the lock: lines of concurrent invocations never interleave.
	_augurfit_f.Write(append(line, '\n'))
	_augurfit_mu.Unlock()
}
`
	r := strings.NewReplacer("PKG", pkg, "RATE", strconv.FormatFloat(o.Rate, 'g', -1, 64), "TIMED", strconv.FormatBool(o.Time), "ENV", strconv.Quote(EnvTrace), "COUNTERS", strconv.Itoa(counters))
	out := []byte(r.Replace(src))
	if f, err := format.Source(out); err == nil {
		return f
	}
	return out
}

// Record runs the workload on the plan's overlay and writes the trace to path: the header, then
// one line per recorded invocation.
func Record(p *Plan, w instrument.Workload, path string) (*instrument.Measurement, int, error) {
	var hdr bytes.Buffer
	tw, err := trace.NewWriter(&hdr, p.Header)
	if err != nil {
		return nil, 0, err
	}
	tw.Flush()
	if err := os.WriteFile(path, hdr.Bytes(), 0o644); err != nil {
		return nil, 0, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, 0, err
	}
	m, err := instrument.Run(w, p.Overlay, []string{EnvTrace + "=" + abs})
	if err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return m, 0, err
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		return m, 0, err
	}
	recs, err := r.ReadAll()
	return m, len(recs), err
}

// Trace records fn's invocations under the workload into the trace at path, in a temporary
// work directory it removes: Instrument, then Record. A failed workload leaves no trace (its
// *instrument.WorkloadError), and neither does one that never invoked fn. It returns the plan
// recorded by and the number of invocations recorded.
func Trace(fn *frontend.Func, o Options, w instrument.Workload, path string) (*Plan, int, error) {
	work, err := os.MkdirTemp("", "augur-fit-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(work)
	p, err := Instrument(fn, work, o)
	if err != nil {
		return nil, 0, err
	}
	m, n, err := Record(p, w, path)
	if err != nil {
		return nil, 0, err
	}
	if m.ExitCode != 0 {
		os.Remove(path)
		return nil, 0, &instrument.WorkloadError{Code: m.ExitCode, Tail: m.StderrTail}
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("the workload never invoked %s: no trace", fn.Name)
	}
	return p, n, nil
}

// Request is augur fit record: the function Func of the module at Dir recorded under the
// Workload (which runs in Dir) into the trace Out.
type Request struct {
	Dir, Func string
	Options
	Workload instrument.Workload
	Out      string
}

// Recorded is what Run recorded: the function, its plan (the trace's header) and the number
// of invocations written to the trace.
type Recorded struct {
	Fn          *frontend.Func
	Plan        *Plan
	Invocations int
}

// InputError is a request that cannot be carried out as given (a workload that is not a go
// command, a function that is not there): the caller's mistake, a usage error.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// UsageError says that the caller is at fault.
func (e *InputError) UsageError() bool { return true }

// Run carries out r: it loads the function and records it (Trace).
func Run(r Request) (*Recorded, error) {
	if err := instrument.CheckWorkload(r.Workload.Args); err != nil {
		return nil, &InputError{err}
	}
	_, fn, err := frontend.LoadFunc(r.Dir, r.Func)
	if err != nil {
		return nil, &InputError{err}
	}
	r.Workload.Dir = r.Dir
	p, n, err := Trace(fn, r.Options, r.Workload, r.Out)
	if err != nil {
		return nil, err
	}
	return &Recorded{Fn: fn, Plan: p, Invocations: n}, nil
}
