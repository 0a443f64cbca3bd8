// Package regions turns ConfigCrusher's statement-influence map into code
// regions at source level (Velez et al., "ConfigCrusher: Towards White-Box
// Performance Analysis for Configurable Systems", ASE journal 2020,
// Algorithms 2–4): contiguous spans of statements in one function whose
// execution time is measured per configuration.
//
// It owns the mapping from taint decisions to statement spans and the
// region optimisations. It must not analyse data flow (package taint does),
// must not instrument or run anything (packages timing and runner do) and
// never writes to the analysed code.
//
// # From decisions to spans (Algorithm 2)
//
// A region runs from an influenced decision to the post-dominator where its
// influence ends. Package taint gives, per decision, the SSA IPDom and its
// source position End. In Go source a region is a span of consecutive
// statements of one statement list (a block, a case or a comm clause): it
// starts at the decision's statement (if/for/range/switch/select with its
// init; the labeled statement when the decision is labeled) and takes every
// following statement of the list that ends before End. When End lies
// outside the list (after the enclosing block, or in an enclosing loop's
// header) or only the function's exit post-dominates the decision, the span
// runs to the end of the list: the influence lasts at least until control
// leaves the block. An "else if" decision is in no list; its span is that
// else-if alone (the instrumenter wraps it in a block). Decisions mapping to
// the same span (generic instantiations) become one region with the union of
// options.
//
// Region.End is exclusive: the first statement after the span, or the closing
// brace of the block (for a case clause, the end of its last statement).
//
// # Optimisations (Algorithms 3 and 4)
//
// Find's second result applies, until nothing changes:
//
//   - Expansion: a region absorbs the uninfluenced statements before it, up
//     to the end of every earlier region of its list (a region lifted to a
//     call site may lie inside another) or the list's start, and the last
//     region of a list absorbs the statements after it. A statement holding a
//     region, a labeled statement (a goto could enter the span in the
//     middle), or one that may wait for another goroutine (a channel send or
//     receive, a select, a call of a method named Wait) is never absorbed:
//     a region holding main's wait for its workers would be charged their
//     time, which the workers' own regions already count.
//   - Merging: two adjacent regions of one list, or a region nested in
//     another of the same function, become one when the union of their
//     options is contained in the option set of some region of Algorithm 2
//     (an interaction the compressed configurations already cover, so no new
//     configuration is needed). Merging is greedy, in source order.
//
// Neither expansion nor merging lets two regions of a list cross: regions
// nest or are disjoint, as timing's nesting stack (one per goroutine) requires.
//   - Callee lifting: when one region with options O covers a whole function
//     body and every caller in the call graph calls it from a plain statement
//     of analysed code (not go/defer, not recursion), the region moves to
//     each call statement, where it may merge further.
//   - Loop lifting: a region covering a whole for/range body moves to the
//     loop statement, so it is entered once instead of once per iteration.
//   - Covered callees: the regions of a function all of whose calls run
//     inside a region of the caller whose options contain theirs are
//     removed, so a helper of a hot loop (called from an if or for header,
//     where callee lifting cannot go) carries no probes; its time is the
//     caller's region's, which the same options explain. The function must
//     be named, unexported (or an unexported method), never used as a value
//     and reached by plain calls only, so the call graph sees every caller;
//     recursive calls are allowed (they run inside a covered call).
//
// Partial relative to the paper: lifting works on the call graph of
// package taint (static call sites only; calls through function values
// block lifting), merging is greedy rather than optimal, and regions are
// never split.
package regions

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/augur-perf/augur/options/taint"
	"golang.org/x/tools/go/ssa"
)

// Region is one code region.
type Region struct {
	// ID numbers regions from 1 in source order; 0 is reserved for the base
	// region (the program outside every region).
	ID int `json:"id"`
	// Func is the SSA name of the function holding the span.
	Func string `json:"func"`
	File string `json:"file"`
	// Start is the first statement; End is exclusive (see the package doc).
	Start token.Position `json:"start"`
	End   token.Position `json:"end"`
	// Options influencing the region, sorted.
	Options []string `json:"options"`
	// Decisions are the influenced decisions the region stands for.
	Decisions []token.Position `json:"decisions"`
	Text      string           `json:"text"`
}

