package compress

import (
	"math/rand/v2"
	"testing"
	"time"
)

// triangle is the example: {A,B}, {A,C}, {B,C} over A, B, C.
var triangle = [][]int{{0, 1}, {0, 2}, {1, 2}}

// running is ConfigCrusher's running example over A..J (J, index 9, in no set).
var running = [][]int{{0}, {0, 1}, {0, 2}, {3, 4, 5}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}}

var runningNames = []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}

func TestTriangle(t *testing.T) {
	pm, err := PivotMerge(triangle, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pm) != 6 {
		t.Errorf("PivotMerge gives %d configurations, want 6: %v", len(pm), pm)
	}
	mustCover(t, pm, triangle, 3, Options{})
	min, optimal, err := Minimal(triangle, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(min) != 4 || !optimal {
		t.Errorf("Minimal gives %d configurations (optimal %v), want 4 proven", len(min), optimal)
	}
	mustCover(t, min, triangle, 3, Options{})
	r, err := Compress(triangle, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Configs) != 4 || r.Method != "exact" || !r.Optimal || r.LowerBound != 4 {
		t.Errorf("Compress = %+v", r)
	}
	r, err = Compress(triangle, 3, Options{Method: "pivot"})
	if err != nil || len(r.Configs) != 6 || r.Method != "pivot" || r.Optimal {
		t.Errorf("Compress pivot = %+v, %v", r, err)
	}
	if _, err := Compress(triangle, 3, Options{Method: "magic"}); err == nil {
		t.Error("unknown method accepted")
	}
}

func TestRunningExample(t *testing.T) {
	opts := Options{Names: runningNames}
	lb, err := LowerBound(running, 10, opts)
	if err != nil || lb != 8 {
		t.Fatalf("LowerBound = %d, %v; want 8", lb, err)
	}
	g, err := Greedy(running, 10, opts)
	if err != nil {
		t.Fatal(err)
	}
	mustCover(t, g, running, 10, opts)
	if len(g) != 8 {
		t.Errorf("Greedy gives %d configurations, want 8", len(g))
	}
	m, optimal, err := Minimal(running, 10, opts)
	if err != nil {
		t.Fatal(err)
	}
	mustCover(t, m, running, 10, opts)
	if len(m) != 8 || !optimal {
		t.Errorf("Minimal gives %d (optimal %v), want 8", len(m), optimal)
	}
	pm, err := PivotMerge(running, 10, opts)
	if err != nil {
		t.Fatal(err)
	}
	mustCover(t, pm, running, 10, opts)
	if len(pm) != 8 {
		t.Errorf("PivotMerge gives %d, want 8", len(pm))
	}
	for _, c := range append(append(g, m...), pm...) {
		if c.Bool(9) {
			t.Errorf("J is in no set but is on in %s", c.Format(runningNames, nil))
		}
	}
}

func mustCover(t *testing.T, cfgs []Config, sets [][]int, n int, opts Options) {
	t.Helper()
	if err := Verify(cfgs, sets, n, opts); err != nil {
		t.Fatal(err)
	}
	if err := bruteCover(cfgs, sets, n, opts.Domains); err != "" {
		t.Fatal(err)
	}
}

// bruteCover checks the covering property independently of the package's own indexing: every
// assignment of every set, enumerated by counting, must match some configuration.
func bruteCover(cfgs []Config, sets [][]int, n int, domains []int) string {
	for _, s := range sets {
		vals := make([]int, len(s))
		for {
			found := false
			for _, c := range cfgs {
				ok := true
				for j, o := range s {
					if c[o] != vals[j] {
						ok = false
						break
					}
				}
				if ok {
					found = true
					break
				}
			}
			if !found {
				return "assignment not covered"
			}
			j := 0
			for ; j < len(s); j++ {
				vals[j]++
				if vals[j] < domainOf(domains, s[j]) {
					break
				}
				vals[j] = 0
			}
			if j == len(s) {
				break
			}
		}
	}
	return ""
}

func randomInstance(rng *rand.Rand, n, nsets, maxSize int, mixed bool) ([][]int, []int) {
	var domains []int
	if mixed {
		domains = make([]int, n)
		for o := range domains {
			domains[o] = 2 + rng.IntN(2)
		}
	}
	sets := make([][]int, nsets)
	for i := range sets {
		size := 1 + rng.IntN(maxSize)
		perm := rng.Perm(n)
		sets[i] = perm[:min(size, n)]
	}
	return sets, domains
}

func TestCoveringRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		n := 1 + rng.IntN(12)
		sets, domains := randomInstance(rng, n, rng.IntN(8), 4, iter%3 == 0)
		opts := Options{Domains: domains, Seed: uint64(iter), NodeBudget: 20000, TimeBudget: 200 * time.Millisecond}
		lb, err := LowerBound(sets, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		pm, err := PivotMerge(sets, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		mustCover(t, pm, sets, n, opts)
		g, err := Greedy(sets, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		mustCover(t, g, sets, n, opts)
		m, optimal, err := Minimal(sets, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		mustCover(t, m, sets, n, opts)
		r, err := Compress(sets, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		mustCover(t, r.Configs, sets, n, opts)
		for name, got := range map[string]int{"pivot": len(pm), "greedy": len(g), "minimal": len(m), "compress": len(r.Configs)} {
			if got < lb {
				t.Fatalf("%s: %d configurations below the lower bound %d for %v", name, got, lb, sets)
			}
		}
		if optimal && (len(m) > len(g) || len(m) > len(pm)) {
			t.Fatalf("Minimal %d claims optimal but greedy %d / pivot %d are smaller for %v", len(m), len(g), len(pm), sets)
		}
		if r.LowerBound != lb {
			t.Fatalf("Result.LowerBound %d, want %d", r.LowerBound, lb)
		}
	}
}

// TestMinimalAgainstExhaustive compares Minimal with trying every subset of the whole
// configuration space, smallest first, on instances small enough for that.
func TestMinimalAgainstExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 120; iter++ {
		n := 2 + rng.IntN(3)
		mixed := iter%4 == 0
		if mixed {
			n = 2 + rng.IntN(2)
		}
		sets, domains := randomInstance(rng, n, 1+rng.IntN(5), 3, mixed)
		space := 1
		for o := 0; o < n; o++ {
			space *= domainOf(domains, o)
		}
		if space > 16 {
			// Exhaustive search over more than 2^16 subsets would dominate the test time.
			domains[0] = 2
		}
		opts := Options{Domains: domains}
		m, optimal, err := Minimal(sets, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !optimal {
			t.Fatalf("tiny instance %v not solved within budget", sets)
		}
		mustCover(t, m, sets, n, opts)
		want := exhaustiveMin(sets, n, domains)
		if len(m) != want {
			t.Fatalf("Minimal(%v, domains %v) = %d configurations, exhaustive minimum %d", sets, domains, len(m), want)
		}
	}
}

func exhaustiveMin(sets [][]int, n int, domains []int) int {
	var space []Config
	c := make(Config, n)
	for {
		space = append(space, append(Config(nil), c...))
		o := 0
		for ; o < n; o++ {
			c[o]++
			if c[o] < domainOf(domains, o) {
				break
			}
			c[o] = 0
		}
		if o == n {
			break
		}
	}
	for k := 1; k <= len(space); k++ {
		pick := make([]int, k)
		for x := range pick {
			pick[x] = x
		}
		for {
			chosen := make([]Config, k)
			for x, y := range pick {
				chosen[x] = space[y]
			}
			if bruteCover(chosen, sets, n, domains) == "" {
				return k
			}
			x := k - 1
			for x >= 0 && pick[x] == len(space)-k+x {
				x--
			}
			if x < 0 {
				break
			}
			pick[x]++
			for y := x + 1; y < k; y++ {
				pick[y] = pick[y-1] + 1
			}
		}
	}
	return len(space)
}

func TestEmptyAndDegenerate(t *testing.T) {
	for _, sets := range [][][]int{nil, {{}}, {{}, {}}} {
		r, err := Compress(sets, 3, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Configs) != 1 || r.LowerBound != 1 || !r.Optimal {
			t.Errorf("Compress(%v) = %+v, want the default configuration alone", sets, r)
		}
	}
	// Duplicate members and sets are normalised away.
	r, err := Compress([][]int{{1, 0, 1}, {0, 1}}, 2, Options{})
	if err != nil || len(r.Configs) != 4 {
		t.Errorf("duplicates: %+v, %v", r, err)
	}
	if _, err := Compress([][]int{{0, 5}}, 3, Options{}); err == nil {
		t.Error("out-of-range option accepted")
	}
	if _, err := Compress([][]int{{0, -1}}, 3, Options{}); err == nil {
		t.Error("negative option accepted")
	}
	big := make([]int, 17)
	for o := range big {
		big[o] = o
	}
	if _, err := Compress([][]int{big}, 17, Options{}); err == nil {
		t.Error("2^17 assignments accepted")
	}
	if err := Verify([]Config{{0, 0}}, [][]int{{0}}, 2, Options{Names: []string{"A", "B"}}); err == nil || err.Error() != "compress: no configuration covers {A=true}" {
		t.Errorf("Verify error = %v", err)
	}
}

func TestGreedyLarge(t *testing.T) {
	// A larger instance: the greedy must stay valid and fast, and Compress must choose it.
	rng := rand.New(rand.NewPCG(5, 6))
	sets, _ := randomInstance(rng, 60, 150, 5, false)
	start := time.Now()
	r, err := Compress(sets, 60, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustCover(t, r.Configs, sets, 60, Options{})
	if r.Method != "greedy" {
		t.Errorf("method %q", r.Method)
	}
	t.Logf("%d sets over 60 options: %d configurations, lower bound %d, %v", len(sets), len(r.Configs), r.LowerBound, time.Since(start))
	// Pairwise over 12 boolean options: the known optimum is 6 (Kleitman–Spencer).
	var pairs [][]int
	for i := 0; i < 12; i++ {
		for j := i + 1; j < 12; j++ {
			pairs = append(pairs, []int{i, j})
		}
	}
	g, err := Greedy(pairs, 12, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustCover(t, g, pairs, 12, Options{})
	if len(g) > 10 {
		t.Errorf("pairwise over 12 options: greedy needs %d configurations", len(g))
	}
	t.Logf("pairwise over 12 options: %d configurations", len(g))
}

func TestGreedyDeterministic(t *testing.T) {
	a, _ := Greedy(running, 10, Options{Seed: 7})
	b, _ := Greedy(running, 10, Options{Seed: 7})
	if len(a) != len(b) {
		t.Fatal("different sizes for equal seeds")
	}
	for k := range a {
		for o := range a[k] {
			if a[k][o] != b[k][o] {
				t.Fatal("different configurations for equal seeds")
			}
		}
	}
}

// FuzzCompress feeds arbitrary set lists through validation and every algorithm: each must
// either reject the input or return a valid covering no smaller than the lower bound.
func FuzzCompress(f *testing.F) {
	f.Add([]byte{3, 0, 1, 255, 0, 2, 255, 1, 2}, uint8(3))
	f.Add([]byte{0, 0, 0}, uint8(1))
	f.Add([]byte{9, 200, 4}, uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, nb uint8) {
		n := int(nb % 10)
		var sets [][]int
		cur := []int{}
		for _, b := range data {
			if b == 255 {
				sets = append(sets, cur)
				cur = []int{}
				continue
			}
			cur = append(cur, int(b)-1)
		}
		sets = append(sets, cur)
		if len(sets) > 12 {
			sets = sets[:12]
		}
		opts := Options{NodeBudget: 5000, TimeBudget: 50 * time.Millisecond}
		r, err := Compress(sets, n, opts)
		if err != nil {
			return
		}
		if err := Verify(r.Configs, sets, n, opts); err != nil {
			t.Fatal(err)
		}
		if len(r.Configs) < r.LowerBound {
			t.Fatalf("%d configurations below lower bound %d", len(r.Configs), r.LowerBound)
		}
		pm, err := PivotMerge(sets, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(pm, sets, n, opts); err != nil {
			t.Fatal(err)
		}
	})
}

func TestExactBudgetFallsBack(t *testing.T) {
	var pairs [][]int
	for i := 0; i < 8; i++ {
		for j := i + 1; j < 8; j++ {
			pairs = append(pairs, []int{i, j})
		}
	}
	r, err := Compress(pairs, 8, Options{NodeBudget: 10})
	if err != nil {
		t.Fatal(err)
	}
	mustCover(t, r.Configs, pairs, 8, Options{})
	if r.Method != "greedy" || r.Optimal {
		t.Errorf("budget of 10 nodes still claims %q optimal=%v with %d configurations", r.Method, r.Optimal, len(r.Configs))
	}
	// With the default budget the search proves the optimum for pairs over 8 options: 6.
	r, err = Compress(pairs, 8, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pairwise over 8 options: %d configurations, method %s, optimal %v", len(r.Configs), r.Method, r.Optimal)
	if r.Optimal && len(r.Configs) != 6 {
		t.Errorf("claims %d optimal; the known minimum is 6", len(r.Configs))
	}
}

// Format names values, not their indices: a numeric option of two values is not a boolean.
func TestFormatValues(t *testing.T) {
	names := []string{"crc", "level", "window", "n"}
	values := [][]string{{"false", "true"}, {"1", "2", "3", "4"}, {"256", "8192"}, nil}
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{0, 0, 0, 0}, "{}"},
		{Config{1, 1, 0, 0}, "{crc,level=2}"},
		{Config{0, 3, 1, 1}, "{level=4,window=8192,n}"},
		{Config{0, 0, 0, 2}, "{n=2}"},
	} {
		if got := tc.c.Format(names, values); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.c, got, tc.want)
		}
	}
}
