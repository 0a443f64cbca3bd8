package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-perf/augur/report/text"
)

// bigFunc writes a module with one function of about n statements (assignments, branches and
// loops nested in groups of twenty) and a given usage profile that invokes it once, and returns
// the module's directory.
func bigFunc(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	var b, dec strings.Builder
	b.WriteString("package big\n\n// F is generated.\nfunc F(x int) int {\n\ts := 0\n")
	line := 6 // of the next statement
	for i := 0; i < n/20; i++ {
		fmt.Fprintf(&b, "\tif x%%%d == 0 {\n", i%7+2)
		fmt.Fprintf(&dec, `"big.go:%d": {"true": 500, "false": 500}, `, line)
		for j := 0; j < 8; j++ {
			fmt.Fprintf(&b, "\t\ts += %d\n", i*j+1)
		}
		b.WriteString("\t} else {\n\t\ts -= x\n\t}\n")
		line += 12
		fmt.Fprintf(&b, "\tfor k := 0; k < %d; k++ {\n", i%5+1)
		fmt.Fprintf(&dec, `"big.go:%d": {"true": %d, "false": 1000}, `, line, 1000*(i%5+1))
		for j := 0; j < 6; j++ {
			fmt.Fprintf(&b, "\t\ts ^= k + %d\n", j)
		}
		b.WriteString("\t}\n")
		line += 8
	}
	b.WriteString("\treturn s\n}\n")
	decisions := strings.TrimSuffix(dec.String(), ", ")
	files := map[string]string{
		"go.mod":     "module big\n\ngo 1.26\n",
		"big.go":     b.String(),
		"usage.json": `{"format": "augur-usage/1", "functions": {"big.F": {"invocations": 1000, "decisions": {` + decisions + `}}}}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkAnalyzeLarge times `augur analyze` of one function of 1k to 100k statements, from
// loading to the printed hot spots: the whole command must grow linearly.
func BenchmarkAnalyzeLarge(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := bigFunc(b, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				var errb strings.Builder
				code := run([]string{"analyze", "big.F", "--dir", dir, "--profile", filepath.Join(dir, "usage.json")}, io.Discard, &errb)
				if code != 0 {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
				b.ReportMetric(time.Since(t0).Seconds(), "s/analysis")
			}
		})
	}
}

// TestHotSpotsTruncated: the text output lists the top 20 statements and says how many more
// --all would list.
func TestHotSpotsTruncated(t *testing.T) {
	dir := bigFunc(t, 200)
	prof := filepath.Join(dir, "usage.json")
	code, out, errs := runCLI(t, "analyze", "big.F", "--dir", dir, "--profile", prof)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := strings.Count(out[strings.Index(out, "statement\n"):], "\n") - 2
	if rows != text.HotSpotRows || !strings.Contains(out, "more statements; --all lists them") {
		t.Errorf("%d rows:\n%s", rows, out)
	}
	code, all, _ := runCLI(t, "analyze", "big.F", "--dir", dir, "--profile", prof, "--all")
	if code != 0 || strings.Contains(all, "--all lists them") || strings.Count(all, "\n") < 200 {
		t.Errorf("--all: exit %d, %d lines", code, strings.Count(all, "\n"))
	}
}

// manyFuncs writes a module of n functions that loop, branch and call functions of lower index
// (and, every seventh, themselves), with a test that calls each once, and returns its directory.
func manyFuncs(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	var b, t strings.Builder
	b.WriteString("package many\n")
	t.WriteString("package many\n\nimport \"testing\"\n\nfunc TestAll(t *testing.T) {\n\ts := 0\n")
	for i := 0; i < n; i++ {
		callee := (i * 7) % max(i, 1)
		if i%7 == 0 {
			callee = i
		}
		fmt.Fprintf(&b, `
// F%[1]d is generated.
func F%[1]d(x int) int {
	if x <= 0 {
		return 1
	}
	s := x
	for i := 0; i < x%%4+1; i++ {
		if (s+i)%%3 == 0 {
			s += F%[2]d(x - 1)
		} else {
			s ^= i // @cost=2
		}
	}
	return s // @cost=1
}
`, i, callee)
		fmt.Fprintf(&t, "\ts += F%d(6)\n", i)
	}
	t.WriteString("\tif s == 0 {\n\t\tt.Fatal(s)\n\t}\n}\n")
	files := map[string]string{"go.mod": "module many\n\ngo 1.26\n", "many.go": b.String(), "many_test.go": t.String()}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkAnalyzePackages times `augur analyze ./...` of a module of 600 functions from a
// measured profile: loading, a model per function, composition over the call graph (with
// recursion) and the ranking (issue 14's goal: under 5 s for 500 functions).
func BenchmarkAnalyzePackages(b *testing.B) {
	dir := manyFuncs(b, 600)
	prof := filepath.Join(dir, "p.json")
	var errb strings.Builder
	if code := run([]string{"profile", "./...", "--dir", dir, "-o", prof, "--", "go", "test", "./..."}, io.Discard, &errb); code != 0 {
		b.Fatalf("profile: exit %d: %s", code, errb.String())
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		var out strings.Builder
		errb.Reset()
		if code := run([]string{"analyze", "./...", "--dir", dir, "--profile", prof}, &out, &errb); code != 0 {
			b.Fatalf("analyze: exit %d: %s", code, errb.String())
		}
		if !strings.Contains(out.String(), "many.F599") && i == 0 {
			b.Logf("%s", out.String())
		}
		b.ReportMetric(time.Since(t0).Seconds(), "s/analysis")
	}
}