// region is the working form of a Region during optimisation.
type region struct {
	pf        *ParsedFile
	fn        *ssa.Function
	funcNode  ast.Node
	container ast.Node
	list      []ast.Stmt
	lo, hi    int
	elseIf    *ast.IfStmt
	opts      []string
	decs      []token.Position
	texts     []string
	dead      bool
	// covered marks a region dropCovered removed.
	covered bool
}

func (r *region) stmts() []ast.Stmt {
	if r.elseIf != nil {
		return []ast.Stmt{r.elseIf}
	}
	return r.list[r.lo : r.hi+1]
}

func (r *region) startOff() int { return r.pf.Off(r.stmts()[0].Pos()) }
func (r *region) endOff() int   { st := r.stmts(); return r.pf.Off(st[len(st)-1].End()) }

func (r *region) export() Region {
	st := r.stmts()
	out := Region{
		Func:      r.fn.Name(),
		File:      r.pf.Fset.PositionFor(st[0].Pos(), false).Filename,
		Start:     r.pf.Fset.PositionFor(st[0].Pos(), false),
		Options:   append([]string(nil), r.opts...),
		Decisions: append([]token.Position(nil), r.decs...),
		Text:      strings.Join(r.texts, "; "),
	}
	switch {
	case r.elseIf != nil:
		out.End = r.pf.Fset.PositionFor(r.elseIf.End(), false)
	case r.hi+1 < len(r.list):
		out.End = r.pf.Fset.PositionFor(r.list[r.hi+1].Pos(), false)
	default:
		if b, ok := r.container.(*ast.BlockStmt); ok {
			out.End = r.pf.Fset.PositionFor(b.Rbrace, false)
		} else {
			out.End = r.pf.Fset.PositionFor(st[len(st)-1].End(), false)
		}
	}
	return out
}

// Find maps res's influenced decisions to regions (Algorithm 2) and returns
// them before and after the optimisations, each numbered from 1 in source
// order. The error joins every decision that cannot be placed, with its
// position; such decisions are left out.
func Find(res *taint.Result) (before, after []Region, err error) {
	files := map[string]*ParsedFile{}
	parse := func(name string) (*ParsedFile, error) {
		if pf, ok := files[name]; ok {
			return pf, nil
		}
		pf, err := ParseFile(name)
		if err != nil {
			return nil, err
		}
		files[name] = pf
		return pf, nil
	}
	var rs []*region
	var errs []string
	byPlace := map[[3]any]*region{}
	for _, d := range res.Decisions {
		if !d.Influenced() || len(d.Regions) == 0 {
			continue
		}
		pf, err := parse(d.Pos.Filename)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", d.Pos, err))
			continue
		}
		r, err := fromDecision(pf, d)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		key := [3]any{d.Pos.Filename, r.startOff(), r.endOff()}
		if prev := byPlace[key]; prev != nil {
			prev.opts = union(prev.opts, r.opts)
			prev.decs = append(prev.decs, r.decs...)
			prev.texts = append(prev.texts, r.texts...)
			continue
		}
		byPlace[key] = r
		rs = append(rs, r)
	}
	if len(errs) > 0 {
		err = fmt.Errorf("regions: %s", strings.Join(errs, "\n"))
	}
	before = exportAll(rs)
	o := &optimiser{res: res, parse: parse}
	for _, r := range rs {
		o.sets = append(o.sets, r.opts)
		c := *r
		o.rs = append(o.rs, &c)
	}
	o.run()
	after = exportAll(o.rs)
	return before, after, err
}

