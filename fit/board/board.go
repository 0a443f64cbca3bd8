// Package board runs Beagle's loop on a trace: a blackboard holds the measurements, the
// proposals analysers post and the judge's decisions; analysers (Beagle's mean, linear
// regression, and Extra-P's normal-form search with a growing number of terms) read a view of
// the board and propose laws; a judge keeps, per quantity, the proposal with the lowest
// cross-validated error, preferring fewer terms, and the controller stops when a round improves
// no quantity or the budget is spent. The state is serialisable and the run deterministic, so a
// run can be resumed from its saved state. It owns the loop and the augur-fit/1 result; it must
// not read traces from programs (fit/trace does) nor build Markov models.
package board

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/augur-perf/augur/fit/pmnf"
	"github.com/augur-perf/augur/fit/trace"
)

// StateFormat and ResultFormat name the formats of the board's state and of its result.
const (
	StateFormat  = "augur-fit-board/1"
	ResultFormat = "augur-fit/1"
)

// Proposal is one analyser's law for one quantity in one round.
type Proposal struct {
	Round    int            `json:"round"`
	Analyser string         `json:"analyser"`
	Quantity string         `json:"quantity"`
	Law      pmnf.Candidate `json:"law"`
	// Error says why the analyser could not propose (too few sizes, say).
	Error string `json:"error,omitempty"`
}

// Judgement is the judge's choice for a quantity after a round: the index of the proposal kept.
type Judgement struct {
	Round    int    `json:"round"`
	Quantity string `json:"quantity"`
	Chosen   int    `json:"chosen"`
	Improved bool   `json:"improved"`
}

// State is the blackboard.
type State struct {
	Format     string      `json:"format"`
	Function   string      `json:"function"`
	Params     []string    `json:"params"`
	Quantities []string    `json:"quantities"`
	Samples    int         `json:"samples"`
	Round      int         `json:"round"`
	Done       bool        `json:"done"`
	Proposals  []Proposal  `json:"proposals"`
	Judgements []Judgement `json:"judgements"`
	History    []string    `json:"history"`
}

// Analyser proposes a law for a quantity from the samples, in a given round.
type Analyser interface {
	Name() string
	Propose(round int, samples []pmnf.Sample, params []string) (pmnf.Candidate, error)
}

// Mean is Beagle's baseline: the average, whatever the parameters.
type Mean struct{}

func (Mean) Name() string { return "mean" }
func (Mean) Propose(_ int, s []pmnf.Sample, params []string) (pmnf.Candidate, error) {
	return pmnf.FitHypothesis(s, params, nil, pmnf.ForSamples(s))
}

// Linear is plain linear regression on the parameters' values.
type Linear struct{}

func (Linear) Name() string { return "linear" }
func (Linear) Propose(_ int, s []pmnf.Sample, params []string) (pmnf.Candidate, error) {
	var h pmnf.Hypothesis
	for _, p := range params {
		if varies(s, p) {
			h = append(h, []pmnf.Factor{{Param: p, I: 1}})
		}
	}
	return pmnf.FitHypothesis(s, params, h, pmnf.ForSamples(s))
}

func varies(s []pmnf.Sample, p string) bool {
	for _, x := range s {
		if x.At[p] != s[0].At[p] {
			return true
		}
	}
	return false
}

// PMNF searches Extra-P's normal form with as many terms as the round's number (up to Max).
type PMNF struct{ Max int }

func (PMNF) Name() string { return "pmnf" }
func (a PMNF) Propose(round int, s []pmnf.Sample, params []string) (pmnf.Candidate, error) {
	o := pmnf.ForSamples(s)
	o.MaxTerms = min(round, max(a.Max, 1))
	fit, err := pmnf.Search(s, params, o)
	if err != nil {
		return pmnf.Candidate{}, err
	}
	return fit.Best, nil
}

// Logistic is logistic regression, for probabilities (CIPM's analyser of branch probabilities).
type Logistic struct{}

func (Logistic) Name() string { return "logistic" }
func (Logistic) Propose(_ int, s []pmnf.Sample, params []string) (pmnf.Candidate, error) {
	return pmnf.FitLogistic(s, params, pmnf.ForSamples(s))
}

// Tree is a regression tree (CART, depth 1 to 3), for probabilities: CIPM's decision trees of
// branch probabilities, the law of a threshold. Counts and times are left to the smooth forms,
// which extrapolate; a tree is flat beyond the sizes measured.
type Tree struct{}

func (Tree) Name() string { return "tree" }
func (Tree) Propose(_ int, s []pmnf.Sample, params []string) (pmnf.Candidate, error) {
	for k, x := range s {
		if x.Y < 0 || x.Y > 1 {
			return pmnf.Candidate{}, fmt.Errorf("sample %d is %v: trees are fitted to probabilities, in [0, 1]", k+1, x.Y)
		}
	}
	return pmnf.FitTree(s, params, pmnf.ForSamples(s))
}

