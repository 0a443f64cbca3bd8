package runner

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/timing"
)

// TestInvocation: each option is set as its Setter says — flags before the fixed arguments,
// environment variables, keys of a configuration file written from a template — options without
// values are left alone, and an option nothing says how to set is refused with its position.
func TestInvocation(t *testing.T) {
	set := &sources.Set{Options: []*sources.Option{
		{Name: "A", Type: "bool", Values: []string{"false", "true"}, Sites: []sources.Site{{Callee: "flag.Bool", Set: sources.Setter{Flag: "-A"}}}},
		{Name: "MODE", Type: "string", Values: []string{"slow", "fast"}, Sites: []sources.Site{{Callee: "os.Getenv", Set: sources.Setter{Env: "MODE"}}}},
		{Name: "unit", Type: "time.Duration", Sites: []sources.Site{{Callee: "flag.Duration", Set: sources.Setter{Flag: "-unit"}}}},
		{Name: "level", Type: "int", Values: []string{"1", "9"}, Sites: []sources.Site{{Callee: "(*pflag.FlagSet).Int", Set: sources.Setter{Flag: "--level"}}}},
		{Name: "db.pool", Type: "int", Values: []string{"4", "16"}, Sites: []sources.Site{{Set: sources.Setter{Key: "db.pool"}}}},
	}}
	setup := Setup{Options: set, Args: []string{"-unit", "1ms", "-config", "CONFIG"}, ConfigTemplate: "db:\n  pool: {{db.pool}}\n  other: {{x}}\n", ConfigName: "app.yaml"}
	in, err := invocation(setup, compress.Config{1, 1, 0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(in.args, " ") != "-A=true --level=1 -unit 1ms -config CONFIG" || strings.Join(in.env, " ") != "MODE=fast" ||
		in.config != "db:\n  pool: 16\n  other: {{x}}\n" {
		t.Errorf("args %q env %q config %q", in.args, in.env, in.config)
	}
	if _, err := invocation(setup, compress.Config{0, 0, 1}); err == nil {
		t.Error("a value index for an option without values was accepted")
	}
	setup.ConfigTemplate = ""
	if _, err := invocation(setup, compress.Config{}); err == nil || !strings.Contains(err.Error(), `configuration file key "db.pool"`) {
		t.Errorf("a file key without a template: %v", err)
	}
	set.Options[0].Sites[0] = sources.Site{Callee: "example.com/cfg.Load"}
	if _, err := invocation(Setup{Options: set}, compress.Config{1}); err == nil || !strings.Contains(err.Error(), "@env:NAME") {
		t.Errorf("an option the runner cannot set: %v", err)
	}
}

func TestMedianSE(t *testing.T) {
	if got := MedianSE([]float64{3}); got != 0 {
		t.Errorf("one value: %v, want 0", got)
	}
	// Sample deviation of {1, 2, 3} is 1: √(π/2)/√3.
	want := math.Sqrt(math.Pi/2) / math.Sqrt(3)
	if got := MedianSE([]float64{1, 3, 2}); math.Abs(got-want) > 1e-15 {
		t.Errorf("MedianSE = %v, want %v", got, want)
	}
}

// Option kinds: three or more numbers are numeric unless declared categorical, three or more
// values that are not all numbers are categorical, two values are two levels unless declared
// categorical; every kind is passed to the program by its value.
func TestCategoricalKinds(t *testing.T) {
	flagSite := func(name string) []sources.Site {
		return []sources.Site{{Callee: "flag.String", Set: sources.Setter{Flag: "-" + name}}}
	}
	set := &sources.Set{Options: []*sources.Option{
		{Name: "crc", Type: "bool", Values: []string{"false", "true"}, Sites: flagSite("crc")},
		{Name: "level", Type: "int", Values: []string{"1", "2", "3", "4"}, Categorical: true, Sites: flagSite("level")},
		{Name: "mode", Type: "string", Values: []string{"fast", "mid", "best"}, Sites: flagSite("mode")},
		{Name: "size", Type: "int", Values: []string{"64", "256", "1024"}, Sites: flagSite("size")},
		{Name: "two", Type: "string", Values: []string{"a", "b"}, Sites: flagSite("two")},
		{Name: "twocat", Type: "string", Values: []string{"a", "b"}, Categorical: true, Sites: flagSite("twocat")},
	}}
	num, cat := Kinds(set)
	if fmt.Sprint(num) != "map[size:[64 256 1024]]" || fmt.Sprint(cat) != "map[level:[1 2 3 4] mode:[fast mid best] twocat:[a b]]" {
		t.Errorf("numeric %v, categorical %v", num, cat)
	}
	in, err := invocation(Setup{Options: set}, compress.Config{1, 2, 2, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(in.args, " "); got != "-crc=true -level=3 -mode=best -size=256 -two=b -twocat=b" {
		t.Errorf("args %s", got)
	}
	// The measurements carry the categorical values; the model codes them against the first.
	r := &Result{Options: set.Names(), Numeric: num, Categorical: cat}
	for _, lv := range []int{0, 1, 2, 3} {
		for _, crc := range []int{0, 1} {
			ns := int64(1e6 * (1 + 10*lv + crc))
			r.Configs = append(r.Configs, ConfigResult{Config: compress.Config{crc, lv, 0, 0, 0, 0}, Runs: []RunRecord{
				{WallNs: ns + 1e6, Times: &timing.Times{Regions: []timing.RegionTime{{ID: 0}, {ID: 1, WallNs: ns}}}}}})
		}
	}
	regs := []regions.Region{{ID: 1, Options: []string{"crc", "level"}}}
	runs := Measurements(r, regs, Wall)
	if m := runs[1].Runs[2]; m.Cat["level"] != "2" || m.Config["crc"] || m.Config["level"] {
		t.Errorf("measurement %+v", m)
	}
	model, _, err := Model(r, regs, Wall)
	if err != nil {
		t.Fatal(err)
	}
	if got := model.Format(influence.FormatOptions{Precision: 3}); got != "T = 0.002 + 0.001·crc + 0.010·[level=2] + 0.020·[level=3] + 0.030·[level=4]" {
		t.Errorf("model %s", got)
	}
}
