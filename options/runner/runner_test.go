package runner

import (
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/sources"
)

// TestInvocation: flag options become -name=value before the fixed
// arguments, environment options NAME=value, options without values are
// left alone, and other sources are refused with their position.
func TestInvocation(t *testing.T) {
	set := &sources.Set{Options: []*sources.Option{
		{Name: "A", Type: "bool", Values: []string{"false", "true"}, Sites: []sources.Site{{Callee: "flag.Bool"}}},
		{Name: "MODE", Type: "string", Values: []string{"slow", "fast"}, Sites: []sources.Site{{Callee: "os.Getenv"}}},
		{Name: "unit", Type: "time.Duration", Sites: []sources.Site{{Callee: "flag.Duration"}}},
	}}
	args, env, err := invocation(Setup{Options: set, Args: []string{"-unit", "1ms"}}, compress.Config{1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(args, " ") != "-A=true -unit 1ms" || strings.Join(env, " ") != "MODE=fast" {
		t.Errorf("args %q env %q", args, env)
	}
	if _, _, err := invocation(Setup{Options: set}, compress.Config{0, 0, 1}); err == nil {
		t.Error("a value index for an option without values was accepted")
	}
	set.Options[0].Sites[0].Callee = "example.com/cfg.Load"
	if _, _, err := invocation(Setup{Options: set}, compress.Config{1, 0, 0}); err == nil {
		t.Error("an option the runner cannot set was accepted")
	}
}
