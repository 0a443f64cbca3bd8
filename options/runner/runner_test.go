package runner

import (
	"math"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/sources"
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
