package pmnf

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Node is an expression tree, for laws beyond the normal form: a regression tree's thresholds
// (op "lt": Args[0] where Param < Value, else Args[1]) over constants ("const", Value), and
// symbolic regression's arithmetic: "param" (Param's value), "+", "-", "*", "/" (two Args),
// "log2" and "sqrt" (one).
type Node struct {
	Op    string  `json:"op"`
	Value float64 `json:"value,omitempty"`
	Param string  `json:"param,omitempty"`
	Args  []*Node `json:"args,omitempty"`
}

// Eval evaluates the tree; a missing parameter gives NaN.
func (n *Node) Eval(at map[string]float64) float64 {
	switch n.Op {
	case "const":
		return n.Value
	case "param":
		x, ok := at[n.Param]
		if !ok {
			return math.NaN()
		}
		return x
	case "lt":
		x, ok := at[n.Param]
		if !ok {
			return math.NaN()
		}
		if x < n.Value {
			return n.Args[0].Eval(at)
		}
		return n.Args[1].Eval(at)
	case "+":
		return n.Args[0].Eval(at) + n.Args[1].Eval(at)
	case "-":
		return n.Args[0].Eval(at) - n.Args[1].Eval(at)
	case "*":
		return n.Args[0].Eval(at) * n.Args[1].Eval(at)
	case "/":
		return n.Args[0].Eval(at) / n.Args[1].Eval(at)
	case "log2":
		x := n.Args[0].Eval(at)
		if x <= 0 {
			return math.NaN()
		}
		return math.Log2(x)
	case "sqrt":
		return math.Sqrt(n.Args[0].Eval(at)) // NaN below 0
	}
	return math.NaN()
}

func (n *Node) String() string {
	switch n.Op {
	case "const":
		return strconv.FormatFloat(n.Value, 'g', 6, 64)
	case "param":
		return n.Param
	case "lt":
		return fmt.Sprintf("(%s < %s ? %s : %s)", n.Param, strconv.FormatFloat(n.Value, 'g', 6, 64), n.Args[0], n.Args[1])
	case "+", "-", "*", "/":
		op := map[string]string{"+": " + ", "-": " - ", "*": "·", "/": "/"}[n.Op]
		return "(" + n.Args[0].String() + op + n.Args[1].String() + ")"
	case "log2", "sqrt":
		return n.Op + "(" + n.Args[0].String() + ")"
	}
	return "?"
}

func (n *Node) params(seen map[string]bool) {
	if n.Op == "lt" || n.Op == "param" {
		seen[n.Param] = true
	}
	for _, a := range n.Args {
		a.params(seen)
	}
}

// leaves counts the tree's leaves (constants and parameters): its complexity.
func (n *Node) leaves() int {
	if n.Op == "const" || n.Op == "param" {
		return 1
	}
	k := 0
	for _, a := range n.Args {
		k += a.leaves()
	}
	return k
}

