package export

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/internal/testmodels"
	"github.com/augur-perf/augur/markov/dtmc"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

func golden(t *testing.T, name string, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal([]byte(got), want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestPRISMGolden(t *testing.T) {
	for _, s := range testmodels.Samples {
		t.Run(s.Name, func(t *testing.T) {
			m := s.Model(t)
			p, err := PRISM(m, PRISMOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Consts) != 0 {
				t.Errorf("plain export has constants %v", p.Consts)
			}
			golden(t, s.Name+".prism", p.Text)

			p, err = PRISM(m, PRISMOptions{Parametric: true})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, s.Name+".param.prism", p.Text+"==> values <==\n"+p.ValuesFile()+"==> -const <==\n"+p.ConstFlag()+"\n")
		})
	}
}

func TestDOTGolden(t *testing.T) {
	for _, s := range testmodels.Samples {
		golden(t, s.Name+".dot", DOT(s.Model(t)))
	}
}

func TestPropsGolden(t *testing.T) {
	got, err := Props([]string{`P=? [ F "six" ]`, ` R{"flips"}=? [ F "done" ]; `, `P>=0.1 [ F<=10 "done" ]`})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "die.props", got)
	for _, bad := range [][]string{{""}, {";"}, {"P=? [ F\n\"done\" ]"}} {
		if _, err := Props(bad); err == nil {
			t.Errorf("Props(%q) should fail", bad)
		}
	}
}

func build(t *testing.T, f func(b *dtmc.Builder)) *dtmc.Model {
	t.Helper()
	b := dtmc.NewBuilder(3)
	f(b)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPRISMRefusals(t *testing.T) {
	line := func(b *dtmc.Builder) {
		b.Add(0, 1, 0.5)
		b.Add(0, 2, 0.5)
		b.Add(1, 1, 1)
		b.Add(2, 2, 1)
		b.SetInit(0)
	}
	cases := []struct {
		name string
		f    func(b *dtmc.Builder)
		opt  PRISMOptions
		want string
	}{
		{"target-dependent transition rewards", func(b *dtmc.Builder) {
			line(b)
			b.AddTransReward("cost", 0, 1, 1)
			b.AddTransReward("cost", 0, 2, 2)
		}, PRISMOptions{}, `reward structure "cost" gives the transitions of state 0 different rewards (0 -> 1: 1, 0 -> 2: 2)`},
		{"keyword label", func(b *dtmc.Builder) { line(b); b.Label("module", 1) }, PRISMOptions{}, `label "module" is not a PRISM identifier`},
		{"bad reward name", func(b *dtmc.Builder) { line(b); b.AddStateReward("time spent", 0, 1) }, PRISMOptions{}, `reward structure name "time spent"`},
		{"bad action", func(b *dtmc.Builder) {
			b.Add(0, 1, 1)
			b.SetAction("go-on")
			b.Add(1, 2, 1)
			b.Add(2, 2, 1)
			b.SetInit(0)
		}, PRISMOptions{}, `action "go-on"`},
		{"init label disagrees", func(b *dtmc.Builder) { line(b); b.Label("init", 1) }, PRISMOptions{}, `label "init" is built into PRISM`},
		{"shared parameter, two values", func(b *dtmc.Builder) {
			b.Add(0, 1, 0.25)
			b.SetParam("p")
			b.Add(0, 2, 0.75)
			b.Add(1, 0, 0.5)
			b.SetParam("p")
			b.Add(1, 2, 0.5)
			b.Add(2, 2, 1)
			b.SetInit(0)
		}, PRISMOptions{Parametric: true}, `parameter "p" stands for both 0.25 and 0.5`},
		{"bad variable", line, PRISMOptions{Var: "init"}, `"init" is not a PRISM identifier`},
	}
	for _, c := range cases {
		_, err := PRISM(build(t, c.f), c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func TestPRISMCorners(t *testing.T) {
	// One state: the variable still gets a two-value range.
	b := dtmc.NewBuilder(1)
	b.Add(0, 0, 1)
	b.SetInit(0)
	one, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	p, err := PRISM(one, PRISMOptions{Module: "m", Var: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text, "x : [0..1] init 0;") || !strings.Contains(p.Text, "[] x=0 -> 1:(x'=0);") {
		t.Errorf("one-state model:\n%s", p.Text)
	}

	// Mixed actions in a state, a user parameter name that a generated one would clash with, a
	// non-uniform initial distribution and a deadlock label from an imported model.
	m := build(t, func(b *dtmc.Builder) {
		b.Add(0, 1, 0.5)
		b.SetAction("a")
		b.SetParam("p1_1")
		b.Add(0, 2, 0.25)
		b.SetAction("b")
		b.Add(0, 0, 0.25)
		b.SetAction("a")
		b.Add(1, 1, 0.5)
		b.Add(1, 2, 0.5)
		b.Add(2, 2, 1)
		b.AddInit(0, 0.25)
		b.AddInit(1, 0.75)
		b.Label("deadlock", 2)
		b.AddTransReward("t", 0, 0, 3)
		b.AddTransReward("t", 0, 1, 3)
		b.AddTransReward("t", 0, 2, 3)
	})
	p, err = PRISM(m, PRISMOptions{Parametric: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"const double p0_1;\nconst double p1_1;\nconst double p1_1_;\n",
		"[] s=0 -> p0_1:(s'=0) + p1_1:(s'=1) + 1-(p0_1+p1_1):(s'=2); // actions: s'=0 [a], s'=1 [a], s'=2 [b]",
		"[] s=1 -> p1_1_:(s'=1) + 1-(p1_1_):(s'=2);",
		"augur's is s=0: 0.25, s=1: 0.75.\ninit\n  (s>=0 & s<=1)\nendinit",
		`// The model's label "deadlock" (s=2) is not exported`,
		"[] s=0 : 3;",
	} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("missing %q in\n%s", want, p.Text)
		}
	}
	if got := p.ConstFlag(); got != "p0_1=0.25,p1_1=0.5,p1_1_=0.5" {
		t.Errorf("const flag %q", got)
	}
}

// TestPRISMFormulas exports a two-state loop whose continue probability is a formula of an
// undefined constant: the constant and formula come before the module, the expressions replace
// the transitions' values, and names that are not PRISM identifiers or are declared twice are
// refused.
func TestPRISMFormulas(t *testing.T) {
	b := dtmc.NewBuilder(2)
	b.Add(0, 0, 0.5)
	b.Add(0, 1, 0.5)
	b.Add(1, 1, 1)
	b.SetInit(0)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	opt := PRISMOptions{
		Params:   []string{"n"},
		Formulas: []Formula{{Name: "q", Expr: "n/(n+1)", Comment: "continue"}},
		Probs:    map[int]string{0: "q", 1: "1 - q"},
	}
	pm, err := PRISM(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"const double n;\n\n// continue\nformula q = n/(n+1);\n", "[] s=0 -> (q):(s'=0) + (1 - q):(s'=1);", "[] s=1 -> 1:(s'=1);"} {
		if !strings.Contains(pm.Text, want) {
			t.Errorf("the export lacks %q:\n%s", want, pm.Text)
		}
	}
	for _, bad := range []PRISMOptions{
		{Params: []string{"len(xs)"}},
		{Params: []string{"n"}, Formulas: []Formula{{Name: "n", Expr: "1"}}},
		{Formulas: []Formula{{Name: "s", Expr: "1"}}},
	} {
		if _, err := PRISM(m, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
