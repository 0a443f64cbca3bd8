package board

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/fit/trace"
)

var update = flag.Bool("update", false, "rewrite the golden board")

// sampleTrace: a triangle loop (n(n-1)/2 iterations), a linear demand and a quantity that never
// varies, at nine sizes.
func sampleTrace(t *testing.T) (trace.Header, []trace.Record) {
	var buf bytes.Buffer
	h := trace.Header{Function: "example.com/p.F", Params: []string{"n"}, Quantities: []string{"loop@p.go:5", "time_ns", "setup"}}
	w, err := trace.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []float64{4, 8, 16, 32, 64, 128, 256, 512, 1024} {
		for rep := 0; rep < 2; rep++ {
			w.Write(trace.Record{P: []float64{n}, Q: []float64{n * (n - 1) / 2, 40 + 3*n, 7}})
		}
	}
	w.Flush()
	r, err := trace.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return r.Header, recs
}

func TestBoard(t *testing.T) {
	h, recs := sampleTrace(t)
	samples := Samples(h, recs)
	st := New(h, len(recs))
	Run(st, samples, nil, 10)
	if !st.Done || st.Round != 3 {
		t.Errorf("stopped at round %d (done %v): the third round improves nothing", st.Round, st.Done)
	}
	res := st.Result(samples)
	want := map[string]string{"loop@p.go:5": "n + n^2 + c", "time_ns": "n + c", "setup": "c"}
	for _, l := range res.Laws {
		if got := l.Law.Form(); got != want[l.Quantity] {
			t.Errorf("%s: %s (%s), want %s", l.Quantity, got, l.Text, want[l.Quantity])
		}
		if l.Quantity == "loop@p.go:5" && (l.Baselines["mean"] < 0.5 || l.Baselines["linear"] < 0.05 || l.CVError > 1e-9) {
			t.Errorf("baselines %v vs law %v: the mean and a line cannot fit a triangle", l.Baselines, l.CVError)
		}
		if r := l.Range["n"]; r != [2]float64{4, 1024} {
			t.Errorf("%s: range %v", l.Quantity, r)
		}
	}

	// Resuming a saved board after round 1 ends where the uninterrupted run did.
	part := New(h, len(recs))
	Run(part, samples, nil, 1)
	data, _ := json.Marshal(part)
	var resumed State
	if err := json.Unmarshal(data, &resumed); err != nil {
		t.Fatal(err)
	}
	Run(&resumed, samples, nil, 10)
	a, _ := json.Marshal(st)
	b, _ := json.Marshal(&resumed)
	if !bytes.Equal(a, b) {
		t.Error("a resumed board differs from the uninterrupted one")
	}

	// Golden: the serialised board is deterministic.
	got, _ := json.MarshalIndent(st, "", "  ")
	got = append(got, '\n')
	if *update {
		os.WriteFile("testdata/board.golden.json", got, 0o644)
	}
	golden, err := os.ReadFile("testdata/board.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, golden) {
		t.Errorf("the board differs from testdata/board.golden.json (go test -update to accept):\n%s", firstDiff(string(golden), string(got)))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "lengths differ"
}

// Too few sizes: the law is not invented; the error says how many sizes are needed.
func TestTooFew(t *testing.T) {
	h := trace.Header{Function: "p.F", Params: []string{"n"}, Quantities: []string{"q"}}
	var recs []trace.Record
	for _, n := range []float64{1, 2, 3} {
		recs = append(recs, trace.Record{P: []float64{n}, Q: []float64{n * n}})
	}
	samples := Samples(h, recs)
	st := New(h, len(recs))
	Run(st, samples, []Analyser{PMNF{Max: 2}}, 5)
	res := st.Result(samples)
	if len(res.Laws) != 1 || !strings.Contains(res.Laws[0].Error, "at least 5") {
		t.Errorf("%+v", res.Laws)
	}
}

// Err: a result fails only when no quantity could be fitted.
func TestResultErr(t *testing.T) {
	if (Result{}).Err() == nil {
		t.Error("no laws: no error")
	}
	failed := Law{Quantity: "a", Error: "too few samples"}
	if (Result{Laws: []Law{failed}}).Err() == nil {
		t.Error("every law failed: no error")
	}
	if err := (Result{Laws: []Law{failed, {Quantity: "b"}}}).Err(); err != nil {
		t.Errorf("one law stands: %v", err)
	}
}
