package record

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/trace"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/source/frontend"
)

// TestRecordAndFit records testdata/work.Work from four goroutines (48 invocations) and fits the
// laws of its loops: len(xs), n² (the inner loop; the outer one n) and log2(len(name)).
func TestRecordAndFit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a workload")
	}
	prog, err := frontend.Load("testdata", "./work")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/work.Work")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	plan, err := Instrument(fns[0], filepath.Join(tmp, "src"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "len(xs) n len(name) | loop@work.go:8 loop@work.go:11 loop@work.go:12 loop@work.go:16"
	if got := strings.Join(plan.Header.Params, " ") + " | " + strings.Join(plan.Header.Quantities, " "); got != want {
		t.Errorf("header %s, want %s", got, want)
	}
	path := filepath.Join(tmp, "work.trace.jsonl")
	m, n, err := Record(plan, instrument.Workload{Args: []string{"go", "test", "./work"}, Dir: "testdata"}, path)
	if err != nil || m.ExitCode != 0 {
		t.Fatalf("%v %+v", err, m)
	}
	if n != 48 {
		t.Errorf("%d invocations recorded, want 48", n)
	}
	f, _ := os.Open(path)
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := r.ReadAll()
	samples := board.Samples(r.Header, recs)
	st := board.New(r.Header, len(recs))
	board.Run(st, samples, nil, 10)
	res := st.Result(samples)
	forms := map[string]string{}
	for _, l := range res.Laws {
		forms[l.Quantity] = l.Law.Form()
		t.Logf("%s = %s (cv error %.2g)", l.Quantity, l.Text, l.CVError)
	}
	for q, w := range map[string]string{"loop@work.go:8": "len(xs) + c", "loop@work.go:11": "n + c", "loop@work.go:12": "n^2 + c", "loop@work.go:16": "log2(len(name)) + c"} {
		if forms[q] != w {
			t.Errorf("%s: %s, want %s", q, forms[q], w)
		}
	}
	// The user's file is untouched.
	src, _ := os.ReadFile("testdata/work/work.go")
	if len(src) == 0 || strings.Contains(string(src), "_augurfit_") {
		t.Error("the package's own file was modified")
	}
}

// TestStructFields records fields of a struct parameter through a pointer: len(r.Items) and
// r.Page.Limit; the invocations whose page is nil are not recorded (the field has no value), and
// the program behaves as without augur (no nil dereference).
func TestStructFields(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a workload")
	}
	prog, err := frontend.Load("testdata", "./work")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/work.Serve")
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{
		"q.Items=len":    "has no parameter q",
		"r.Nope=len":     "r has no field Nope",
		"r.Items=value":  "not measured by value",
		"r.Items":        "want PARAM.FIELD=len",
		"r.Page.X=value": "r.Page has no field X",
		"r.Items.N=len":  "is a []int, not a struct",
	} {
		_, err := Instrument(fns[0], t.TempDir(), Options{Fields: []string{spec}})
		var pe *ParamError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a *ParamError %q", spec, err, want)
		}
	}
	tmp := t.TempDir()
	plan, err := Instrument(fns[0], filepath.Join(tmp, "src"), Options{Fields: []string{"r.Items=len", "r.Page.Limit=value"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "len(r.Items) r.Page.Limit | loop@work.go:34 loop@work.go:38 branch@work.go:37:true branch@work.go:37:false"
	if got := strings.Join(plan.Header.Params, " ") + " | " + strings.Join(plan.Header.Quantities, " "); got != want {
		t.Errorf("header %s, want %s", got, want)
	}
	path := filepath.Join(tmp, "serve.trace.jsonl")
	m, n, err := Record(plan, instrument.Workload{Args: []string{"go", "test", "./work", "-run", "Serve"}, Dir: "testdata"}, path)
	if err != nil || m.ExitCode != 0 {
		t.Fatalf("%v %+v", err, m)
	}
	if n != 6 {
		t.Fatalf("%d invocations recorded, want the 6 with a page", n)
	}
	f, _ := os.Open(path)
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := r.ReadAll()
	for _, rec := range recs {
		k := rec.P[0]
		// Items k, limit 2k; loops k and 2k; the if taken.
		if rec.P[1] != 2*k || rec.Q[0] != k || rec.Q[1] != 2*k || rec.Q[2] != 1 || rec.Q[3] != 0 {
			t.Errorf("record %+v", rec)
		}
	}
}

// TestRecordSwitches records testdata/sw.Classify on even sizes 4..20 and checks each clause's
// count per invocation against its closed form: the switch's case 1 four times, case 2 and the
// default (n-4)/2 each (an entry by fallthrough is not counted as the default's outcome), the
// type switch's added default and the select's default once.
func TestRecordSwitches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a workload")
	}
	prog, err := frontend.Load("testdata", "./sw")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/sw.Classify")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	plan, err := Instrument(fns[0], filepath.Join(tmp, "src"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "loop@sw.go:10 switch@sw.go:11:case1 switch@sw.go:11:case2 switch@sw.go:11:default switch@sw.go:22:case1 switch@sw.go:22:case2 switch@sw.go:22:default select@sw.go:28:case1 select@sw.go:28:default"
	if got := strings.Join(plan.Header.Quantities, " "); got != want {
		t.Fatalf("quantities %s, want %s", got, want)
	}
	path := filepath.Join(tmp, "sw.trace.jsonl")
	m, n, err := Record(plan, instrument.Workload{Args: []string{"go", "test", "./sw"}, Dir: "testdata"}, path)
	if err != nil || m.ExitCode != 0 {
		t.Fatalf("%v %+v", err, m)
	}
	if n != 9 {
		t.Errorf("%d invocations recorded, want 9", n)
	}
	f, _ := os.Open(path)
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		x := rec.P[0]
		want := []float64{x, 4, (x - 4) / 2, (x - 4) / 2, 0, 0, 1, 0, 1}
		if fmt.Sprint(rec.Q) != fmt.Sprint(want) {
			t.Errorf("n=%v: counts %v, want %v", x, rec.Q, want)
		}
	}
}

// TestRecordRefusesCgo: a function in a file that imports "C" cannot be rewritten (the go command
// compiles the file from cgo's output), so recording it is refused, by name.
func TestRecordRefusesCgo(t *testing.T) {
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is off")
	}
	prog, err := frontend.Load("testdata", "./withc")
	if err != nil {
		t.Skipf("no cgo build here: %v", err)
	}
	fns, err := prog.Select("example.com/withc.Scale")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Instrument(fns[0], t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), `example.com/withc.Scale is in a file that imports "C"`) {
		t.Errorf("Instrument: %v, want a refusal naming the function", err)
	}
}