func exportAll(rs []*region) []Region {
	var out []Region
	for _, r := range rs {
		if !r.dead {
			out = append(out, r.export())
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Start, out[j].Start
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	for i := range out {
		out[i].ID = i + 1
	}
	return out
}

func isDecisionStmt(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return true
	}
	return false
}

func fromDecision(pf *ParsedFile, d *taint.Decision) (*region, error) {
	s := pf.stmtAt(d.Pos.Offset, isDecisionStmt)
	if s == nil {
		return nil, fmt.Errorf("%s: %s: no decision statement here (the file changed?)", d.Pos, d.Text)
	}
	r := &region{pf: pf, fn: d.Regions[0].Func, opts: append([]string(nil), d.Options...),
		decs: []token.Position{d.Pos}, texts: []string{d.Text}}
	r.funcNode, _ = pf.enclosingFunc(s)
	var i int
	r.container, r.list, i, r.elseIf = pf.listOf(s)
	if r.elseIf != nil {
		return r, nil
	}
	if i < 0 {
		return nil, fmt.Errorf("%s: %s: the decision is in no statement list", d.Pos, d.Text)
	}
	r.lo, r.hi = i, len(r.list)-1
	endPos := d.End
	if ip := d.Regions[0].IPDom; ip != nil {
		if p := ipdomPos(ip); p.IsValid() {
			endPos = ip.Parent().Prog.Fset.PositionFor(p, false)
		}
	}
	if endPos.IsValid() && endPos.Filename == d.Pos.Filename {
		end := endPos.Offset
		switch {
		case end < pf.Off(r.list[i].Pos()):
			// The influence ends in an enclosing loop's header: it lasts
			// until control leaves this list.
		case end < pf.Off(r.list[i].End()):
			r.hi = i
		default:
			for k := i + 1; k < len(r.list); k++ {
				if end < pf.Off(r.list[k].End()) {
					r.hi = k - 1
					break
				}
			}
		}
	}
	return r, nil
}

// ipdomPos is the first source position of the IPDom's own code. Phis are
// skipped: their position is the variable's declaration, which may lie
// before the decision and would make the region look like it ends in a
// loop header.
func ipdomPos(b *ssa.BasicBlock) token.Pos {
	for steps := 0; b != nil && steps < 8; steps++ {
		for _, instr := range b.Instrs {
			if _, phi := instr.(*ssa.Phi); phi {
				continue
			}
			if dr, ok := instr.(*ssa.DebugRef); ok {
				return dr.Expr.Pos()
			}
			if p := instr.Pos(); p.IsValid() {
				return p
			}
		}
		if len(b.Succs) != 1 {
			break
		}
		b = b.Succs[0]
	}
	return token.NoPos
}

func union(a, b []string) []string {
	m := map[string]bool{}
	for _, x := range a {
		m[x] = true
	}
	for _, x := range b {
		m[x] = true
	}
	out := make([]string, 0, len(m))
	for x := range m {
		out = append(out, x)
	}
	sort.Strings(out)
	return out
}

func subset(a, b []string) bool {
	m := map[string]bool{}
	for _, x := range b {
		m[x] = true
	}
	for _, x := range a {
		if !m[x] {
			return false
		}
	}
	return true
}

func equal(a, b []string) bool { return len(a) == len(b) && subset(a, b) }

// TextOptions control WriteText and WriteJSON.
type TextOptions struct {
	// Base makes file names relative to this directory when possible.
	Base string
}

func rel(base, file string) string {
	if base == "" {
		return file
	}
	ab, err1 := filepath.Abs(base)
	af, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return file
	}
	if r, err := filepath.Rel(ab, af); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return file
}

// WriteText writes one line per region: id, span, function, options and the
// decisions it stands for.
func WriteText(w io.Writer, rs []Region, o TextOptions) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rs {
		fmt.Fprintf(tw, "R%d\t%s:%d:%d-%d:%d\t%s\t{%s}\t%s\n", r.ID, rel(o.Base, r.File), r.Start.Line, r.Start.Column,
			r.End.Line, r.End.Column, r.Func, strings.Join(r.Options, ", "), r.Text)
	}
	return tw.Flush()
}

// WriteJSON writes the regions as a JSON array with positions as
// "file:line:col" strings relative to o.Base.
func WriteJSON(w io.Writer, rs []Region, o TextOptions) error {
	type jr struct {
		ID        int      `json:"id"`
		Func      string   `json:"func"`
		Start     string   `json:"start"`
		End       string   `json:"end"`
		Options   []string `json:"options"`
		Decisions []string `json:"decisions"`
		Text      string   `json:"text"`
	}
	pos := func(p token.Position) string {
		return fmt.Sprintf("%s:%d:%d", rel(o.Base, p.Filename), p.Line, p.Column)
	}
	out := []jr{}
	for _, r := range rs {
		j := jr{ID: r.ID, Func: r.Func, Start: pos(r.Start), End: pos(r.End), Options: r.Options, Text: r.Text, Decisions: []string{}}
		if j.Options == nil {
			j.Options = []string{}
		}
		for _, d := range r.Decisions {
			j.Decisions = append(j.Decisions, pos(d))
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
