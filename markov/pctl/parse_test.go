package pctl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// dump prints every semantic field of a tree, and no position, so that two trees are equal
// exactly when their dumps are: structure tests compare against it and round trips use it as
// equality.
func dump(n Node) string {
	switch n := n.(type) {
	case nil:
		return "<nil>"
	case *Bool:
		return strconv.FormatBool(n.Value)
	case *Num:
		return n.String() // 2 and 2.0 differ: one is an integer literal
	case *Ident:
		return n.Name
	case *StateIndex:
		return "#s"
	case *Label:
		return strconv.Quote(n.Name)
	case *Not:
		return "(! " + dump(n.F) + ")"
	case *Binary:
		return fmt.Sprintf("(%s %s %s)", n.Op, dump(n.L), dump(n.R))
	case *Compare:
		return fmt.Sprintf("(%s %s %s)", n.Op, dump(n.L), dump(n.R))
	case *Neg:
		return "(- " + dump(n.X) + ")"
	case *Ternary:
		return fmt.Sprintf("(? %s %s %s)", dump(n.Cond), dump(n.Then), dump(n.Else))
	case *Call:
		s := "(" + n.Name
		for _, a := range n.Args {
			s += " " + dump(a)
		}
		return s + ")"
	case *Filter:
		return fmt.Sprintf("(filter %s %s %s)", n.Op, dump(n.Prop), dump(n.States))
	case *Prob:
		return fmt.Sprintf("(P%s %s)", dumpBound(n.Bound), dump(n.Path))
	case *Quant:
		return fmt.Sprintf("(Q%v %s)", n.Forall, dump(n.Path))
	case *Steady:
		return fmt.Sprintf("(S%s %s)", dumpBound(n.Bound), dump(n.F))
	case *Reward:
		return fmt.Sprintf("(R{%q,%d}%s %s)", n.RewardName, n.RewardIndex, dumpBound(n.Bound), dump(n.Kind))
	case *Reach:
		return "(F " + dump(n.Target) + ")"
	case *Cumulative:
		if n.K == nil {
			return "(C)"
		}
		return fmt.Sprintf("(C<=%s)", dump(n.K))
	case *Instant:
		return fmt.Sprintf("(I=%s)", dump(n.K))
	case *LongRun:
		return "(S)"
	case *CoSafe:
		return "(cosafe " + dump(n.Path) + ")"
	case *PathExpr:
		return "(path " + dump(n.P) + ")"
	case *LTL:
		return "(ltl " + dump(n.F) + ")"
	case *Next:
		return "(X " + dump(n.F) + ")"
	case *Until:
		return fmt.Sprintf("(%s%s %s %s)", n.Op, dumpSteps(n.Steps), dump(n.L), dump(n.R))
	case *Eventually:
		return fmt.Sprintf("(F%s %s)", dumpSteps(n.Steps), dump(n.F))
	case *Globally:
		return fmt.Sprintf("(G%s %s)", dumpSteps(n.Steps), dump(n.F))
	}
	return fmt.Sprintf("<unknown %T>", n)
}

func dumpBound(b Bound) string {
	if b.Op == Query {
		return "=?"
	}
	if b.Expr != nil {
		return fmt.Sprintf("%s%s", b.Op, dump(b.Expr))
	}
	return fmt.Sprintf("%s%v", b.Op, b.Value)
}

func dumpSteps(s *Steps) string {
	switch {
	case s == nil:
		return ""
	case s.Interval:
		return fmt.Sprintf("[%s,%s]", dump(s.Lo), dump(s.Hi))
	}
	return fmt.Sprintf("%s%s", s.Op, dump(s.K))
}

// children lists a node's sub-nodes in source order.
func children(n Node) []Node {
	var out []Node
	add := func(fs ...Node) {
		for _, f := range fs {
			if f != nil {
				out = append(out, f)
			}
		}
	}
	steps := func(s *Steps) {
		if s != nil {
			add(s.K, s.Lo, s.Hi)
		}
	}
	switch n := n.(type) {
	case *Not:
		add(n.F)
	case *Binary:
		add(n.L, n.R)
	case *Compare:
		add(n.L, n.R)
	case *Neg:
		add(n.X)
	case *Ternary:
		add(n.Cond, n.Then, n.Else)
	case *Call:
		for _, a := range n.Args {
			add(a)
		}
	case *Filter:
		add(n.Prop, n.States)
	case *Prob:
		add(n.Bound.Expr, n.Path)
	case *Quant:
		add(n.Path)
	case *Steady:
		add(n.Bound.Expr, n.F)
	case *Reward:
		add(n.Bound.Expr, n.Kind)
	case *Reach:
		add(n.Target)
	case *Cumulative:
		add(n.K)
	case *Instant:
		add(n.K)
	case *CoSafe:
		add(n.Path)
	case *PathExpr:
		add(n.P)
	case *LTL:
		add(n.F)
	case *Next:
		add(n.F)
	case *Until:
		add(n.L)
		steps(n.Steps)
		add(n.R)
	case *Eventually:
		steps(n.Steps)
		add(n.F)
	case *Globally:
		steps(n.Steps)
		add(n.F)
	}
	return out
}

