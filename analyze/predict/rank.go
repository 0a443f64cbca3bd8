package predict

import (
	"errors"
	"fmt"
	"sort"

	"github.com/augur-perf/augur/analyze/calls"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Ranking is every function a profile invoked, with its expected reward per call exclusive
// (its own statements) and inclusive (its callees' composed over the call graph).
type Ranking struct {
	// Reward is what the functions are ranked by.
	Reward string
	// Invoked are the rows of the functions invoked, in calls.Compose's order.
	Invoked []calls.Row
	// Graph is the call graph composed, with the call sites it could not compose.
	Graph *calls.Graph
}

// Rank ranks fns by reward under the profile p (named name in errors); reward "" is the first
// reward any function has, by name. A function measured on other source than fns is an error,
// and so is a reward no function has when none is given.
func Rank(fns []*frontend.Func, p *profile.Profile, name, reward string, opt checker.Options) (*Ranking, error) {
	if reward == "" {
		var names []string
		for _, fn := range fns {
			if sc, err := Baseline(fn, p, name); err == nil {
				names = append(names, sc.Rewards.Names()...)
			}
		}
		sort.Strings(names)
		if len(names) == 0 {
			return nil, ErrNoReward
		}
		reward = names[0]
	}
	excl := map[string]float64{}
	for _, fn := range fns {
		pf := p.Funcs[fn.Name]
		if pf == nil || pf.Invocations == 0 {
			continue
		}
		if pf.Hash != "" {
			if h, err := instrument.FuncHash(fn); err == nil && h != pf.Hash {
				return nil, fmt.Errorf("%s: %s was measured on other source (it changed since): profile it again", name, fn.Name)
			}
		}
		sc, err := Baseline(fn, p, name)
		if err != nil {
			return nil, err
		}
		if _, ok := sc.Rewards[reward]; !ok {
			continue // no statement of fn carries the reward: its own share is 0
		}
		out, err := sc.Predict(fn, Options{Checker: opt})
		if err != nil {
			return nil, err
		}
		for i, r := range out.Rewards {
			if r == reward {
				excl[fn.Name] = out.Values[i].Initial
			}
		}
	}
	g := calls.Build(fns)
	rows, err := calls.Compose(g, p, excl)
	if err != nil {
		return nil, err
	}
	r := &Ranking{Reward: reward, Graph: g}
	for _, row := range rows {
		if row.Invocations > 0 {
			r.Invoked = append(r.Invoked, row)
		}
	}
	return r, nil
}

// ErrNoReward is Rank's error when no reward is given and no function has one to rank by: it
// says that no function has a reward annotation and the profile no CPU time.
var ErrNoReward = errors.New("no function has a reward annotation (// @cost=1, say) and the profile has no CPU time: nothing to rank by")
