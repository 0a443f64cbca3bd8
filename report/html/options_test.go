package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/study"
)

// optionsModel is ConfigCrusher's running example, T = 1 + 2A + 4AB + 7AC, from two regions,
// with a numeric term.
func optionsModel() *study.ModelFile {
	return &study.ModelFile{
		Format: "augur-options-model/1", System: "example", Options: []string{"A", "B", "C", "size"},
		Model: influence.Model{Terms: []influence.Term{
			{Coef: 1},
			{Options: []string{"A"}, Coef: 2, Spread: 0.1, Sources: []influence.Source{{Region: "r1", Position: "main.go:12", Coef: 2}}},
			{Options: []string{"A", "B"}, Coef: 4, Sources: []influence.Source{{Region: "r2", Position: "main.go:20", Coef: 4}}},
			{Options: []string{"A", "C"}, Coef: 7},
			{Options: []string{"B"}, Coef: 0},
			{Options: []string{"C"}, Numeric: "size", Form: "log2(x)", Coef: -0.5},
		}},
		Locals: []influence.Local{
			{Region: influence.Region{Name: "r1", Position: "main.go:12", Options: []string{"A"}}, Terms: []influence.Term{{Coef: 0.5}, {Options: []string{"A"}, Coef: 2}}},
			{Region: influence.Region{Name: "r2", Position: "main.go:20", Options: []string{"A", "B"}}, Terms: []influence.Term{{Options: []string{"A", "B"}, Coef: 4}}},
		},
		Configs:   [][]string{{}, {"A"}, {"A", "B"}, {"A", "C"}},
		Measuring: 12.5,
	}
}

// TestOptionsPage: the page lists the model's non-zero terms, the constant first then by
// magnitude, with their sources and one bar each (negative ones to the left of zero), every
// region and every configuration measured.
func TestOptionsPage(t *testing.T) {
	r := BuildOptions(optionsModel())
	var labels []string
	for _, term := range r.Options.Terms {
		labels = append(labels, term.Label)
	}
	if got := strings.Join(labels, " "); got != "c A·C A·B A C·log2(size)" {
		t.Errorf("terms %q", got)
	}
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<h1 id="options-model">Performance-influence model of example</h1>`,
		`4 configurations in 12.5 s`,
		`data-term="A·B" data-coef="4"`,
		`<rect class="neg"`,
		`r1 (main.go:12)`,
		`<tr data-region="r2"><td class="prop">r2</td><td>main.go:20</td><td>A, B</td><td>4·A·B</td></tr>`,
		`<li>(every option off)</li>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(page, `<g class="term"`); n != 5 {
		t.Errorf("%d term bars, want 5", n)
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the page names a URL: it must be self-contained")
	}
	if !strings.Contains(page, "Terms (seconds of wall time)") || strings.Contains(page, `id="summed-terms"`) {
		t.Error("a single-goroutine model's page must name wall time and have no summed model")
	}
}

// TestOptionsPageSummed: a model of regions that ran on several goroutines shows the model of
// CPU time summed over goroutines beside the wall-time one, each named.
func TestOptionsPageSummed(t *testing.T) {
	mf := optionsModel()
	mf.Goroutines = 5
	mf.Summed = &study.SummedModel{Time: "CPU time summed over goroutines", Model: influence.Model{Terms: []influence.Term{
		{Coef: 0.01}, {Options: []string{"A"}, Coef: 0.048, Sources: []influence.Source{{Region: "r1", Position: "main.go:12", Coef: 0.048}}}}}}
	var b bytes.Buffer
	if err := Write(&b, BuildOptions(mf)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"Terms (seconds of wall time)",
		"up to 5 goroutines at once",
		`<h2>Terms (seconds of CPU time summed over goroutines)</h2>`,
		`<tr data-summed="A"><td class="prop">A</td><td class="n">0.048</td><td class="n"></td><td>r1 (main.go:12)</td></tr>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// TestOptionsPageCategorical: a categorical option's dummy terms are listed by their values, in
// the page's terms and in its regions' own terms.
func TestOptionsPageCategorical(t *testing.T) {
	mf := &study.ModelFile{Format: "augur-options-model/1", System: "zstd", Options: []string{"crc", "level"},
		Model: influence.Model{Terms: []influence.Term{
			{Coef: 0.03},
			{Levels: map[string]string{"level": "4"}, Coef: 0.17, Sources: []influence.Source{{Region: "R1", Position: "enc_best.go:79:2", Coef: 0.17}}},
			{Options: []string{"crc"}, Levels: map[string]string{"level": "3"}, Coef: 0.012},
		}, Levels: map[string][]string{"level": {"1", "2", "3", "4"}}},
		Locals: []influence.Local{{Region: influence.Region{Name: "R1", Position: "enc_best.go:79:2", Options: []string{"level"}},
			Terms: []influence.Term{{Coef: 0.03}, {Levels: map[string]string{"level": "4"}, Coef: 0.17}}}},
	}
	var b bytes.Buffer
	if err := Write(&b, BuildOptions(mf)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`data-term="[level=4]" data-coef="0.17"`, `data-term="crc·[level=3]"`, `0.17·[level=4]`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}
