package figures

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/timing"
)

var (
	update = flag.Bool("figures.update", false, "rerun the benchmarks behind every figures block and rewrite the tables")
	only   = flag.String("figures.only", "", "with -figures.update, rerun only the blocks whose benchmark pattern this regexp matches")
)

// block is one figures block of a document.
type block struct {
	file       string
	line       int // 1-based line of the opening comment
	start, end int // indices of the opening and closing comment lines
	pkg        string
	pattern    string
	flags      []string
}

var open = regexp.MustCompile(`^<!-- figures: (\S+) (\S+)((?: \S+)*) -->$`)

func blocks(t *testing.T, file string, lines []string) []block {
	var bs []block
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "<!-- figures:") {
			continue
		}
		m := open.FindStringSubmatch(lines[i])
		if m == nil {
			t.Errorf("%s:%d: want <!-- figures: PACKAGE REGEXP [flags] -->", file, i+1)
			continue
		}
		b := block{file: file, line: i + 1, start: i, pkg: m[1], pattern: m[2], flags: strings.Fields(m[3])}
		for j := i + 1; j < len(lines); j++ {
			if lines[j] == "<!-- /figures -->" {
				b.end = j
				break
			}
			if strings.HasPrefix(lines[j], "<!-- figures:") {
				break
			}
		}
		if b.end == 0 {
			t.Errorf("%s:%d: figures block without <!-- /figures -->", file, i+1)
			continue
		}
		bs = append(bs, b)
		i = b.end
	}
	return bs
}

func TestFigures(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var keep *regexp.Regexp
	if *only != "" {
		if keep, err = regexp.Compile(*only); err != nil {
			t.Fatalf("-figures.only: %v", err)
		}
	}
	total := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		bs := blocks(t, file, lines)
		total += len(bs)
		changed := false
		// Rewrite from the last block up, so earlier indices stay valid.
		for k := len(bs) - 1; k >= 0; k-- {
			b := bs[k]
			pos := fmt.Sprintf("%s:%d", filepath.Base(b.file), b.line)
			if !*update || keep != nil && !keep.MatchString(b.pattern) {
				checkExists(t, root, b, pos)
				continue
			}
			table, err := measure(root, b)
			if err != nil {
				t.Errorf("%s: %v", pos, err)
				continue
			}
			lines = append(lines[:b.start+1], append(table, lines[b.end:]...)...)
			changed = true
		}
		if changed {
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if total == 0 {
		t.Error("no figures blocks found: the README's measured figures must come from one")
	}
}

// checkExists lists the benchmarks the block names without running them.
func checkExists(t *testing.T, root string, b block, pos string) {
	top, _, _ := strings.Cut(b.pattern, "/")
	out, err := goCmd(root, "test", b.pkg, "-list", top).CombinedOutput()
	if err != nil {
		t.Errorf("%s: go test %s -list %s: %v\n%s", pos, b.pkg, top, err, out)
		return
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			return
		}
	}
	t.Errorf("%s: %s has no benchmark matching %q: the figures below it are stale", pos, b.pkg, top)
}

func goCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	return cmd
}

// result is one benchmark's runs.
type result struct {
	name    string
	metrics map[string][]float64 // unit → one value per run
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func measure(root string, b block) ([]string, error) {
	args := append([]string{"test", b.pkg, "-run", "^$", "-bench", b.pattern}, b.flags...)
	cmd := goCmd(root, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var results []*result
	byName := map[string]*result{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := byName[m[1]]
		if r == nil {
			r = &result{name: m[1], metrics: map[string][]float64{}}
			byName[m[1]] = r
			results = append(results, r)
		}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			r.metrics[f[i+1]] = append(r.metrics[f[i+1]], v)
		}
	}
	if len(results) == 0 {
		return nil, fmt.Errorf("go %s printed no benchmark results", strings.Join(args, " "))
	}
	return render(b, results), nil
}

// render writes the results as a Markdown table: one row per benchmark, time per operation and
// every other metric as the range over the runs.
func render(b block, results []*result) []string {
	units := map[string]bool{}
	for _, r := range results {
		for u := range r.metrics {
			if u != "ns/op" {
				units[u] = true
			}
		}
	}
	var extra []string
	for u := range units {
		extra = append(extra, u)
	}
	sort.Strings(extra)
	runs := len(results[0].metrics["ns/op"])
	gen := fmt.Sprintf("<!-- generated by go test ./internal/figures -run Figures -figures.update from go test %s -run ^$ -bench %s %s -->", b.pkg, b.pattern, strings.Join(b.flags, " "))
	if len(results) == 1 && len(extra) > 3 {
		// One benchmark reporting many metrics (one per kernel, say) reads better down the page.
		r := results[0]
		lines := []string{gen, "", fmt.Sprintf("| `%s` (%d run%s) | |", strings.TrimPrefix(r.name, "Benchmark"), runs, plural(runs)), "|---|---|"}
		for _, u := range extra {
			lines = append(lines, fmt.Sprintf("| %s | %s |", u, span(r.metrics[u], metricFormat(u))))
		}
		return append(lines, "")
	}
	head := []string{"benchmark", fmt.Sprintf("time per op (%d run%s)", runs, plural(runs))}
	head = append(head, extra...)
	lines := []string{
		gen,
		"",
		"| " + strings.Join(head, " | ") + " |",
		"|" + strings.Repeat("---|", len(head)),
	}
	for _, r := range results {
		row := []string{"`" + strings.TrimPrefix(r.name, "Benchmark") + "`", span(r.metrics["ns/op"], timing.FormatNS)}
		for _, u := range extra {
			row = append(row, span(r.metrics[u], metricFormat(u)))
		}
		lines = append(lines, "| "+strings.Join(row, " | ")+" |")
	}
	return append(lines, "")
}

func metricFormat(unit string) func(float64) string {
	if unit == "B/op" {
		return bytes
	}
	return plain
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// span is "v" for one value or equal values, "lo–hi" otherwise.
func span(xs []float64, f func(float64) string) string {
	if len(xs) == 0 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if f(lo) == f(hi) {
		return f(lo)
	}
	return f(lo) + "–" + f(hi)
}

func bytes(b float64) string {
	switch {
	case b >= 1e6:
		return strconv.FormatFloat(b/1e6, 'f', 1, 64) + " MB"
	case b >= 1e3:
		return strconv.FormatFloat(b/1e3, 'f', 1, 64) + " kB"
	}
	return strconv.FormatFloat(b, 'f', 0, 64) + " B"
}

// plain writes counts as integers and measurements to three significant digits.
func plain(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e12 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func TestSpan(t *testing.T) {
	if got := span([]float64{2.5e6, 1.2e6, 3e6}, timing.FormatNS); got != "1.2 ms–3 ms" {
		t.Errorf("span = %q", got)
	}
	if got := span([]float64{1e6, 1e6}, plain); got != "1000000" {
		t.Errorf("equal values: %q", got)
	}
	if got := bytes(2.75e8); got != "275.0 MB" {
		t.Errorf("bytes = %q", got)
	}
}
