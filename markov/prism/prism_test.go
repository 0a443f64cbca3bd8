package prism

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
)

// Knuth and Yao's die from fair coin flips, as PRISM's examples write it.
const die = `dtmc

module die
	// local state
	s : [0..7] init 0;
	// value of the die
	d : [0..6] init 0;

	[] s=0 -> 0.5 : (s'=1) + 0.5 : (s'=2);
	[] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=4);
	[] s=2 -> 0.5 : (s'=5) + 0.5 : (s'=6);
	[] s=3 -> 0.5 : (s'=1) + 0.5 : (s'=7) & (d'=1);
	[] s=4 -> 0.5 : (s'=7) & (d'=2) + 0.5 : (s'=7) & (d'=3);
	[] s=5 -> 0.5 : (s'=7) & (d'=4) + 0.5 : (s'=7) & (d'=5);
	[] s=6 -> 0.5 : (s'=2) + 0.5 : (s'=7) & (d'=6);
	[] s=7 -> (s'=7);
endmodule

rewards "coin_flips"
	[] s<7 : 1;
endrewards

label "done" = s=7;
label "six" = s=7 & d=6;
`

func check(t *testing.T, r *Result, prop string) float64 {
	t.Helper()
	f, err := pctl.Parse(prop)
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Check(r.Model, f, checker.Options{Method: checker.Exact})
	if err != nil {
		t.Fatal(err)
	}
	return res.Initial
}

