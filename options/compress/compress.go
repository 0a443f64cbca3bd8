// Package compress owns configuration compression for white-box performance analysis, after
// ConfigCrusher (Velez et al., Automated Software Engineering 2020): given the sets of options
// that the taint analysis found to influence each code region, it chooses the configurations to
// measure so that, for every set S and every assignment of values to the options of S, some
// chosen configuration agrees with that assignment. Options in no set keep their default value
// (index 0, false for boolean options).
//
// It offers ConfigCrusher's pivot merging (PivotMerge), an exact minimum (Minimal), a density
// greedy for large inputs (Greedy) and Compress, which picks between the last two.
//
// It is pure computation: it must not analyse Go source, run programs or measure anything; the
// taint analysis, the instrumentation and the influence package own those steps.
package compress

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Config is a complete configuration: Config[o] is the index of option o's value in its domain.
// For boolean options 0 is false (the default) and 1 is true.
type Config []int

// Bool reports whether boolean option o is on.
func (c Config) Bool(o int) bool { return c[o] != 0 }

// Format writes the configuration with option names, listing the options not at their first
// value: a boolean option (values[o] empty, or false,true) by its name, any other as name=value
// with the value from values[o] (its index when values does not name it). The configuration of
// every first value is "{}".
func (c Config) Format(names []string, values [][]string) string {
	var parts []string
	for o, v := range c {
		if v == 0 {
			continue
		}
		name := fmt.Sprintf("o%d", o)
		if o < len(names) && names[o] != "" {
			name = names[o]
		}
		var vals []string
		if o < len(values) {
			vals = values[o]
		}
		switch {
		case len(vals) == 0 && v == 1, len(vals) == 2 && vals[0] == "false" && vals[1] == "true":
			parts = append(parts, name)
		case v < len(vals):
			parts = append(parts, name+"="+vals[v])
		default:
			parts = append(parts, fmt.Sprintf("%s=%d", name, v))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Options tunes the algorithms. The zero value is usable: boolean options, default budgets.
type Options struct {
	// Names optionally names the options, for error messages.
	Names []string
	// Domains optionally gives each option's number of values; 0 or a missing entry means 2
	// (boolean). Value 0 is the option's default.
	Domains []int
	// NodeBudget bounds the exact search's backtracking nodes (default 2,000,000).
	NodeBudget int
	// TimeBudget bounds the exact search's wall time (default 2s).
	TimeBudget time.Duration
	// ExactMaxPairs is the largest number of (set, assignment) pairs for which Compress tries
	// the exact search before settling for the greedy (default 512).
	ExactMaxPairs int
	// Candidates is how many candidate configurations Greedy builds per step (default 24).
	Candidates int
	// Seed makes Greedy's tie-breaking reproducible; equal seeds give equal results.
	Seed uint64
	// Method forces Compress's algorithm: "exact", "greedy" or "pivot"; "" chooses exact
	// search when the instance is small enough and the greedy otherwise.
	Method string
}

// MaxPairsPerSet caps the assignments of one set: beyond it nobody could measure the result,
// and enumerating it would only exhaust memory.
const MaxPairsPerSet = 1 << 16

// Result is Compress's answer.
type Result struct {
	Configs []Config `json:"configs"`
	// Method is "exact", "greedy" or "pivot".
	Method string `json:"method"`
	// LowerBound is the product of the domain sizes of the largest set (2^max|S| for boolean
	// options): no covering can be smaller.
	LowerBound int `json:"lower_bound"`
	// Optimal is true when len(Configs) is proven minimal.
	Optimal bool `json:"optimal"`
}

// Compress returns a covering of sets over n options: the exact minimum when the instance is
// small enough (Options.ExactMaxPairs) and the search finishes within its budgets, the greedy
// otherwise; Options.Method can force one. Method in the result says which answered.
func Compress(sets [][]int, n int, opts Options) (Result, error) {
	p, err := newProblem(sets, n, opts)
	if err != nil {
		return Result{}, err
	}
	lb := p.lowerBound()
	maxPairs := opts.ExactMaxPairs
	if maxPairs == 0 {
		maxPairs = 512
	}
	switch opts.Method {
	case "", "exact", "greedy":
	case "pivot":
		cfgs, err := PivotMerge(sets, n, opts)
		return Result{Configs: cfgs, Method: "pivot", LowerBound: lb, Optimal: len(cfgs) == lb}, err
	default:
		return Result{}, fmt.Errorf("compress: unknown method %q (want exact, greedy or pivot)", opts.Method)
	}
	if opts.Method == "exact" || (opts.Method == "" && p.total <= maxPairs) {
		cfgs, optimal := p.minimal(opts)
		if optimal {
			return Result{Configs: cfgs, Method: "exact", LowerBound: lb, Optimal: true}, nil
		}
		return Result{Configs: cfgs, Method: "greedy", LowerBound: lb, Optimal: len(cfgs) == lb}, nil
	}
	cfgs := p.greedy(opts)
	return Result{Configs: cfgs, Method: "greedy", LowerBound: lb, Optimal: len(cfgs) == lb}, nil
}

// LowerBound returns the product of the domain sizes of the largest set: each configuration
// covers exactly one assignment of each set, so no covering is smaller.
func LowerBound(sets [][]int, n int, opts Options) (int, error) {
	p, err := newProblem(sets, n, opts)
	if err != nil {
		return 0, err
	}
	return p.lowerBound(), nil
}

// Verify checks that configs cover every assignment of every set, naming the first one missing.
func Verify(configs []Config, sets [][]int, n int, opts Options) error {
	p, err := newProblem(sets, n, opts)
	if err != nil {
		return err
	}
	for ci, c := range configs {
		if len(c) != n {
			return fmt.Errorf("compress: configuration %d has %d values, want %d", ci, len(c), n)
		}
		for o, v := range c {
			if v < 0 || v >= p.dom[o] {
				return fmt.Errorf("compress: configuration %d gives %s value %d outside [0,%d)", ci, p.name(o), v, p.dom[o])
			}
		}
	}
	for i := range p.sets {
		seen := make([]bool, p.size[i])
		for _, c := range configs {
			seen[p.index(i, c)] = true
		}
		for a, ok := range seen {
			if !ok {
				return fmt.Errorf("compress: no configuration covers %s", p.describe(i, a))
			}
		}
	}
	if len(configs) == 0 {
		return fmt.Errorf("compress: no configurations")
	}
	return nil
}

// problem is a validated, normalised instance.
type problem struct {
	n      int
	dom    []int
	names  []string
	sets   [][]int // each sorted, without duplicates, non-empty
	size   []int   // number of assignments of each set
	stride [][]int // mixed-radix place value of each set member
	total  int     // Σ size
}

func domainOf(domains []int, o int) int {
	if o < len(domains) && domains[o] > 0 {
		return domains[o]
	}
	return 2
}

func newProblem(sets [][]int, n int, opts Options) (*problem, error) {
	if n < 0 {
		return nil, fmt.Errorf("compress: negative number of options %d", n)
	}
	if len(opts.Domains) > n {
		return nil, fmt.Errorf("compress: %d domains given for %d options", len(opts.Domains), n)
	}
	p := &problem{n: n, dom: make([]int, n), names: opts.Names}
	for o := range p.dom {
		if o < len(opts.Domains) && opts.Domains[o] < 0 {
			return nil, fmt.Errorf("compress: option %s has negative domain size %d", p.name(o), opts.Domains[o])
		}
		p.dom[o] = domainOf(opts.Domains, o)
		if p.dom[o] < 1 {
			p.dom[o] = 1
		}
	}
	// Duplicate sets and duplicate members carry no information, and the taint analysis may
	// well repeat them; the empty set is covered by any configuration.
	seen := map[string]bool{}
	for si, s := range sets {
		norm := append([]int(nil), s...)
		sort.Ints(norm)
		k := 0
		for j, o := range norm {
			if o < 0 || o >= n {
				return nil, fmt.Errorf("compress: set %d names option %d, outside [0,%d)", si, o, n)
			}
			if j > 0 && o == norm[j-1] {
				continue
			}
			norm[k] = o
			k++
		}
		norm = norm[:k]
		if len(norm) == 0 {
			continue
		}
		key := fmt.Sprint(norm)
		if seen[key] {
			continue
		}
		seen[key] = true
		size := 1
		stride := make([]int, len(norm))
		for j, o := range norm {
			stride[j] = size
			size *= p.dom[o]
			if size > MaxPairsPerSet {
				return nil, fmt.Errorf("compress: set %d has more than %d assignments", si, MaxPairsPerSet)
			}
		}
		p.sets = append(p.sets, norm)
		p.size = append(p.size, size)
		p.stride = append(p.stride, stride)
		p.total += size
	}
	return p, nil
}

func (p *problem) name(o int) string {
	if o < len(p.names) && p.names[o] != "" {
		return p.names[o]
	}
	return fmt.Sprintf("o%d", o)
}

func (p *problem) lowerBound() int {
	lb := 1
	for _, s := range p.size {
		lb = max(lb, s)
	}
	return lb
}

// value is the value that assignment a of set i gives its j-th member.
func (p *problem) value(i, a, j int) int {
	return a / p.stride[i][j] % p.dom[p.sets[i][j]]
}

// index is the assignment of set i that configuration c (complete) agrees with.
func (p *problem) index(i int, c []int) int {
	a := 0
	for j, o := range p.sets[i] {
		a += c[o] * p.stride[i][j]
	}
	return a
}

func (p *problem) describe(i, a int) string {
	parts := make([]string, len(p.sets[i]))
	for j, o := range p.sets[i] {
		v := p.value(i, a, j)
		if p.dom[o] == 2 {
			parts[j] = fmt.Sprintf("%s=%t", p.name(o), v == 1)
		} else {
			parts[j] = fmt.Sprintf("%s=%d", p.name(o), v)
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// A partial configuration uses free for options not yet fixed.
const free = -1

func (p *problem) emptyPartial() []int {
	pc := make([]int, p.n)
	for o := range pc {
		pc[o] = free
	}
	return pc
}

// compatible reports whether partial configuration pc can be extended to agree with
// assignment a of set i, and how many free options that would fix.
func (p *problem) compatible(pc []int, i, a int) (ok bool, fixes int) {
	for j, o := range p.sets[i] {
		v := p.value(i, a, j)
		switch pc[o] {
		case free:
			fixes++
		case v:
		default:
			return false, 0
		}
	}
	return true, fixes
}

func (p *problem) apply(pc []int, i, a int) {
	for j, o := range p.sets[i] {
		pc[o] = p.value(i, a, j)
	}
}

// complete fixes the remaining free options to their default, value 0.
func complete(partials [][]int) []Config {
	out := make([]Config, len(partials))
	for k, pc := range partials {
		c := make(Config, len(pc))
		for o, v := range pc {
			if v != free {
				c[o] = v
			}
		}
		out[k] = c
	}
	return out
}

// allDefault is the answer when nothing needs covering: one run of the default configuration
// is still needed to measure anything at all.
func (p *problem) allDefault() []Config {
	return []Config{make(Config, p.n)}
}