// GP is symbolic regression by genetic programming, for laws the normal form cannot say (such
// as 100/(n + 5)): seeded by the round, so the board stays deterministic; its budget (30 s per
// quantity) is a safety net a search of its bounded size does not reach.
type GP struct{}

func (GP) Name() string { return "gp" }
func (GP) Propose(round int, s []pmnf.Sample, params []string) (pmnf.Candidate, error) {
	c, cut, err := pmnf.FitGP(s, params, pmnf.ForSamples(s), pmnf.GPOptions{Seed: uint64(round), Budget: 30 * time.Second})
	if err == nil && cut {
		err = fmt.Errorf("the search ran out of its time budget: its law would depend on this machine's speed")
	}
	return c, err
}

// DefaultAnalysers are the analysers Run uses when given none.
func DefaultAnalysers() []Analyser {
	return []Analyser{Mean{}, Linear{}, PMNF{Max: 2}, Logistic{}, Tree{}, GP{}}
}

// New starts a board for a trace's header and number of samples; besides the trace's quantities
// it fits each if's probability of true (see Samples).
func New(h trace.Header, samples int) *State {
	qs := append([]string(nil), h.Quantities...)
	for _, b := range branches(h) {
		qs = append(qs, b.name)
	}
	return &State{Format: StateFormat, Function: h.Function, Params: h.Params, Quantities: qs, Samples: samples,
		Proposals: []Proposal{}, Judgements: []Judgement{}, History: []string{}}
}

// branch is an if whose outcomes the trace counts: quantities true and false, and the name of
// its probability of true, branch@FILE:LINE:p.
type branch struct {
	name        string
	true, false int
}

func branches(h trace.Header) []branch {
	index := map[string]int{}
	for i, q := range h.Quantities {
		index[q] = i
	}
	var out []branch
	for i, q := range h.Quantities {
		if base, ok := strings.CutSuffix(q, ":true"); ok && strings.HasPrefix(q, "branch@") {
			if f, ok := index[base+":false"]; ok {
				out = append(out, branch{name: base + ":p", true: i, false: f})
			}
		}
	}
	return out
}

// Samples turns records into per-quantity samples. An if's probability of true,
// branch@FILE:LINE:p, has one sample per invocation that evaluated it: the share of its
// evaluations that were true.
func Samples(h trace.Header, recs []trace.Record) map[string][]pmnf.Sample {
	out := map[string][]pmnf.Sample{}
	bs := branches(h)
	for _, r := range recs {
		at := map[string]float64{}
		for i, p := range h.Params {
			at[p] = r.P[i]
		}
		for i, q := range h.Quantities {
			out[q] = append(out[q], pmnf.Sample{At: at, Y: r.Q[i]})
		}
		for _, b := range bs {
			if n := r.Q[b.true] + r.Q[b.false]; n > 0 {
				out[b.name] = append(out[b.name], pmnf.Sample{At: at, Y: r.Q[b.true] / n})
			}
		}
	}
	return out
}

// Run continues the loop from the state's round until the judge stops it or maxRounds rounds
// have run in all. Rounds are deterministic: the same trace and state give the same board.
func Run(st *State, samples map[string][]pmnf.Sample, analysers []Analyser, maxRounds int) {
	if analysers == nil {
		analysers = DefaultAnalysers()
	}
	for !st.Done && st.Round < maxRounds {
		st.Round++
		improvedAny := false
		for _, q := range st.Quantities {
			prev := st.best(q)
			for _, a := range analysers {
				c, err := a.Propose(st.Round, samples[q], st.Params)
				p := Proposal{Round: st.Round, Analyser: a.Name(), Quantity: q, Law: c}
				if err != nil {
					p = Proposal{Round: st.Round, Analyser: a.Name(), Quantity: q, Error: err.Error()}
				}
				st.Proposals = append(st.Proposals, p)
			}
			chosen := st.judge(q)
			improved := chosen >= 0 && (prev < 0 || better(st.Proposals[chosen].Law, st.Proposals[prev].Law))
			if !improved {
				chosen = prev
			}
			st.Judgements = append(st.Judgements, Judgement{Round: st.Round, Quantity: q, Chosen: chosen, Improved: improved})
			improvedAny = improvedAny || improved
		}
		st.History = append(st.History, fmt.Sprintf("round %d: %d analysers on %d quantities, improved: %v", st.Round, len(analysers), len(st.Quantities), improvedAny))
		if !improvedAny {
			st.Done = true
			st.History = append(st.History, fmt.Sprintf("stopped after round %d: no quantity improved", st.Round))
		}
	}
}

