package study

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/baselines"
	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/runner"
)

// TestZstdModelsOnSameRuns compares model files of examples/zstd (measured with the level numeric
// or categorical) on the same fresh runs of the plain program, as docs/options-zstd.md does:
// each of the 64 configurations runs three times (median), against each model's wall-time
// prediction and its CPU time summed over goroutines against the process's user and system
// time. Opt-in: AUGUR_ZSTD_MODELS="znum.json zcat.json" go test ./options/study -run
// TestZstdModelsOnSameRuns -v.
func TestZstdModelsOnSameRuns(t *testing.T) {
	paths := strings.Fields(os.Getenv("AUGUR_ZSTD_MODELS"))
	if len(paths) == 0 {
		t.Skip("AUGUR_ZSTD_MODELS names no model files")
	}
	var models []*ModelFile
	for _, p := range paths {
		mf, err := ReadModel(p)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, mf)
	}
	decls, err := ParseDecls(nil, nil, []string{"level=1,2,3,4", "concurrency=1,2", "window=256,8192"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Analyse(Request{Dir: "../..", Patterns: []string{"./examples/zstd"}, Deps: true, Decls: decls})
	if err != nil {
		t.Fatal(err)
	}
	names := res.Options.Names()
	space := baselines.Space{Names: names, Values: map[string][]float64{}}
	for _, o := range res.Options.Options {
		if xs, ok := runner.NumericOption(o); ok {
			space.Values[o.Name] = xs
		}
	}
	var cfgs []compress.Config
	for k := uint64(0); k < space.Size(); k++ {
		cfgs = append(cfgs, compress.Config(space.Nth(k)))
	}
	setup := runner.Setup{Dir: "../..", Build: []string{"go", "build", "-o", "BIN", "./examples/zstd"}, Options: res.Options}
	rr, err := runner.Run(context.Background(), setup, cfgs, runner.Options{Reps: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for m, mf := range models {
		var wall, cpu float64
		for i, c := range cfgs {
			on, num := map[string]bool{}, map[string]float64{}
			for o, v := range c {
				switch name := names[o]; {
				case mf.IsNumeric(name):
					num[name] = space.Values[name][v]
				case mf.IsCategorical(name):
					on[name+"="+res.Options.Options[o].Values[v]] = true
				case v != 0:
					on[name] = true
				}
			}
			p, err := mf.PredictAt(on, num)
			if err != nil {
				t.Fatal(err)
			}
			var w, u []float64
			for _, r := range rr.Configs[i].Runs {
				w, u = append(w, float64(r.WallNs)/1e9), append(u, float64(r.CPUNs)/1e9)
			}
			mw, mc := runner.Median(w), runner.Median(u)
			wall += math.Abs(p.Seconds-mw) / mw / float64(len(cfgs))
			if p.CPUSeconds != nil {
				cpu += math.Abs(*p.CPUSeconds-mc) / mc / float64(len(cfgs))
			}
		}
		t.Logf("%s: wall MAPE %.1f%%, CPU MAPE %.1f%%", paths[m], 100*wall, 100*cpu)
	}
}
