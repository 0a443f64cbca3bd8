package pctl

// Walk calls fn on n and on every node below it, parents before children, in source order;
// bounds and step counts given by expressions are visited too. Nil children are skipped.
func Walk(n Node, fn func(Node)) {
	if n == nil {
		return
	}
	fn(n)
	each := func(ns ...Node) {
		for _, c := range ns {
			if c != nil {
				Walk(c, fn)
			}
		}
	}
	steps := func(s *Steps) {
		if s != nil {
			each(s.K, s.Lo, s.Hi)
		}
	}
	switch n := n.(type) {
	case *Not:
		each(n.F)
	case *Binary:
		each(n.L, n.R)
	case *Compare:
		each(n.L, n.R)
	case *Neg:
		each(n.X)
	case *Ternary:
		each(n.Cond, n.Then, n.Else)
	case *Call:
		for _, a := range n.Args {
			each(a)
		}
	case *Filter:
		each(n.Prop, n.States)
	case *Prob:
		each(n.Bound.Expr, n.Path)
	case *Quant:
		each(n.Path)
	case *Steady:
		each(n.Bound.Expr, n.F)
	case *Reward:
		each(n.Bound.Expr, n.Kind)
	case *Reach:
		each(n.Target)
	case *Cumulative:
		each(n.K)
	case *Instant:
		each(n.K)
	case *CoSafe:
		each(n.Path)
	case *PathExpr:
		each(n.P)
	case *LTL:
		each(n.F)
	case *Next:
		each(n.F)
	case *Until:
		each(n.L)
		steps(n.Steps)
		each(n.R)
	case *Eventually:
		steps(n.Steps)
		each(n.F)
	case *Globally:
		steps(n.Steps)
		each(n.F)
	}
}