func (n *Node) validate(depth int) error {
	if n == nil {
		return fmt.Errorf("an empty tree node")
	}
	if depth > 16 {
		return fmt.Errorf("the tree is deeper than 16")
	}
	switch n.Op {
	case "const":
		if math.IsNaN(n.Value) || math.IsInf(n.Value, 0) || len(n.Args) != 0 {
			return fmt.Errorf("constant %v: want a finite number without operands", n.Value)
		}
	case "param":
		if n.Param == "" || len(n.Args) != 0 {
			return fmt.Errorf("a parameter node without a name, or with operands")
		}
	case "lt", "+", "-", "*", "/", "log2", "sqrt":
		arity := 2
		if n.Op == "log2" || n.Op == "sqrt" {
			arity = 1
		}
		if n.Op == "lt" && (n.Param == "" || math.IsNaN(n.Value) || math.IsInf(n.Value, 0)) {
			return fmt.Errorf("threshold on %q at %v: want a parameter and a finite threshold", n.Param, n.Value)
		}
		if len(n.Args) != arity {
			return fmt.Errorf("%s with %d operands, want %d", n.Op, len(n.Args), arity)
		}
		for _, a := range n.Args {
			if err := a.validate(depth + 1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("tree operation %q: want const, param, lt, +, -, *, /, log2 or sqrt", n.Op)
	}
	return nil
}

// FitTree fits a regression tree over the parameters (CART: each split the threshold, halfway
// between two measured values, that most reduces the squared error of the points, weighted by
// their samples), of depth 1 to 3, cross-validated over points like Search's candidates; the
// best by fitness (cross-validated error plus the penalty per leaf) wins. It is the law of a
// step — a branch taken when n > 10 — that no smooth form fits.
func FitTree(samples []Sample, params []string, o Options) (Candidate, error) {
	pts, _, varying, err := prepare(samples, params)
	if err != nil {
		return Candidate{}, err
	}
	if len(varying) == 0 || len(pts) < 4 {
		return Candidate{}, fmt.Errorf("a tree needs a varying parameter and at least 4 points")
	}
	o = o.withDefaults()
	var scale float64
	for _, pt := range pts {
		scale += math.Abs(pt.y)
	}
	scale /= float64(len(pts))
	if scale == 0 {
		scale = 1
	}
	var best Candidate
	found := false
	for depth := 1; depth <= 3; depth++ {
		all := make([]int, len(pts))
		for i := range all {
			all[i] = i
		}
		tree := grow(pts, all, varying, depth)
		k := min(o.Folds, len(pts))
		var sse float64
		for fold := 0; fold < k; fold++ {
			var train []int
			for r := range pts {
				if r%k != fold {
					train = append(train, r)
				}
			}
			t := grow(pts, train, varying, depth)
			for r := fold; r < len(pts); r += k {
				d := (t.Eval(pts[r].at) - pts[r].y) / math.Max(math.Abs(pts[r].y), scale*o.Floor)
				sse += d * d
			}
		}
		cv := math.Sqrt(sse / float64(len(pts)))
		c := Candidate{Expr: Expr{Tree: tree}, CVError: cv, Fitness: cv + o.Penalty*float64(tree.leaves()-1), significant: true}
		if !found || c.Fitness < best.Fitness {
			best, found = c, true
		}
	}
	return best, nil
}

// grow builds the tree of the points rows down to depth.
func grow(pts []point, rows []int, params []string, depth int) *Node {
	mean, sse := leaf(pts, rows)
	if depth == 0 || len(rows) < 2 {
		return &Node{Op: "const", Value: mean}
	}
	bestSSE, bestParam, bestAt := sse, "", 0.0
	var bestL, bestR []int
	for _, p := range params {
		sorted := append([]int(nil), rows...)
		sort.SliceStable(sorted, func(a, b int) bool { return pts[sorted[a]].at[p] < pts[sorted[b]].at[p] })
		for i := 1; i < len(sorted); i++ {
			lo, hi := pts[sorted[i-1]].at[p], pts[sorted[i]].at[p]
			if lo == hi {
				continue
			}
			l, r := sorted[:i], sorted[i:]
			_, sl := leaf(pts, l)
			_, sr := leaf(pts, r)
			if sl+sr < bestSSE*(1-1e-12) {
				bestSSE, bestParam, bestAt = sl+sr, p, (lo+hi)/2
				bestL, bestR = append([]int(nil), l...), append([]int(nil), r...)
			}
		}
	}
	if bestParam == "" {
		return &Node{Op: "const", Value: mean}
	}
	return &Node{Op: "lt", Param: bestParam, Value: bestAt, Args: []*Node{grow(pts, bestL, params, depth-1), grow(pts, bestR, params, depth-1)}}
}

// leaf is the weighted mean of the points rows and their weighted squared error about it.
func leaf(pts []point, rows []int) (mean, sse float64) {
	var w float64
	for _, r := range rows {
		mean += float64(pts[r].n) * pts[r].y
		w += float64(pts[r].n)
	}
	if w == 0 {
		return 0, 0
	}
	mean /= w
	for _, r := range rows {
		d := pts[r].y - mean
		sse += float64(pts[r].n) * d * d
	}
	return mean, sse
}

// treeForm is a tree's shape for Form: the parameters it splits on.
func treeForm(n *Node) string {
	seen := map[string]bool{}
	n.params(seen)
	var ps []string
	for p := range seen {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return "tree(" + strings.Join(ps, ", ") + ")"
}
