package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
)

// Ranges end exactly where written, counted in steps rather than summed.
func TestValues(t *testing.T) {
	for spec, want := range map[string]string{
		"0:0.1:1":     "0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0",
		"0.2:0.2:0.6": "0.2, 0.4, 0.6",
		"1:4":         "1, 2, 3, 4",
		"1/4":         "0.25",
		"true":        "true",
	} {
		vs, err := Values(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		var got []string
		for _, v := range vs {
			got = append(got, v.String())
		}
		if strings.Join(got, ", ") != want {
			t.Errorf("%s: got %s, want %s", spec, strings.Join(got, ", "), want)
		}
	}
	for _, bad := range []string{"1:0", "a", "1:2:3:4", "0:1e-6:1", "1/0"} {
		if _, err := Values(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// A property is checked at every combination of the ranged constants it uses, through the
// constants it refers to, and only those.
func TestPoints(t *testing.T) {
	env := &checker.Env{Consts: map[string]pctl.StateFormula{}, Props: map[string]pctl.StateFormula{}, Labels: map[string]pctl.StateFormula{}, Types: map[string]string{}}
	ranges, err := DefineConsts([]string{"T=1:3,N=2:3", "K=5"}, env)
	if err != nil {
		t.Fatal(err)
	}
	f, err := pctl.Parse(`P=? [ F<=T s=N ]`)
	if err != nil {
		t.Fatal(err)
	}
	pts := Points(f, env, ranges)
	if len(pts) != 6 || DescribeConsts(pts[0]) != "N=2, T=1" || DescribeConsts(pts[5]) != "N=3, T=3" {
		t.Errorf("points %v", pts)
	}
	if _, err := DefineConsts([]string{"T=1,T=2"}, env); err == nil {
		t.Error("a constant given twice: no error")
	}
}

// A PRISM-language model's undefined constants come from the definitions, ranged ones build
// one model each; the others are left for the properties.
func TestDoPRISMRange(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "walk.pm")
	src := "dtmc\nconst int N;\nmodule m\n s : [0..N] init 0;\n [] s<N -> 0.5:(s'=s+1) + 0.5:(s'=s);\n [] s=N -> true;\nendmodule\nlabel \"end\" = s=N;\nrewards \"steps\"\n true : 1;\nendrewards\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Do(Request{Model: path, Consts: []string{"N=1:3"}, Props: []string{`R{"steps"}=? [ F "end" ]`}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Err() != nil || len(c.Runs) != 3 {
		t.Fatalf("runs %d, err %v", len(c.Runs), c.Err())
	}
	for i, run := range c.Runs {
		if want := 2 * float64(i+1); run.Result.Initial < want-1e-9 || run.Result.Initial > want+1e-9 {
			t.Errorf("N=%d: %v, want %v", i+1, run.Result.Initial, want)
		}
	}
	var ue *UsageError
	if _, err := Do(Request{Model: path}); !errors.As(err, &ue) || !strings.Contains(err.Error(), "leaves constants N undefined") {
		t.Errorf("missing constant: %v", err)
	}
}

// Method names the checker's method; an unknown one fails before the model is read.
func TestDoMethod(t *testing.T) {
	if _, err := Do(Request{Model: "none.json", Method: "fast"}); err == nil || !strings.HasPrefix(err.Error(), `unknown method "fast"`) {
		t.Errorf("%v, want the unknown method", err)
	}
	c, err := Do(Request{Model: "../../examples/die/die.json", Props: []string{`P=? [ F "six" ]`}, Method: "exact"})
	if err != nil || c.Runs[0].Result.InitialExact == nil {
		t.Errorf("%v: no exact result", err)
	}
}