// positions lists "Type@col" in preorder.
func positions(n Node) string {
	var out []string
	var walk func(Node)
	walk = func(n Node) {
		out = append(out, fmt.Sprintf("%s@%d", strings.TrimPrefix(fmt.Sprintf("%T", n), "*pctl."), n.Pos()))
		for _, c := range children(n) {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(out, " ")
}

// roundTrips is every construct with its canonical text.
var roundTrips = []struct{ in, want string }{
	{`true`, `true`},
	{`false`, `false`},
	{`"a"`, `"a"`},
	{`"with space_1"`, `"with space_1"`},
	{`s=8`, `s=8`},
	{`s != 3`, `s!=3`},
	{`s<5`, `s<5`},
	{`s<=5`, `s<=5`},
	{`s>2`, `s>2`},
	{`s>=2`, `s>=2`},
	{`s = - 3`, `s=-3`},
	{`state_2>=0`, `state_2>=0`},
	{`!"a"`, `!"a"`},
	{`! ! "a"`, `!!"a"`},
	{`"a" & "b"`, `"a" & "b"`},
	{`"a"|"b"`, `"a" | "b"`},
	{`"a"=>"b"`, `"a" => "b"`},
	{`"a"<=>"b"`, `"a" <=> "b"`},
	{`("a")`, `"a"`},
	{`(("a" & "b"))`, `"a" & "b"`},
	{`"a" & ("b" & "c")`, `"a" & ("b" & "c")`},
	{`("a" & "b") & "c"`, `"a" & "b" & "c"`},
	{`("a" | "b") & "c"`, `("a" | "b") & "c"`},
	{`"a" | "b" & "c"`, `"a" | "b" & "c"`},
	{`("a" => "b") => "c"`, `"a" => "b" => "c"`},
	{`"a" => ("b" => "c")`, `"a" => ("b" => "c")`},
	{`"a" <=> ("b" <=> "c")`, `"a" <=> ("b" <=> "c")`},
	{`!("a" | "b")`, `!("a" | "b")`},
	{`!(!"a")`, `!!"a"`},
	{`P=? [ F "end" ]`, `P=? [ F "end" ]`},
	{`P=?[F"end"]`, `P=? [ F "end" ]`},
	{`P = ? [ F "end" ]`, `P=? [ F "end" ]`},
	{`P>=0.9 [ G "safe" ]`, `P>=0.9 [ G "safe" ]`},
	{`P<0.1 [ X "a" ]`, `P<0.1 [ X "a" ]`},
	{`P>0 [ "a" U "b" ]`, `P>0 [ "a" U "b" ]`},
	{`P<=1 [ "a" U<=4 "b" ]`, `P<=1 [ "a" U<=4 "b" ]`},
	{`P=? [ F<=10 s=3 ]`, `P=? [ F<=10 s=3 ]`},
	{`P=? [ G<=0 !"a" ]`, `P=? [ G<=0 !"a" ]`},
	{`P>=1e-3 [ F "a" ]`, `P>=0.001 [ F "a" ]`},
	{`P>=1E-7 [ F "a" ]`, `P>=1e-07 [ F "a" ]`},
	{`P>=.5 [ F "a" ]`, `P>=0.5 [ F "a" ]`},
	{`P>=0.50 [ F "a" ]`, `P>=0.5 [ F "a" ]`},
	{`P>=-0 [ F "a" ]`, `P>=0 [ F "a" ]`},
	{`P=? [ "a" | "b" U "c" ]`, `P=? [ ("a" | "b") U "c" ]`},
	{`P=? [ F "a" | "b" ]`, `P=? [ F ("a" | "b") ]`},
	{`P=? [ X !"a" ]`, `P=? [ X !"a" ]`},
	{`P=? [ "a" U P>0.9 [ X "b" ] ]`, `P=? [ "a" U P>0.9 [ X "b" ] ]`},
	{`P>0.5 [ F "a" ] & !"b"`, `P>0.5 [ F "a" ] & !"b"`},
	{`!P>0.5 [ F "a" ]`, `!P>0.5 [ F "a" ]`},
	{`P=? [ G<=10 P>=0.5 [ F<=2 s=0 ] ]`, `P=? [ G<=10 P>=0.5 [ F<=2 s=0 ] ]`},
	{`R{"time"}=? [ F "end" ]`, `R{"time"}=? [ F "end" ]`},
	{`R=? [ F "end" ]`, `R=? [ F "end" ]`},
	{`R{2}=? [ F "end" ]`, `R{2}=? [ F "end" ]`},
	{`R{"time"}<=5 [ C<=3 ]`, `R{"time"}<=5 [ C<=3 ]`},
	{`R=? [ C ]`, `R=? [ C ]`},
	{`R=?[C<=0]`, `R=? [ C<=0 ]`},
	{`R{1}>2.5 [ I=7 ]`, `R{1}>2.5 [ I=7 ]`},
	{`R>=0 [ F "a" | "b" ]`, `R>=0 [ F ("a" | "b") ]`},
	{`R<1e20 [ C ]`, `R<1e+20 [ C ]`},
	{`S=? [ "a" ]`, `S=? [ "a" ]`},
	{`S>=0.5 [ "a" & !"b" ]`, `S>=0.5 [ "a" & !"b" ]`},
	{`S<0.1 [ P>0.5 [ F "a" ] ]`, `S<0.1 [ P>0.5 [ F "a" ] ]`},
	{`(P>=0.9 [ F "a" ]) => S<0.1 [ "b" ]`, `P>=0.9 [ F "a" ] => S<0.1 [ "b" ]`},
	{`(P=? [ F "a" ])`, `P=? [ F "a" ]`},
	// A nested query parses: the checker rejects it, with the column of the nested operator.
	{`P=? [ F P=? [ X "six" ] ]`, `P=? [ F P=? [ X "six" ] ]`},
	{`"a" & R=? [ C ]`, `"a" & R=? [ C ]`},
	{"\tP=?\n[\tF\r\n\"a\" ]", `P=? [ F "a" ]`},
	{`P=? /* why */ [ F "a" ] // trailing`, `P=? [ F "a" ]`},
	{`P=? [ F "// not a comment" ]`, `P=? [ F "// not a comment" ]`},
	{`"é" & "日本"`, `"é" & "日本"`},
	// PRISM's precedence: => is the loosest binary operator and, like all, left-associative.
	{`"a" => "b" <=> "c"`, `"a" => "b" <=> "c"`},
	{`("a" => "b") <=> "c"`, `("a" => "b") <=> "c"`},
	// Arithmetic, comparisons, the conditional and functions.
	{`x + 1 = 5`, `x+1=5`},
	{`x + (1 = 5)`, `x+(1=5)`},
	{`2 * (x - 1) / 3 >= y`, `2*(x-1)/3>=y`},
	{`x - (y - z)`, `x-(y-z)`},
	{`- x * 2`, `-x*2`},
	{`-(x * 2)`, `-(x*2)`},
	{`- - 3`, `3`},
	{`1.5 + .5e1`, `1.5+5.0`},
	{`x = 1 = true`, `x=1=true`},
	{`x < y = (y < z)`, `x<y=y<z`},
	{`b ? 1 : 2`, `b ? 1 : 2`},
	{`a ? (b ? 1 : 2) : 3`, `a ? (b ? 1 : 2) : 3`},
	{`a ? 1 : b ? 2 : 3`, `a ? 1 : b ? 2 : 3`},
	{`(a ? 1 : 2) ? 3 : 4`, `(a ? 1 : 2) ? 3 : 4`},
	{`min(x, 2, y+1)`, `min(x, 2, y+1)`},
	{`func(max, 1, 2)`, `max(1, 2)`},
	{`floor(2.5) + ceil(x) + round(y) + pow(2, 8) + mod(7, 3) + log(8, 2)`, `floor(2.5)+ceil(x)+round(y)+pow(2, 8)+mod(7, 3)+log(8, 2)`},
	{`#s = 3`, `#s=3`},
	{`#s < s`, `#s<s`},
	{`1 - P=? [ F "a" ]`, `1-P=? [ F "a" ]`},
	{`P=? [ F "a" ] / (P=? [ F "b" ] + 1)`, `P=? [ F "a" ]/(P=? [ F "b" ]+1)`},
	// Bounds given by expressions, time bounds and intervals, W and R.
	{`P>=p [ F "a" ]`, `P>=p [ F "a" ]`},
	{`P<1-p/2 [ F "a" ]`, `P<1-p/2 [ F "a" ]`},
	{`P=? [ F<k "a" ]`, `P=? [ F<k "a" ]`},
	{`P=? [ F>=3 "a" ]`, `P=? [ F>=3 "a" ]`},
	{`P=? [ F>3 "a" ]`, `P=? [ F>3 "a" ]`},
	{`P=? [ F=3 "a" ]`, `P=? [ F=3 "a" ]`},
	{`P=? [ F[2, 5] "a" ]`, `P=? [ F[2,5] "a" ]`},
	{`P=? [ G[N-1,N+1] "a" ]`, `P=? [ G[N-1,N+1] "a" ]`},
	{`P=? [ F<=N-1 x=2 ]`, `P=? [ F<=N-1 x=2 ]`},
	{`P=? [ "a" W "b" ]`, `P=? [ "a" W "b" ]`},
	{`P=? [ "a" W<=4 "b" ]`, `P=? [ "a" W<=4 "b" ]`},
	{`P=? [ "a" R "b" ]`, `P=? [ "a" R "b" ]`},
	{`P=? [ "a" R[1,2] "b" ]`, `P=? [ "a" R[1,2] "b" ]`},
	{`P=? [ "a" U>k "b" ]`, `P=? [ "a" U>k "b" ]`},
	{`R=? [ S ]`, `R=? [ S ]`},
	{`R{"t"}=? [ C<=T*2 ]`, `R{"t"}=? [ C<=T*2 ]`},
	{`R=? [ I=k ]`, `R=? [ I=k ]`},
	{`R<=r [ F "a" ]`, `R<=r [ F "a" ]`},
	// Quantifiers and filters.
	{`E [ F "a" ]`, `E [ F "a" ]`},
	{`A [ "a" U "b" ]`, `A [ "a" U "b" ]`},
	{`!E[G "a"]`, `!E [ G "a" ]`},
	{`filter(max, P=? [ F "a" ], x=0)`, `filter(max, P=? [ F "a" ], x=0)`},
	{`filter(forall, P>=1 [ F "done" ])`, `filter(forall, P>=1 [ F "done" ])`},
	{`filter(+, P=? [ F "a" ])`, `filter(sum, P=? [ F "a" ])`},
	{`filter(&, "a")`, `filter(forall, "a")`},
	{`filter(|, "a", "init")`, `filter(exists, "a", "init")`},
	{`filter(range, R=? [ F "a" ], "init")`, `filter(range, R=? [ F "a" ], "init")`},
	{`2 * filter(avg, P=? [ X "a" ])`, `2*filter(avg, P=? [ X "a" ])`},
	// LTL, as PRISM parses it: prefix operators bind their operand, binary ones do not chain,
	// Boolean combinations of path formulas need parentheses.
	{`P=? [ X "a" U "b" ]`, `P=? [ (X "a") U "b" ]`},
	{`P=? [ F F "a" ]`, `P=? [ F (F "a") ]`},
	{`P=? [ G F "a" ]`, `P=? [ G (F "a") ]`},
	{`P=? [ F G "a" & "b" ]`, `P=? [ F (G ("a" & "b")) ]`},
	{`P=? [ F "a" U "b" ]`, `P=? [ (F "a") U "b" ]`},
	{`P=? [ "a" U (X "b") ]`, `P=? [ "a" U (X "b") ]`},
	{`P=? [ ("a" U "b") ]`, `P=? [ "a" U "b" ]`},
	{`P=? [ "a" ]`, `P=? [ "a" ]`},
	{`P=?[F=B X 0]`, `P=? [ F=B (X 0) ]`},
	{`P=? [ F<=T ("a") ]`, `P=? [ F<=T "a" ]`},
	{`P=? [ F<=floor(T/2) "a" ]`, `P=? [ F<=floor(T/2) "a" ]`},
	{`A [ false ]`, `A [ false ]`},
	{`R=? [ X X "a" ]`, `R=? [ X (X "a") ]`},
	{`R{"r"}=? [ (X "a") | (X "b") ]`, `R{"r"}=? [ (X "a") | (X "b") ]`},
	{`R=? [ F ("a" & (X "b")) ]`, `R=? [ F ("a" & (X "b")) ]`},
	{`R=? [ "a" U "b" ]`, `R=? [ "a" U "b" ]`},
	{`R=? [ true ]`, `R=? [ true ]`},
	{`P=? [ ("a") ]`, `P=? [ "a" ]`},
	{`P=? [ (F "a") & !(G "b") ]`, `P=? [ (F "a") & !(G "b") ]`},
	{`P=? [ (G F "a") => (G F "b") ]`, `P=? [ (G (F "a")) => (G (F "b")) ]`},
	{`P=? [ F<=3 (G "a") ]`, `P=? [ F<=3 (G "a") ]`},
	{`E [ G (F "a" & "b") ]`, `E [ G (F ("a" & "b")) ]`},
	{`P=? [ F P>0.5 [ G "a" ] ]`, `P=? [ F P>0.5 [ G "a" ] ]`},
	{`P=? [ F ("a" & P>0.5 [ X "b" ]) ]`, `P=? [ F ("a" & P>0.5 [ X "b" ]) ]`},
	// PRISM's older filters inside the brackets are the filters they stand for.
	{`P=? [ F "a" {"init"} ]`, `filter(state, P=? [ F "a" ], "init")`},
	{`P=? [ F "a" {x=0}{max} ]`, `filter(max, P=? [ F "a" ], x=0)`},
	{`R=? [ F "a" {true}{min} ]`, `filter(min, R=? [ F "a" ], true)`},
	{`S=? [ "a" {true}{max}{min} ]`, `filter(range, S=? [ "a" ], true)`},
	{`P>0.5 [ F "a" {"b"}{max} ]`, `filter(forall, P>0.5 [ F "a" ], "b")`},
}

func TestParseRoundTrip(t *testing.T) {
	for _, tc := range roundTrips {
		f, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := f.String(); got != tc.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, tc.want)
		}
		g, err := Parse(f.String())
		if err != nil {
			t.Errorf("Parse(%q) (the String of %q): %v", f.String(), tc.in, err)
			continue
		}
		if dump(g) != dump(f) {
			t.Errorf("round trip of %q changed the tree:\n got %s\nwant %s", tc.in, dump(g), dump(f))
		}
	}
}