// better is the judge's order, Occam's as in pmnf: a law whose cross-validated error is below a
// third of the other's (or more than 5 points below it) wins; otherwise, of two laws that close,
// the one with fewer terms; then the lower fitness.
func better(a, b pmnf.Candidate) bool {
	clearly := func(x, y float64) bool { return x < y/3-1e-12 || x < y-0.05 }
	switch {
	case clearly(a.CVError, b.CVError):
		return true
	case clearly(b.CVError, a.CVError):
		return false
	case a.Expr.Complexity() != b.Expr.Complexity():
		return a.Expr.Complexity() < b.Expr.Complexity()
	}
	return a.Fitness < b.Fitness
}

// judge returns the best proposal of the current round for q (-1 if none).
func (st *State) judge(q string) int {
	best := -1
	for i, p := range st.Proposals {
		if p.Round != st.Round || p.Quantity != q || p.Error != "" {
			continue
		}
		if best < 0 || better(p.Law, st.Proposals[best].Law) {
			best = i
		}
	}
	return best
}

// best returns the proposal the latest judgement kept for q (-1 if none).
func (st *State) best(q string) int {
	for i := len(st.Judgements) - 1; i >= 0; i-- {
		if st.Judgements[i].Quantity == q {
			return st.Judgements[i].Chosen
		}
	}
	return -1
}

// Law is the result for one quantity.
type Law struct {
	Quantity string    `json:"quantity"`
	Analyser string    `json:"analyser"`
	Law      pmnf.Expr `json:"law"`
	Text     string    `json:"text"`
	CVError  float64   `json:"cv_error"`
	// Baselines are Beagle's mean and linear regression's cross-validated errors, for
	// comparison.
	Baselines map[string]float64    `json:"baselines"`
	Range     map[string][2]float64 `json:"range"`
	Warnings  []string              `json:"warnings,omitempty"`
	// Error says why no law was found.
	Error string `json:"error,omitempty"`
}

// Result is augur-fit/1: the laws of one function.
type Result struct {
	Format   string   `json:"format"`
	Function string   `json:"function"`
	Params   []string `json:"params"`
	Samples  int      `json:"samples"`
	Rounds   int      `json:"rounds"`
	Laws     []Law    `json:"laws"`
}

// Err says that nothing was learnt: every quantity's fit failed (or there was none).
func (r Result) Err() error {
	for _, l := range r.Laws {
		if l.Error == "" {
			return nil
		}
	}
	return fmt.Errorf("no quantity could be fitted")
}

// Result summarises the board: the law kept per quantity, with the baselines' errors and the
// range of parameters it was fitted on.
func (st *State) Result(samples map[string][]pmnf.Sample) Result {
	res := Result{Format: ResultFormat, Function: st.Function, Params: st.Params, Samples: st.Samples, Rounds: st.Round}
	for _, q := range st.Quantities {
		l := Law{Quantity: q, Baselines: map[string]float64{}, Range: map[string][2]float64{}}
		i := st.best(q)
		if i < 0 {
			var errs []string
			for _, p := range st.Proposals {
				if p.Quantity == q && p.Error != "" && p.Analyser == "pmnf" {
					errs = append(errs, p.Error)
				}
			}
			l.Error = "no analyser could fit it"
			if len(errs) > 0 {
				l.Error = errs[len(errs)-1]
			}
			res.Laws = append(res.Laws, l)
			continue
		}
		p := st.Proposals[i]
		l.Analyser, l.Law, l.Text, l.CVError = p.Analyser, p.Law.Expr, p.Law.Expr.String(), p.Law.CVError
		for _, b := range st.Proposals {
			if b.Quantity == q && b.Round == 1 && b.Error == "" && (b.Analyser == "mean" || b.Analyser == "linear") {
				l.Baselines[b.Analyser] = b.Law.CVError
			}
		}
		if fit, err := pmnf.Search(samples[q], st.Params, pmnf.Options{MaxTerms: 1}); err == nil {
			l.Range, l.Warnings = fit.Range, fit.Warnings
		} else {
			for _, s := range samples[q] {
				for p, x := range s.At {
					r, ok := l.Range[p]
					if !ok {
						r = [2]float64{x, x}
					}
					l.Range[p] = [2]float64{min(r[0], x), max(r[1], x)}
				}
			}
		}
		res.Laws = append(res.Laws, l)
	}
	sort.SliceStable(res.Laws, func(a, b int) bool { return res.Laws[a].Quantity < res.Laws[b].Quantity })
	return res
}

// WriteJSON writes v as indented JSON.
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadState reads a saved board.
func ReadState(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if st.Format != StateFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, st.Format, StateFormat)
	}
	return &st, nil
}

// ReadResult reads an augur-fit/1 file.
func ReadResult(path string) (*Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if r.Format != ResultFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, r.Format, ResultFormat)
	}
	return &r, nil
}
