package study

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/sources"
)

// A string option that steers a decision has no values augur can choose: measuring it must
// ask for them, as computing its configurations does, before anything is built or run (it
// once measured one configuration and then failed to find the option's other value).
func TestMeasureAsksForValues(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module strval\n\ngo 1.26\n",
		"main.go": `package main

import (
	"fmt"
	"os"
)

func main() {
	n := 10
	if os.Getenv("APP_BIG") == "1" {
		n = 1000
	}
	fmt.Println(n)
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, before, after, err := Regions(Request{Dir: dir, Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	_, spaceErr := NewSpace(res)
	_, err = Measure(context.Background(), dir, res, before, after, MeasureOptions{Target: Target{Pkg: "."}})
	for _, e := range []error{spaceErr, err} {
		var de *sources.DeclError
		if !errors.As(e, &de) || !strings.Contains(e.Error(), "--values") || !strings.Contains(e.Error(), "APP_BIG (string, "+filepath.Join(dir, "main.go")+":10:") {
			t.Errorf("got %v, want a declaration error asking for APP_BIG's values at main.go:10", e)
		}
	}
}