func TestParseStructure(t *testing.T) {
	tests := []struct{ in, want string }{
		// Precedence, loosest to tightest: <=>, =>, |, &, !.
		{`"a" | "b" & "c"`, `(| "a" (& "b" "c"))`},
		{`"a" & "b" | "c"`, `(| (& "a" "b") "c")`},
		{`"a" | "b" => "c" & "d"`, `(=> (| "a" "b") (& "c" "d"))`},
		{`"a" => "b" <=> "c"`, `(=> "a" (<=> "b" "c"))`},
		{`"a" <=> "b" => "c" | "d" & !"e"`, `(=> (<=> "a" "b") (| "c" (& "d" (! "e"))))`},
		{`!"a" & "b"`, `(& (! "a") "b")`},
		{`!("a" & "b")`, `(! (& "a" "b"))`},
		{`!!"a"`, `(! (! "a"))`},
		{`!s=3`, `(! (= s 3))`},
		// Associativity: & | <=> to the left, => to the right.
		{`"a" & "b" & "c"`, `(& (& "a" "b") "c")`},
		{`"a" | "b" | "c"`, `(| (| "a" "b") "c")`},
		{`"a" <=> "b" <=> "c"`, `(<=> (<=> "a" "b") "c")`},
		{`"a" => "b" => "c"`, `(=> (=> "a" "b") "c")`},
		{`("a" => "b") => "c"`, `(=> (=> "a" "b") "c")`},
		// U takes whole state formulas on both sides.
		{`P=? [ "a" | "b" U "c" ]`, `(P=? (U (| "a" "b") "c"))`},
		{`P=? [ "a" U "b" & "c" ]`, `(P=? (U "a" (& "b" "c")))`},
		{`P=? [ "a" => "b" U<=3 "c" <=> "d" ]`, `(P=? (U<=3 (=> "a" "b") (<=> "c" "d")))`},
		{`P=? [ F "a" | "b" ]`, `(P=? (F (| "a" "b")))`},
		{`P=? [ G<=2 !"a" & "b" ]`, `(P=? (G<=2 (& (! "a") "b")))`},
		{`P=? [ X "a" => "b" ]`, `(P=? (X (=> "a" "b")))`},
		// Operators as atoms of state formulas, and nested in each other.
		{`P>0.5 [ F "a" ] & !"b"`, `(& (P>0.5 (F "a")) (! "b"))`},
		{`P=? [ "a" U P>0.9 [ X "b" ] ]`, `(P=? (U "a" (P>0.9 (X "b"))))`},
		{`S>=0.5 [ R<=3 [ C<=2 ] ]`, `(S>=0.5 (R{"",0}<=3 (C<=2)))`},
		{`R=? [ F S>0.2 [ "a" ] ]`, `(R{"",0}=? (F (S>0.2 "a")))`},
		{`!S=? [ "a" ] | P=? [ F "b" ]`, `(| (! (S=? "a")) (P=? (F "b")))`},
		// Every bound and kind.
		{`P=? [ F "end" ]`, `(P=? (F "end"))`},
		{`P>=0.9 [ F "a" ]`, `(P>=0.9 (F "a"))`},
		{`P>0.9 [ F "a" ]`, `(P>0.9 (F "a"))`},
		{`P<=0.9 [ F "a" ]`, `(P<=0.9 (F "a"))`},
		{`P<0.9 [ F "a" ]`, `(P<0.9 (F "a"))`},
		{`P>=1e-3 [ F "a" ]`, `(P>=0.001 (F "a"))`},
		{`P=? [ F<=5 "a" ]`, `(P=? (F<=5 "a"))`},
		{`P=? [ G "a" ]`, `(P=? (G "a"))`},
		{`P=? [ G<=5 "a" ]`, `(P=? (G<=5 "a"))`},
		{`P=? [ X "a" ]`, `(P=? (X "a"))`},
		{`P=? [ "a" U "b" ]`, `(P=? (U "a" "b"))`},
		{`P=? [ "a" U<=0 "b" ]`, `(P=? (U<=0 "a" "b"))`},
		{`P=?[true U<=12"b"]`, `(P=? (U<=12 true "b"))`},
		{`R{"time"}=? [ F "end" ]`, `(R{"time",0}=? (F "end"))`},
		{`R=? [ F "end" ]`, `(R{"",0}=? (F "end"))`},
		{`R{2}=? [ C<=4 ]`, `(R{"",2}=? (C<=4))`},
		{`R{"time"}<=5 [ C ]`, `(R{"time",0}<=5 (C))`},
		{`R>=0 [ I=3 ]`, `(R{"",0}>=0 (I=3))`},
		{`R > 1.5 [ I = 0 ]`, `(R{"",0}>1.5 (I=0))`},
		{`S=? [ "a" ]`, `(S=? "a")`},
		{`S>=0.5 [ "a" | "b" ]`, `(S>=0.5 (| "a" "b"))`},
		{`s=8 & s!=3 | s<5 & s<=5 & s>2 & s>=-2`, `(| (& (= s 8) (!= s 3)) (& (& (& (< s 5) (<= s 5)) (> s 2)) (>= s -2)))`},
		{`true | false`, `(| true false)`},
	}
	for _, tc := range tests {
		f, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := dump(f); got != tc.want {
			t.Errorf("Parse(%q):\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestParsePositions(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"a" | "b" & "c"`, `Binary@1 Label@1 Binary@7 Label@7 Label@13`},
		{`  true`, `Bool@3`},
		{`!("a" | "b") & s=3`, `Binary@1 Not@1 Binary@3 Label@3 Label@9 Compare@16 Ident@16 Num@18`},
		{`(("a")) & "b"`, `Binary@1 Label@3 Label@11`},
		{`P=? [ "a" U<=3 "b" ]`, `Prob@1 Until@7 Label@7 Num@14 Label@16`},
		{`P=? [ ("a") U "b" ]`, `Prob@1 Until@7 Label@8 Label@15`},
		{`P=? [ X "a" ]`, `Prob@1 Next@7 Label@9`},
		{`P=? [ F<=2 "a" ]`, `Prob@1 Eventually@7 Num@10 Label@12`},
		{`P>0.5 [ G "a" ]`, `Prob@1 Globally@9 Label@11`},
		{`  R{"t"}=? [ C<=5 ]`, `Reward@3 Cumulative@14 Num@17`},
		{`R=? [ C ]`, `Reward@1 Cumulative@7`},
		{`R=? [ I=2 ]`, `Reward@1 Instant@7 Num@9`},
		{`R{3}=? [ F "x" ]`, `Reward@1 Reach@10 Label@12`},
		{`S=? [ !"a" ]`, `Steady@1 Not@7 Label@8`},
		{`"é" & "b"`, `Binary@1 Label@1 Label@7`},
		{"\"a\" &\n\"b\"", `Binary@1 Label@1 Label@7`},
		{`/* ü */ "a"`, `Label@9`},
		{`"a" & P>0.5 [ F "b" ]`, `Binary@1 Label@1 Prob@7 Eventually@15 Label@17`},
	}
	for _, tc := range tests {
		f, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := positions(f); got != tc.want {
			t.Errorf("Parse(%q) positions:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

var errorCases = []struct {
	in  string
	col int
	msg string
}{
	{``, 1, `expected a property, found end of input`},
	{"  // only a comment\n", 21, `expected a property, found end of input`},
	{`P=?`, 4, `expected "[" after P=?, found end of input`},
	{`P=? F "a"`, 5, `expected "[" after P=?, found "F"`},
	{`P>=0.9 F "a"`, 8, `expected "[" after P>=0.9, found "F"`},
	{`P=? [ F "a"`, 12, `expected "]" to close P[...], found end of input`},
	{`P=? [ F "a" )`, 13, `expected "]" to close P[...], found ")"`},
	{`P>=1.5 [ F "a" ]`, 4, `expected a probability in [0,1], found "1.5"`},
	{`P<-0.1 [ F "a" ]`, 3, `expected a probability in [0,1], found "-0.1"`},
	{`P>1e400 [ F "a" ]`, 3, `expected a number within float64's range, found "1e400"`},
	{`P>= [ F "a" ]`, 5, `expected a probability after P>=, found "["`},
	{`P [ F "a" ]`, 3, `expected a bound (=?, <, <=, > or >=) after "P", found "["`},
	{`P!=0.5 [ F "a" ]`, 2, `expected a bound (=?, <, <=, > or >=) after "P", found "!="`},
	{`P=0.5 [ F "a" ]`, 3, `expected "?" after P= (P=? asks for the value; a bound uses <, <=, > or >=), found "0.5"`},
	{`Pmax=? [ F "a" ]`, 1, `expected "P" (a DTMC has no nondeterminism to minimise or maximise over), found "Pmax"`},
	{`"abc`, 1, `expected a closing quote for the string, found end of input`},
	{"P=? [ F \"abc\n\" ]", 9, `expected a closing quote for the string, found end of line`},
	{`""`, 1, `expected a label name between the quotes, found ""`},
	{`P=? [ F<=-1 "a" ]`, 10, `expected a non-negative integer step bound after F<=, found "-1"`},
	{`P=? [ "a" U<=2.5 "b" ]`, 14, `expected a non-negative integer step bound after U<=, found "2.5"`},
	{`P=? [ F<=99999999999999999999 "a" ]`, 10, `expected a step bound of at most 2147483647, found "99999999999999999999"`},
	{`P=? [ ]`, 7, `expected a path formula (X, F, G, U, W or R), found "]"`},
	{`P=? [ "a" "b" ]`, 11, `expected "]" to close P[...], found "b"`},
	{`P=? [ "a" U ]`, 13, `expected a state formula after "U", found "]"`},
	{`P=? [ F "a" ] x`, 15, `expected an operator or end of input, found "x"`},
	{`"a" "b"`, 5, `expected an operator or end of input, found "b"`},
	{`"a" | "b" U "c"`, 11, `expected an operator or end of input, found "U"`},
	{`P=? [ F "a" ];`, 14, `expected an operator or end of input, found ";"`},
	{`P=? [ F "a" ] #`, 15, `expected an operator or end of input, found "#"`},
	{`P=? [ F "a" ] /* open`, 15, `expected "*/" to close the comment, found end of input`},
	{`"a" &`, 6, `expected an expression after "&", found end of input`},
	{`"a" | | "b"`, 7, `expected an expression after "|", found "|"`},
	{`"a" => `, 8, `expected an expression after "=>", found end of input`},
	{`"a" <=> )`, 9, `expected an expression after "<=>", found ")"`},
	{`!`, 2, `expected a state formula after "!", found end of input`},
	{`("a" & "b"`, 11, `expected ")" to close the "(" at column 1, found end of input`},
	{`( )`, 3, `expected an expression after "(", found ")"`},
	{`F "a"`, 1, `expected a state formula, found "F"`},
	{`U`, 1, `expected a state formula, found "U"`},
	{`s=`, 3, `expected an expression after "=", found end of input`},
	{`R{`, 3, `expected a reward structure name ("name") or index (1, 2, ...) after R{, found end of input`},
	{`R{"time" =? [ C ]`, 10, `expected "}" to close R{...}, found "="`},
	{`R{"time"=? [ C ]`, 9, `expected "}" to close R{...}, found "="`},
	{`R{""}=? [ C ]`, 3, `expected a reward structure name between the quotes, found ""`},
	{`R{0}=? [ C ]`, 3, `expected a reward structure index >= 1, found "0"`},
	{`R{1.5}=? [ C ]`, 3, `expected a reward structure name ("name") or index (1, 2, ...) after R{, found "1.5"`},
	{`R{time}=? [ C ]`, 3, `expected a reward structure name ("name") or index (1, 2, ...) after R{, found "time"`},
	{`R{"t"} [ C ]`, 8, `expected a bound (=?, <, <=, > or >=) after R{"t"}, found "["`},
	{`R<=-1 [ C ]`, 4, `expected a finite reward bound >= 0, found "-1"`},
	{`R<=1e999 [ C ]`, 4, `expected a number within float64's range, found "1e999"`},
	{`R=? [ F<=3 "a" ]`, 8, `expected a state formula after "F" (R[F φ] takes no step bound), found "<="`},
	{`R=? [ C<3 ]`, 8, `expected "<=" (the only step bound is C<=k), found "<"`},
	{`R=? [ C<=2.0 ]`, 10, `expected a non-negative integer step bound after C<=, found "2.0"`},
	{`R=? [ I 3 ]`, 9, `expected "=" after "I" (I=k), found "3"`},
	{`R=? [ I=-3 ]`, 9, `expected a non-negative integer step after I=, found "-3"`},
	{`R=? [ C "a" ]`, 9, `expected "]" to close R[...], found "a"`},
	{`S=? [ "a"`, 10, `expected "]" to close S[...], found end of input`},
	{`S>2 [ "a" ]`, 3, `expected a probability in [0,1], found "2"`},
	{`S=? [ X "a" ]`, 7, `expected a state formula inside S[...], found "X"`},
	{`P=? [ F "日本 ]`, 9, `expected a closing quote for the string, found end of input`},
	{`"日本" & 日`, 8, `expected an expression after "&", found unexpected character "日"`},
	{"\"a\" & \x00", 7, `expected an expression after "&", found unexpected character "\x00"`},
	{`P=? [ F "a" ] & 1.`, 18, `expected an operator or end of input, found unexpected character "."`},
	// The extended language.
	{`P=? [ F<=99999999999 "a" ]`, 10, `expected a step bound of at most 2147483647, found "99999999999"`},
	{`P=? [ F[1 "a" ]`, 11, `expected "," in the step interval [a,b], found "a"`},
	{`P=? [ F[1,2 "a" ]`, 13, `expected "]" to close the step interval [a,b], found "a"`},
	{`P=? [ F[1,2.5] "a" ]`, 11, `expected a non-negative integer step bound in F[a,b], found "2.5"`},
	{`P=? [ "a" W!=2 "b" ]`, 12, `expected a step bound (<=k, <k, >=k, >k, =k or [a,b]) after "W", found "!="`},
	{`E "a"`, 3, `expected "[" after "E", found "a"`},
	{`filter(median, "a")`, 8, `expected a filter operator (min, max, argmin, argmax, count, sum, avg, first, range, forall, exists, print, printall, state), found "median"`},
	{`filter(max "a")`, 12, `expected "," after filter(max, found "a"`},
	{`filter(max, "a", "b", "c")`, 21, `expected "," or ")" to close filter(...), found ","`},
	{`filter(max, )`, 13, `expected a property to filter, found ")"`},
	{`min(1)`, 1, `expected two or more arguments for min, found 1`},
	{`pow(1)`, 1, `expected 2 argument(s) for pow, found 1`},
	{`floor(1, 2)`, 1, `expected 1 argument(s) for floor, found 2`},
	{`sqrt(2)`, 1, `expected a function (min, max, floor, ceil, round, pow, mod or log), found "sqrt"`},
	{`func(sqrt, 2)`, 6, `expected a function name (min, max, floor, ceil, round, pow, mod or log), found "sqrt"`},
	{`max(1, 2`, 9, `expected "," or ")" to close the "(" at column 4, found end of input`},
	{`a ? 1`, 6, `expected ":" in the conditional c ? a : b, found end of input`},
	{`a ? 1 : `, 9, `expected an expression after ":", found end of input`},
	{`# s`, 3, `expected "s" right after "#" (#s is the state index), found "s"`},
	{`#x`, 2, `expected "s" right after "#" (#s is the state index), found "x"`},
	{`x + `, 5, `expected an expression after "+", found end of input`},
	{`- `, 3, `expected an expression after "-", found end of input`},
	{`R=? [ C<=k ] * `, 16, `expected an expression after "*", found end of input`},
	{`R=? [ S "a" ]`, 9, `expected "]" to close R[...], found "a"`},
	{`P>=p [ F "a" ] [`, 16, `expected an operator or end of input, found "["`},
	{`P=? [ F "a" {"b"`, 17, `expected "}" to close the filter {...}, found end of input`},
	{`P=? [ F "a" {"b"}{avg} ]`, 19, `expected "min" or "max" in {...} after a filter, found "avg"`},
	{`1e400 > 0`, 1, `expected a number within float64's range, found "1e400"`},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errorCases {
		f, err := Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", tc.in, f)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error %T (%v), want *SyntaxError", tc.in, err, err)
			continue
		}
		if f != nil {
			t.Errorf("Parse(%q) returned %v with its error", tc.in, f)
		}
		if se.Col != tc.col || se.Msg != tc.msg || se.Line != 0 {
			t.Errorf("Parse(%q):\n got line %d, column %d: %s\nwant column %d: %s", tc.in, se.Line, se.Col, se.Msg, tc.col, tc.msg)
		}
		if want := fmt.Sprintf("column %d: %s", tc.col, tc.msg); err.Error() != want {
			t.Errorf("Parse(%q).Error() = %q, want %q", tc.in, err.Error(), want)
		}
	}
}

func TestParseLongTokenInMessage(t *testing.T) {
	_, err := Parse(`"a" ` + strings.Repeat("y", 100))
	want := `column 5: expected an operator or end of input, found "` + strings.Repeat("y", 27) + `..."`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestParseNesting(t *testing.T) {
	for _, depth := range []int{10, maxNesting / 2} {
		for _, src := range []string{
			strings.Repeat("(", depth) + `"a"` + strings.Repeat(")", depth),
			strings.Repeat("!", depth) + `"a"`,
			strings.Repeat(`"a" => `, depth) + `"a"`,
			strings.Repeat(`P>0.5 [ F `, depth) + `"a"` + strings.Repeat(" ]", depth),
		} {
			f, err := Parse(src)
			if err != nil {
				t.Errorf("depth %d: %v", depth, err)
				continue
			}
			if g, err := Parse(f.String()); err != nil || g.String() != f.String() {
				t.Errorf("depth %d: round trip failed: %v", depth, err)
			}
		}
	}
	for _, src := range []string{
		strings.Repeat("(", 5000),
		strings.Repeat("!", 5000),
		strings.Repeat(`P>0.5 [ F `, 5000),
	} {
		_, err := Parse(src)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, "nested operators") {
			t.Errorf("Parse(%.20q...) = %v, want a nesting error", src, err)
		}
	}
	// Long flat chains are loops, not recursion, and are not limited.
	src := strings.Repeat(`s=1 | `, 5000) + `s=2`
	if _, err := Parse(src); err != nil {
		t.Errorf("long disjunction: %v", err)
	}
}

func TestStringOfHandBuiltTrees(t *testing.T) {
	tests := []struct {
		f    StateFormula
		want string
	}{
		{&Binary{Op: And, L: &Label{Name: "a"}, R: &Binary{Op: Or, L: &Label{Name: "b"}, R: &Bool{Value: true}}}, `"a" & ("b" | true)`},
		{&Binary{Op: Implies, L: &Binary{Op: Iff, L: &Label{Name: "a"}, R: &Label{Name: "b"}}, R: &Label{Name: "c"}}, `"a" <=> "b" => "c"`},
		{&Not{F: &Binary{Op: Iff, L: &Label{Name: "a"}, R: &Label{Name: "b"}}}, `!("a" <=> "b")`},
		{&Prob{Bound: Bound{Op: GE, Value: 0.25}, Path: &Until{L: &Binary{Op: And, L: &Label{Name: "a"}, R: &Label{Name: "b"}}, R: &Label{Name: "c"}, Steps: &Steps{Op: LE, K: &Num{Value: 7, Int: true}}}}, `P>=0.25 [ ("a" & "b") U<=7 "c" ]`},
		{&Prob{Bound: Bound{Op: GE, Expr: &Ident{Name: "p"}}, Path: &Until{Op: W, L: &Label{Name: "a"}, R: &Label{Name: "c"}, Steps: &Steps{Interval: true, Lo: &Num{Value: 2, Int: true}, Hi: &Binary{Op: Add, L: &Ident{Name: "k"}, R: &Num{Value: 1, Int: true}}}}}, `P>=p [ "a" W[2,k+1] "c" ]`},
		{&Reward{RewardName: "cost", Bound: Bound{Op: Query}, Kind: &Instant{K: &Num{Value: 4, Int: true}}}, `R{"cost"}=? [ I=4 ]`},
		{&Reward{RewardIndex: 3, Bound: Bound{Op: LT, Value: 2}, Kind: &Cumulative{}}, `R{3}<2 [ C ]`},
		{&Steady{Bound: Bound{Op: LE, Value: 1}, F: &Compare{Op: NE, L: &Ident{Name: "s"}, R: &Num{Value: -1, Int: true}}}, `S<=1 [ s!=-1 ]`},
		{&Binary{Op: Mul, L: &Binary{Op: Add, L: &Num{Value: 1, Int: true}, R: &Num{Value: 2}}, R: &Neg{X: &Ident{Name: "x"}}}, `(1+2.0)*-x`},
		{&Ternary{Cond: &Ternary{Cond: &Bool{Value: true}, Then: &Num{Value: 1}, Else: &Num{Value: 2}}, Then: &Num{Value: 3}, Else: &Ternary{Cond: &Bool{}, Then: &Num{Value: 4}, Else: &Num{Value: 5}}}, `(true ? 1.0 : 2.0) ? 3.0 : false ? 4.0 : 5.0`},
		// Broken trees must still print, so that they can be shown in a checker's error.
		{&Binary{Op: And}, `<nil> & <nil>`},
		{&Prob{Bound: Bound{Op: Query}}, `P=? [ <nil> ]`},
		{&Not{}, `!<nil>`},
	}
	for _, tc := range tests {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	if s := BinOp(9).String() + CmpOp(9).String(); s != "BinOp(9)CmpOp(9)" {
		t.Errorf("unknown operators print as %q", s)
	}
}

const propsFile = `// Properties for the queue model.
/* A block comment
   spanning lines. */
"reach": P=? [ F "end" ]   // trailing comment

P>=0.9 [ G "safe" ]; "cost" : R{"time"}=? [ F "end" ]
  S=? [ "busy" ] ;;
"multi": P=? [ F /* a comment
 across lines */ "done" ]
	"last": R=? [ C<=10 ];
"end"
`

func TestParseFile(t *testing.T) {
	want := []Property{
		{Name: "reach", Line: 4, Text: `"reach": P=? [ F "end" ]`},
		{Line: 6, Text: `P>=0.9 [ G "safe" ]`},
		{Name: "cost", Line: 6, Text: `"cost" : R{"time"}=? [ F "end" ]`},
		{Line: 7, Text: `S=? [ "busy" ]`},
		{Name: "multi", Line: 8, Text: "\"multi\": P=? [ F /* a comment\n across lines */ \"done\" ]"},
		{Name: "last", Line: 10, Text: `"last": R=? [ C<=10 ]`},
		{Line: 11, Text: `"end"`},
	}
	formulas := []string{`P=? [ F "end" ]`, `P>=0.9 [ G "safe" ]`, `R{"time"}=? [ F "end" ]`, `S=? [ "busy" ]`, `P=? [ F "done" ]`, `R=? [ C<=10 ]`, `"end"`}
	cols := []string{`Prob@10 Eventually@16 Label@18`, `Prob@1 Globally@10 Label@12`, `Reward@31 Reach@45 Label@47`, `Steady@3 Label@9`, `Prob@10 Eventually@16 Label@18`, `Reward@10 Cumulative@16 Num@19`, `Label@1`}
	for _, crlf := range []bool{false, true} {
		src := propsFile
		if crlf {
			src = strings.ReplaceAll(src, "\n", "\r\n")
		}
		file, err := ParseFile(src)
		if err == nil {
			err = file.Err()
		}
		if err != nil {
			t.Fatalf("crlf %v: %v", crlf, err)
		}
		props := file.Props
		if len(props) != len(want) {
			t.Fatalf("crlf %v: got %d properties, want %d", crlf, len(props), len(want))
		}
		for i, p := range props {
			w := want[i]
			text := strings.ReplaceAll(p.Text, "\r", "")
			if p.Name != w.Name || p.Line != w.Line || text != w.Text {
				t.Errorf("crlf %v, property %d: got name %q line %d text %q, want %q %d %q", crlf, i, p.Name, p.Line, text, w.Name, w.Line, w.Text)
			}
			if got := p.Formula.String(); got != formulas[i] {
				t.Errorf("crlf %v, property %d: formula %s, want %s", crlf, i, got, formulas[i])
			}
			if got := positions(p.Formula); got != cols[i] {
				t.Errorf("crlf %v, property %d: positions %s, want %s", crlf, i, got, cols[i])
			}
		}
	}
}

func TestParseFileDeclarations(t *testing.T) {
	src := "const double p = 0.3;\nconst int N;\nconst q = 2*p; const bool b = true\nlabel \"low\" = x<N;\n" +
		"\"a\": P>=p [ F<=N \"low\" ]\nP=? [ F<=1.5 \"a\" ]\n\"a\": P=? [ X b ]\n\"b\": 2*\"a\"\n"
	file, err := ParseFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var consts []string
	for _, c := range file.Consts {
		consts = append(consts, fmt.Sprintf("%s %s=%v @%d:%d", c.Type, c.Name, c.Value, c.Line, c.Col))
	}
	want := "double p=0.3 @1:14|int N=<nil> @2:11|int q=2*p @3:7|bool b=true @3:27"
	if got := strings.Join(consts, "|"); got != want {
		t.Errorf("constants\n got %s\nwant %s", got, want)
	}
	if len(file.Labels) != 1 || file.Labels[0].Name != "low" || file.Labels[0].Expr.String() != "x<N" || file.Labels[0].Line != 4 {
		t.Errorf("labels %+v", file.Labels)
	}
	// A bad property and a repeated name spoil only themselves.
	var got []string
	for _, p := range file.Props {
		if p.Err != nil {
			got = append(got, fmt.Sprintf("%d error %v", p.Line, p.Err))
		} else {
			got = append(got, fmt.Sprintf("%d %s: %s", p.Line, p.Name, p.Formula))
		}
	}
	wantProps := []string{
		`5 a: P>=p [ F<=N "low" ]`,
		`6 error line 6, column 10: expected a non-negative integer step bound after F<=, found "1.5"`,
		`7 error line 7, column 1: expected a property name not used before, found "a" (already used on line 5)`,
		`8 b: 2*"a"`,
	}
	if strings.Join(got, "\n") != strings.Join(wantProps, "\n") {
		t.Errorf("properties\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(wantProps, "\n"))
	}
	for _, tc := range []struct{ in, want string }{
		{"const int N = 1;\nconst double N = 2;", `line 2, column 14: expected a constant name not declared before, found "N" (declared on line 1)`},
		{"const int = 1;", `line 1, column 11: expected a constant name, found "="`},
		{"const int P = 1;", `line 1, column 11: expected a constant name, found "P"`},
		{"const int N 1;", `line 1, column 13: expected "=" or ";" after the constant's name, found "1"`},
		{"const int N = ;", `line 1, column 15: expected a value after "N=", found ";"`},
		{"label low = true;", `line 1, column 7: expected a label name in quotes after "label", found "low"`},
		{"label \"low\" true;", `line 1, column 13: expected "=" after label "low", found "true"`},
	} {
		if _, err := ParseFile(tc.in); err == nil || err.Error() != tc.want {
			t.Errorf("ParseFile(%q):\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

// TestParseFileMultiLine: as in PRISM, a property goes on across lines while brackets are open
// or a line ends or begins with an operator (PRISM's own tests write properties so).
func TestParseFileMultiLine(t *testing.T) {
	src := "S<=0.2 [ x=7 ] &\nS>=0.1 [ x=7 ]\n&\n\"a\"\nP=? [ F\n  \"b\" ]\n\"c\"\n-1\n"
	file, err := ParseFile(src)
	if err != nil || file.Err() != nil {
		t.Fatal(err, file.Err())
	}
	var got []string
	for _, p := range file.Props {
		got = append(got, fmt.Sprintf("%d: %s", p.Line, p.Formula))
	}
	want := `1: S<=0.2 [ x=7 ] & S>=0.1 [ x=7 ] & "a"|5: P=? [ F "b" ]|7: "c"|8: -1`
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}

func TestParseFileEmpty(t *testing.T) {
	for _, src := range []string{"", "\n\n", "// nothing\n/* at\nall */ ;; \n ; "} {
		file, err := ParseFile(src)
		if err != nil || len(file.Props) != 0 || len(file.Consts) != 0 {
			t.Errorf("ParseFile(%q) = %+v, %v; want no properties", src, file, err)
		}
	}
}

func TestParseFileErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"P=? [ F \"a\" ]\nP=? [ F \"b\" \nP=? [F \"c\"]", `line 3, column 1: expected "]" to close P[...], found "P"`},
		{"P=? [ F \"a\" ]\r\nP=? [ F \"b\" \r\n", `line 3, column 1: expected "]" to close P[...], found end of input`},
		{`P=? [ F "a"; ]`, `line 1, column 12: expected "]" to close P[...], found ";"`},
		{`P=? [ F "a" ] P=? [ F "b" ]`, `line 1, column 15: expected an operator, ";" or end of line, found "P"`},
		{"\"a\": P=? [F \"x\"]\n\n\"a\": P=? [F \"y\"]", `line 3, column 1: expected a property name not used before, found "a" (already used on line 1)`},
		{`"": P=? [F "a"]`, `line 1, column 1: expected a property name between the quotes, found ""`},
		{"\"x\":\n", `line 2, column 1: expected a property, found end of input`},
		{`"x": ;`, `line 1, column 6: expected a property, found ";"`},
		{`"x"`, ``}, // a label alone is a property, not a name
		{"// c\n\n  P=? [ F \"abc ]\nP=? [ F \"d\" ]", `line 3, column 11: expected a closing quote for the string, found end of line`},
		{"P=? [ F \"a\" ] /* open\n\n", `line 1, column 15: expected "*/" to close the comment, found end of input`},
		{"/* a\nb */ P>=1.5 [ F \"a\" ]", `line 2, column 9: expected a probability in [0,1], found "1.5"`},
		{"P=? [ F /*\n*/ U \"a\" ]", `line 2, column 4: expected a state formula after "F", found "U"`},
		{"name: P=? [ F \"a\" ]", `line 1, column 5: expected an operator, ";" or end of line, found ":"`},
	}
	for _, tc := range tests {
		file, err := ParseFile(tc.in)
		if err == nil {
			err = file.Err()
		}
		if tc.want == "" {
			if err != nil {
				t.Errorf("ParseFile(%q): %v", tc.in, err)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseFile(%q) = %v; want *SyntaxError", tc.in, err)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("ParseFile(%q):\n got %s\nwant %s", tc.in, err, tc.want)
		}
	}
}

// checkParse is FuzzParse's property, also run on the seeds by go test.
func checkParse(t *testing.T, src string) {
	f, err := Parse(src)
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("Parse(%q) error %T (%v), want *SyntaxError", src, err, err)
		}
		if n := utf8.RuneCountInString(src); se.Col < 1 || se.Col > n+1 || se.Line != 0 {
			t.Fatalf("Parse(%q): line %d, column %d outside 1..%d", src, se.Line, se.Col, n+1)
		}
		if !strings.HasPrefix(se.Msg, "expected ") || !strings.Contains(se.Msg, ", found ") {
			t.Fatalf("Parse(%q): message %q does not say what was expected and found", src, se.Msg)
		}
		return
	}
	checkPositions(t, src, f)
	s := f.String()
	g, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q) ok as %q, but that does not parse: %v", src, s, err)
	}
	if g.String() != s || dump(g) != dump(f) {
		t.Fatalf("Parse(%q): round trip changed %q (%s) into %q (%s)", src, s, dump(f), g.String(), dump(g))
	}
	checkPositions(t, s, g)
}

func checkPositions(t *testing.T, src string, f Node) {
	n := utf8.RuneCountInString(src)
	var walk func(Node)
	walk = func(x Node) {
		if x == nil {
			t.Fatalf("Parse(%q): nil node in %s", src, dump(f))
		}
		if x.Pos() < 1 || x.Pos() > n {
			t.Fatalf("Parse(%q): %T at column %d outside 1..%d", src, x, x.Pos(), n)
		}
		for _, c := range children(x) {
			walk(c)
		}
	}
	walk(f)
}

func FuzzParse(f *testing.F) {
	for _, tc := range roundTrips {
		f.Add(tc.in)
		f.Add(tc.want)
	}
	for _, tc := range errorCases {
		f.Add(tc.in)
	}
	f.Add(propsFile)
	f.Fuzz(checkParse)
}

func FuzzParseFile(f *testing.F) {
	f.Add(propsFile)
	f.Add("const double p = 0.3;\nconst int N;\nlabel \"low\" = x<N;\n\"a\": P>=p [ F<=N \"low\" ]\n\"b\": 2*\"a\"\n")
	f.Add(strings.ReplaceAll(propsFile, "\n", "\r\n"))
	for _, tc := range roundTrips {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := ParseFile(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 {
				t.Fatalf("ParseFile(%q): bad error %#v", src, err)
			}
			return
		}
		for _, p := range file.Props {
			if p.Line < 1 || p.Text == "" || (p.Formula == nil) == (p.Err == nil) {
				t.Fatalf("ParseFile(%q): bad property %+v", src, p)
			}
			if p.Err != nil {
				var se *SyntaxError
				if !errors.As(p.Err, &se) || se.Line < 1 || se.Col < 1 {
					t.Fatalf("ParseFile(%q): bad error %#v", src, p.Err)
				}
				continue
			}
			s := p.Formula.String()
			if g, err := Parse(s); err != nil || g.String() != s {
				t.Fatalf("ParseFile(%q): %q does not round-trip: %v", src, s, err)
			}
		}
		for _, c := range file.Consts {
			if c.Value != nil {
				if g, err := Parse(c.Value.String()); err != nil || g.String() != c.Value.String() {
					t.Fatalf("ParseFile(%q): constant %s = %s does not round-trip: %v", src, c.Name, c.Value, err)
				}
			}
		}
	})
}

// TestWalk: Walk visits the same nodes as the tests' own children, in the same order.
func TestWalk(t *testing.T) {
	for _, tc := range roundTrips {
		f, err := Parse(tc.in)
		if err != nil {
			continue
		}
		var got []string
		Walk(f, func(n Node) { got = append(got, fmt.Sprintf("%T@%d", n, n.Pos())) })
		var want []string
		var walk func(Node)
		walk = func(n Node) {
			want = append(want, fmt.Sprintf("%T@%d", n, n.Pos()))
			for _, c := range children(n) {
				walk(c)
			}
		}
		walk(f)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("Walk(%s):\n got %v\nwant %v", tc.in, got, want)
		}
	}
}