func TestDie(t *testing.T) {
	r, err := Parse(die, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model.N != 13 || r.Model.NumTransitions() != 20 {
		t.Errorf("%d states, %d transitions; PRISM builds 13 and 20", r.Model.N, r.Model.NumTransitions())
	}
	if got := check(t, r, `P=? [ F "six" ]`); math.Abs(got-1.0/6) > 1e-15 {
		t.Errorf("P(six) = %v, want 1/6", got)
	}
	if got := check(t, r, `R{"coin_flips"}=? [ F "done" ]`); math.Abs(got-11.0/3) > 1e-14 {
		t.Errorf("expected flips %v, want 11/3", got)
	}
	if len(r.Vars) != 2 || r.Vars[0] != "s" || r.States[0][0] != 0 {
		t.Errorf("vars %v, first state %v", r.Vars, r.States[0])
	}
}

// Two modules synchronise on a shared action; constants come from the caller; a renamed copy
// of a module; formulas; a state reward.
func TestSyncRenameConsts(t *testing.T) {
	src := `dtmc
const double p;
const int N = 3;
formula full = a=N;

module A
	a : [0..N] init 0;
	[tick] a<N -> p : (a'=a+1) + 1-p : (a'=a);
	[tick] a=N -> (a'=a);
endmodule

module B = A [ a=b, tick=tick ] endmodule

rewards "steps"
	!full : 1;
endrewards

label "both" = full & b=N;
`
	if _, err := Parse(src, Options{}); err == nil || !strings.Contains(err.Error(), "2:14: constant p is undefined") {
		t.Errorf("undefined constant: %v", err)
	}
	r, err := Parse(src, Options{Consts: map[string]string{"p": "0.5"}})
	if err != nil {
		t.Fatal(err)
	}
	// Both counters move in lock step, each advancing independently with probability 1/2: 16
	// states (a, b) in [0..3]².
	if r.Model.N != 16 {
		t.Errorf("%d states, want 16", r.Model.N)
	}
	if got := check(t, r, `P=? [ F "both" ]`); math.Abs(got-1) > 1e-12 {
		t.Errorf("P(F both) = %v", got)
	}
	// The reward counts ticks while A is not full: 3 advances at probability 1/2 each, 2 ticks
	// per advance in expectation.
	if got := check(t, r, `R{"steps"}=? [ F "both" ]`); math.Abs(got-6) > 1e-12 {
		t.Errorf("expected ticks %v, want 6", got)
	}
}

// Unlabelled commands enabled together are chosen uniformly; init ... endinit gives several
// initial states; a state without commands deadlocks.
func TestUniformChoiceInitDeadlock(t *testing.T) {
	src := `dtmc
module M
	x : [0..3];
	[] x=0 -> (x'=1);
	[] x=0 -> (x'=2);
	[] x=1 -> (x'=3);
endmodule
init x=0 | x=1 endinit
label "three" = x=3;
`
	r, err := Parse(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Model.Init) != 2 || r.Deadlocks != 2 {
		t.Errorf("init %v, deadlocks %d (x=2 and x=3)", r.Model.Init, r.Deadlocks)
	}
	if sts, _ := r.Model.Label("deadlock"); len(sts) != 2 {
		t.Errorf("deadlock label %v", sts)
	}
	// From x=0: 1/2 via x=1 to x=3; from x=1: certain. Initial mix (1/2 each): 3/4.
	if got := check(t, r, `P=? [ F "three" ]`); math.Abs(got-0.75) > 1e-15 {
		t.Errorf("P = %v, want 3/4", got)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"mdp\nmodule M x:[0..1]; endmodule", "1:1: mdp models are not supported"},
		{"dtmc\nmodule M\n x : [0..1] init 0;\n [] x=0 -> (x'=2);\nendmodule", "4:16: x=2 is outside its range [0..1]"},
		{"dtmc\nmodule M\n x : [0..1] init 0;\n [] x=0 -> 0.5 : (x'=1) + 0.4 : (x'=0);\nendmodule", "4:2: the command's probabilities sum to 0.9"},
		{"dtmc\nmodule M\n x : [0..1] init 0;\n [] y=0 -> (x'=1);\nendmodule", "4:5: unknown identifier y"},
		{"dtmc\nmodule M\n x : [0..1] init 0;\n [] x=0 -> (x'=1)\nendmodule", "5:1: expected \";\""},
		{"dtmc\nmodule M\n x : [0..1] init 0;\n [] x=0 -> (x'=1);\n", "has no endmodule"},
		{"dtmc\nconst int N = 2;\nconst int N = 3;\nmodule M x:[0..1]; endmodule", "3:11: constant N is already declared at 2:11"},
		{"dtmc\nmodule M\n x : [0..1] init 0;\n y : [0..1] init 0;\nendmodule\nmodule B\n z : bool;\n [] true -> (x'=1);\nendmodule", "8:14: module B cannot update x"},
		{"dtmc\nformula f = f + 1;\nmodule M\n x : [0..1] init f;\nendmodule", "formula f refers to itself"},
		{"dtmc\nmodule M\n x : [0..1] init 0;\n [] x=0 -> \"a\";\nendmodule", "expected"},
		{"", "the model has no module"},
	} {
		_, err := Parse(c.src, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
	var pe *Error
	if _, err := Parse("dtmc\nmodule M x : [0..1]; [] x=0 -> (x'=1) endmodule", Options{}); !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("a positioned error: %v", err)
	}
}

// TestNoProbChecks: with prism -noprobchecks, each state's weights are divided by their sum
// (PRISM's bugfixes/dtmc-normalise-simulator: weights 2, 2 and 2 give each command 1/3, not the
// 2/3 that dividing by the number of commands would give); commands that sum to 1 answer as
// without it.
func TestNoProbChecks(t *testing.T) {
	src := "dtmc\nmodule M\n x : [0..3] init 0;\n [] x=0 -> 2:(x'=1);\n [] x=0 -> 2:(x'=2) + 4:(x'=3);\n [] x>0 -> true;\nendmodule\nlabel \"one\" = x=1;\n"
	if _, err := Parse(src, Options{}); err == nil || !strings.Contains(err.Error(), "4:2: the command's probabilities sum to 2") {
		t.Fatalf("without NoProbChecks: %v", err)
	}
	r, err := Parse(src, Options{NoProbChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := check(t, r, `P=? [ X "one" ]`); math.Abs(got-0.25) > 1e-15 {
		t.Errorf("P = %v, want 2/8", got)
	}
	r, err = Parse(die, Options{NoProbChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := check(t, r, `P=? [ F "six" ]`); math.Abs(got-1.0/6) > 1e-15 {
		t.Errorf("the die with NoProbChecks: P = %v, want 1/6", got)
	}
	zero := "dtmc\nmodule M\n x : [0..1] init 0;\n b : bool init true;\n [] x=0 -> 0:(x'=1);\nendmodule\n"
	if _, err := Parse(zero, Options{NoProbChecks: true}); err == nil || !strings.Contains(err.Error(), "state (x=0,b=true): the enabled commands' weights sum to 0") {
		t.Errorf("weights of 0: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(die)
	f.Add("dtmc\nmodule M\n x : [0..3];\n [] x<3 -> 0.5:(x'=x+1) + 0.5:true;\nendmodule\ninit x=0 endinit\n")
	f.Add("dtmc\nmodule M\n x : [0..2] init 0;\n [] x=0 -> 2:(x'=1) + 1e-320:(x'=2);\n [] x>0 -> true;\nendmodule\n")
	f.Add("dtmc\nconst int N=2;\nformula g = x>=N ? 1 : 0;\nmodule M x:[0..N]; [a] x<N -> (x'=min(x+1,N)); endmodule\nmodule B = M [x=y] endmodule\nrewards \"r\" [a] true : g; endrewards")
	f.Fuzz(func(t *testing.T, src string) {
		for _, o := range []Options{{MaxStates: 5000}, {MaxStates: 5000, NoProbChecks: true}} {
			r, err := Parse(src, o)
			if err != nil {
				continue
			}
			if r.Model.N != len(r.States) {
				t.Fatalf("%d states, %d valuations", r.Model.N, len(r.States))
			}
		}
	})
}
