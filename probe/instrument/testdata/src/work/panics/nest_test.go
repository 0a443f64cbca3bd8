package panics

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// panicLine runs f, which must panic, and returns the line of fn's frame in the panicking
// stack.
func panicLine(t *testing.T, fn string, f func()) (line int) {
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", fn)
		}
		pcs := make([]uintptr, 64)
		frames := runtime.CallersFrames(pcs[:runtime.Callers(0, pcs)])
		for {
			fr, more := frames.Next()
			if strings.HasSuffix(fr.Function, "."+fn) {
				line = fr.Line
			}
			if !more {
				break
			}
		}
	}()
	f()
	return 0
}

// TestNest runs every function of nest.go and nest_odd.go into its panic at outer iteration K and checks that
// the panic comes from the marked line.
func TestNest(t *testing.T) {
	_, self, _, _ := runtime.Caller(0) // the test binary may run elsewhere
	marked := map[string]int{}
	for _, file := range []string{"nest.go", "nest_odd.go"} {
		src, err := os.ReadFile(filepath.Join(filepath.Dir(self), file))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(src), "\n") {
			if _, name, ok := strings.Cut(l, "// panics: "); ok {
				marked[name] = i + 1
			}
		}
	}
	ints := func(n int) []int {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		return xs
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"NestIndex", func() { NestIndex(ints(2*K), K) }},
		{"NestSecond", func() { NestSecond(ints(20), ints(2*K+1), K) }},
		{"NestCond", func() { NestCond(ints(K), K) }},
		{"NestContinue", func() { NestContinue(ints(K), K) }},
		{"NestIf", func() { NestIf(ints(2*K), K) }},
		{"NestDefine", func() { NestDefine(ints(2*K), K) }},
		{"OddBrace", func() { OddBrace(ints(2*K), K) }},
		{"OddColon", func() { OddColon(ints(2*K), K) }},
		{"OddLabel", func() { OddLabel(ints(2*K), K) }},
		{"OddOuter", func() { OddOuter(ints(2), K) }},
		{"OddLines", func() { OddLines(ints(K), K) }},
		{"OddFor", func() { OddFor(ints(2*K), K) }},
	} {
		if got := panicLine(t, c.name, c.f); got != marked[c.name] {
			t.Errorf("%s panicked at line %d, want %d", c.name, got, marked[c.name])
		}
	}
}
