package modelio

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
)

func TestPRISMStates(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"m.tra": "3 3\n0 1 1\n1 2 1\n2 2 1\n",
		"m.lab": "0=\"init\" 1=\"deadlock\"\n0: 0\n",
		// States listed out of order, a negative value, spaces inside the tuple.
		"m.sta": "(s,d,b)\n0:(7,0,false)\n2:(5, -1, true)\n1:(6,3,false)\n",
	})
	m, err := LoadPRISM(filepath.Join(dir, "m.tra"))
	if err != nil {
		t.Fatal(err)
	}
	v := m.Vars
	if v == nil || strings.Join(v.Names, ",") != "s,d,b" || v.Bool[0] || !v.Bool[2] {
		t.Fatalf("vars %+v", v)
	}
	if err := v.Validate(m.N); err != nil {
		t.Fatal(err)
	}
	want := [][]int{{7, 0, 0}, {6, 3, 0}, {5, -1, 1}}
	for s, row := range want {
		for i, x := range row {
			if got := v.Value(s, i); got != x {
				t.Errorf("state %d %s = %d, want %d", s, v.Names[i], got, x)
			}
		}
	}
}

func TestPRISMStatesErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "m.sta: empty states file (expected a header like (x,y))"},
		{"x,y\n", "m.sta:1:1: expected a parenthesised list like (x,y), found \"x,y\""},
		{"(x,1y)\n", "m.sta:1:4: variable name \"1y\" is not an identifier"},
		{"(x,x)\n", "m.sta:1:4: variable \"x\" is declared twice"},
		{"(x)\n0:(1)\n0:(2)\n", "m.sta:3:1: state 0 is listed twice"},
		{"(x)\n0:(1)\n1 (2)\n", "m.sta:3:1: expected \"state:(values)\", found \"1 (2)\""},
		{"(x)\n0:(1)\n5:(2)\n", "m.sta:3:1: state 5 is out of range 0..1"},
		{"(x,y)\n0:(1,2)\n1:(2)\n", "m.sta:3:3: expected 2 values (x,y), found 1"},
		{"(x,y)\n0:(1,2)\n1:(2, 0.5)\n", "m.sta:3:7: value \"0.5\" of y is not an integer, true or false"},
		{"(x)\n0:(1)\n1:(true)\n", "m.sta:3:4: value \"true\" of x: the variable's values so far were integers"},
		{"(x)\n1:(1)\n", "m.sta: state 0 is not listed (the transitions file has 2 states, this file 1)"},
	}
	for _, c := range cases {
		_, err := DecodePRISMStates(src("m.sta", c.in), 2)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}

// encodeStates writes v as PRISM does, for the fuzzer's round trip.
func encodeStates(v *dtmc.Vars, n int) string {
	var b strings.Builder
	b.WriteString("(" + strings.Join(v.Names, ",") + ")\n")
	for s := 0; s < n; s++ {
		vals := make([]string, len(v.Names))
		for i := range v.Names {
			x := v.Value(s, i)
			switch {
			case !v.Bool[i]:
				vals[i] = fmt.Sprint(x)
			case x == 1:
				vals[i] = "true"
			default:
				vals[i] = "false"
			}
		}
		fmt.Fprintf(&b, "%d:(%s)\n", s, strings.Join(vals, ","))
	}
	return b.String()
}

func FuzzReadPRISMStates(f *testing.F) {
	f.Add("(s,d,b)\n0:(7,0,false)\n2:(5, -1, true)\n1:(6,3,false)\n")
	f.Add("()\n0:()\n1:()\n2:()\n")
	f.Add("(x)\n0:(1)\n1:(-2)\n2:(99999999999)\n")
	f.Fuzz(func(t *testing.T, in string) {
		v, err := DecodePRISMStates(src("f.sta", in), 3)
		if err != nil {
			return
		}
		if err := v.Validate(3); err != nil {
			t.Fatalf("accepted invalid variables: %v", err)
		}
		text := encodeStates(v, 3)
		back, err := DecodePRISMStates(src("again.sta", text), 3)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, text)
		}
		if encodeStates(back, 3) != text {
			t.Fatalf("round trip changed the variables:\n%s", text)
		}
	})
}
