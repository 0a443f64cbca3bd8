package study

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/taint"
)

// Space is the configuration space of the relevant options: those in some decision's
// influence set.
type Space struct {
	// Names are the relevant options, sorted; Options and Domains follow the same order.
	Names   []string
	Options []*sources.Option
	Domains []int
	// Sets are the distinct influence sets as indices into Names, largest first; SetNames
	// the same sets by name.
	Sets     [][]int
	SetNames [][]string
	all      *sources.Set
}

// NewSpace collects the distinct influence sets of the analysis's decisions. Relevant
// non-boolean options must have values (Request.Decls.Values): ConfigCrusher samples
// discretised domains.
func NewSpace(res *taint.Result) (*Space, error) {
	sp := &Space{all: res.Options}
	seen := map[string]bool{}
	var setNames [][]string
	for _, d := range res.Decisions {
		if len(d.Options) == 0 {
			continue
		}
		key := strings.Join(d.Options, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		setNames = append(setNames, d.Options)
	}
	rel := map[string]bool{}
	for _, s := range setNames {
		for _, o := range s {
			rel[o] = true
		}
	}
	for name := range rel {
		sp.Names = append(sp.Names, name)
	}
	sort.Strings(sp.Names)
	index := map[string]int{}
	for i, name := range sp.Names {
		index[name] = i
		o := res.Options.Lookup(name)
		sp.Options = append(sp.Options, o)
		sp.Domains = append(sp.Domains, domainOf(o))
	}
	if err := valuesMissing(sp.Options); err != nil {
		return nil, err
	}
	sort.Slice(setNames, func(i, j int) bool {
		if len(setNames[i]) != len(setNames[j]) {
			return len(setNames[i]) > len(setNames[j])
		}
		return strings.Join(setNames[i], ",") < strings.Join(setNames[j], ",")
	})
	for _, s := range setNames {
		var idx []int
		for _, o := range s {
			idx = append(idx, index[o])
		}
		sp.Sets = append(sp.Sets, idx)
	}
	sp.SetNames = setNames
	return sp, nil
}

// MaxSet is the size of the largest influence set: 2^MaxSet configurations is the lower bound
// for boolean options.
func (sp *Space) MaxSet() int {
	m := 0
	for _, s := range sp.Sets {
		m = max(m, len(s))
	}
	return m
}

// BruteForce is the number of configurations of every option found, relevant or not: the
// product of their domains.
func (sp *Space) BruteForce() *big.Int {
	n := big.NewInt(1)
	for _, o := range sp.all.Options {
		if d := domainOf(o); d > 0 {
			n.Mul(n, big.NewInt(int64(d)))
		}
	}
	return n
}

// Enumerable counts the options brute force would vary (those with a domain).
func (sp *Space) Enumerable() int {
	n := 0
	for _, o := range sp.all.Options {
		if domainOf(o) > 0 {
			n++
		}
	}
	return n
}

// domainOf is an option's number of values: 2 for booleans, its declared values otherwise,
// 0 when it has none (such an option keeps its default and cannot be enumerated).
// valuesMissing is the error for the options of opts that influence decisions but have no
// domain (neither boolean nor given values), naming where each is loaded; nil if there are none.
func valuesMissing(opts []*sources.Option) error {
	var missing []string
	for _, o := range opts {
		if domainOf(o) == 0 {
			missing = append(missing, fmt.Sprintf("%s (%s, %s)", o.Name, o.Type, o.Sites[0].Position))
		}
	}
	if len(missing) > 0 {
		return &sources.DeclError{Msg: fmt.Sprintf("non-boolean options influence decisions but have no values; give them with --values name=v1,v2: %s", strings.Join(missing, "; "))}
	}
	return nil
}

func domainOf(o *sources.Option) int {
	switch {
	case o.IsBool():
		return 2
	case len(o.Values) >= 2:
		return len(o.Values)
	}
	return 0
}

// Methods are the compression methods Compress takes.
var Methods = []string{"auto", "exact", "greedy", "pivot"}

// Compress finds a small set of configurations in which every influence set sees every
// assignment of its options. "auto" takes the exact minimum when the instance is small and
// the greedy cover otherwise.
func (sp *Space) Compress(method string) (compress.Result, error) {
	if !validMethod(method) {
		return compress.Result{}, &sources.DeclError{Msg: fmt.Sprintf("unknown --method %q (want %s)", method, strings.Join(Methods, ", "))}
	}
	if method == "auto" {
		method = ""
	}
	return compress.Compress(sp.Sets, len(sp.Names), compress.Options{Names: sp.Names, Domains: sp.Domains, Method: method})
}

func validMethod(m string) bool {
	for _, x := range Methods {
		if m == x {
			return true
		}
	}
	return false
}

// Setting is how one option of a configuration reaches the program.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Arg is the command-line argument, Env the environment entry, Key the configuration
	// file key; none for a declared source with no setter.
	Arg string `json:"arg,omitempty"`
	Env string `json:"env,omitempty"`
	Key string `json:"key,omitempty"`
}

// String is the setting as a user would type it.
func (s Setting) String() string {
	switch {
	case s.Arg != "":
		return s.Arg
	case s.Env != "":
		return s.Env
	case s.Key != "":
		return s.Key + ": " + s.Value + " (file)"
	}
	return s.Name + "=" + s.Value + " (declared)"
}

// Settings lists how a configuration's options that are not at their first value are set, each
// as its first site's setter says. Every run also sets the others, to their first values: see
// All.
func (sp *Space) Settings(c compress.Config) []Setting {
	var out []Setting
	for o, v := range c {
		if v != 0 {
			out = append(out, sp.setting(o, v))
		}
	}
	return out
}

// All lists how a run of the configuration sets every option, in the order of Names: a run
// passes the options at their first value too (false, or the first of --values), so that a
// program whose own default differs still runs the configuration named.
func (sp *Space) All(c compress.Config) []Setting {
	var out []Setting
	for o := range sp.Options {
		v := 0
		if o < len(c) {
			v = c[o]
		}
		out = append(out, sp.setting(o, v))
	}
	return out
}

// Values are each option's values as configurations index them.
func (sp *Space) Values() [][]string {
	var out [][]string
	for _, o := range sp.Options {
		out = append(out, o.Values)
	}
	return out
}

func (sp *Space) setting(o, v int) Setting {
	opt := sp.Options[o]
	s := Setting{Name: sp.Names[o], Value: value(opt, v)}
	switch set := opt.Sites[0].Set; {
	case set.Flag != "":
		s.Arg = set.Flag + "=" + s.Value
	case set.Env != "":
		s.Env = set.Env + "=" + s.Value
	case set.Key != "":
		s.Key = set.Key
	}
	return s
}

func value(o *sources.Option, v int) string {
	if o.IsBool() {
		return strconv.FormatBool(v == 1)
	}
	return o.Values[v]
}
