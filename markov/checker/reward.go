package checker

import (
	"fmt"
	"math"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

func (e *evaluator) rewardStructure(f *pctl.Reward) (*dtmc.Reward, error) {
	if f.RewardIndex > 0 {
		if f.RewardIndex > len(e.m.Rewards) {
			return nil, &PositionError{f.Pos(), fmt.Sprintf("reward structure %d does not exist (the model has %d)", f.RewardIndex, len(e.m.Rewards))}
		}
		return e.m.Rewards[f.RewardIndex-1], nil
	}
	r, err := e.m.Reward(f.RewardName)
	if err != nil {
		return nil, &PositionError{f.Pos(), err.Error()}
	}
	return r, nil
}

func (e *evaluator) reward(f *pctl.Reward) (*values, error) {
	rew, err := e.rewardStructure(f)
	if err != nil {
		return nil, err
	}
	switch k := f.Kind.(type) {
	case *pctl.Reach:
		target, err := e.sat(k.Target)
		if err != nil {
			return nil, err
		}
		return e.reach(target, rew)
	case *pctl.Cumulative:
		if k.K == nil {
			return e.total(rew)
		}
		n, err := e.steps(k.K)
		if err != nil {
			return nil, err
		}
		return e.cumulative(rew, n), nil
	case *pctl.Instant:
		n, err := e.steps(k.K)
		if err != nil {
			return nil, err
		}
		return e.instant(rew, n), nil
	case *pctl.CoSafe:
		return e.coSafeReward(k, rew)
	case *pctl.LongRun:
		return e.longRunReward(rew)
	}
	return nil, fmt.Errorf("unsupported reward formula %s", f.Kind)
}

// reach is R[F φ] with PRISM's semantics: the reward gathered before φ is first reached, and +Inf
// from every state that reaches φ with probability below 1.
func (e *evaluator) reach(target []bool, rew *dtmc.Reward) (*values, error) {
	all := make([]bool, e.m.N)
	for i := range all {
		all[i] = true
	}
	yes := e.g.prob1(all, target, e.g.prob0(all, target))
	unknown := make([]bool, e.m.N)
	for s := range unknown {
		unknown[s] = yes[s] && !target[s]
	}
	known := func(s int) float64 {
		if target[s] {
			return 0
		}
		return math.Inf(1)
	}
	return e.solve(unknown, known, rew, false)
}

// total is R[C]: the reward gathered over the whole infinite run. It is infinite from every state
// that can reach a bottom component in which any reward is earned, and otherwise the reward gathered
// until a reward-free bottom component is entered.
func (e *evaluator) total(rew *dtmc.Reward) (*values, error) {
	earning := make([]bool, e.m.N)
	settled := make([]bool, e.m.N)
	for _, b := range e.g.bsccs() {
		positive := false
		for _, s := range b {
			if rew.State != nil && rew.State[s] > 0 {
				positive = true
			}
			for k := e.m.RowPtr[s]; k < e.m.RowPtr[s+1]; k++ {
				if rew.Trans != nil && rew.Trans[k] > 0 {
					positive = true
				}
			}
		}
		for _, s := range b {
			earning[s] = positive
			settled[s] = !positive
		}
	}
	inf := e.g.backward(earning, nil)
	unknown := make([]bool, e.m.N)
	for s := range unknown {
		unknown[s] = !inf[s] && !settled[s]
	}
	known := func(s int) float64 {
		if inf[s] {
			return math.Inf(1)
		}
		return 0
	}
	return e.solve(unknown, known, rew, false)
}

// stepReward is the expected reward of one step from s: its state reward plus the expected
// transition reward.
func stepReward(m *dtmc.Model, rew *dtmc.Reward, s int) float64 {
	r := 0.0
	if rew.State != nil {
		r = rew.State[s]
	}
	if rew.Trans != nil {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			r += m.Prob[k] * rew.Trans[k]
		}
	}
	return r
}

// cumulative is R[C<=k]: x⁰ = 0, xⁱ(s) = stepReward(s) + Σ_t P(s,t)·xⁱ⁻¹(t).
func (e *evaluator) cumulative(rew *dtmc.Reward, k int) *values {
	if e.opt.Method == Exact {
		return e.exactCumulative(rew, k)
	}
	step := make([]float64, e.m.N)
	for s := range step {
		step[s] = stepReward(e.m, rew, s)
	}
	return e.iterate(k, make([]float64, e.m.N), false, func(s int) float64 { return step[s] }, func(int) bool { return true })
}

// instant is R[I=k]: the expected state reward at step k, xⁱ = P·xⁱ⁻¹ from x⁰ = the state rewards.
func (e *evaluator) instant(rew *dtmc.Reward, k int) *values {
	if e.opt.Method == Exact {
		return e.exactInstant(rew, k)
	}
	start := make([]float64, e.m.N)
	if rew.State != nil {
		copy(start, rew.State)
	}
	return e.iterate(k, start, true, func(int) float64 { return 0 }, func(int) bool { return true })
}

// longRunReward is R[S]: the long-run average reward per step, Σ_s π(s)·stepReward(s) in each
// bottom component, weighted by the probability of reaching it. A transition reward counts with
// its transition's probability, as in PRISM.
func (e *evaluator) longRunReward(rew *dtmc.Reward) (*values, error) {
	if e.opt.Method == Exact {
		return e.exactLongRun(e.exactStepRewards(rew))
	}
	w := make([]float64, e.m.N)
	for s := range w {
		w[s] = stepReward(e.m, rew, s)
	}
	return e.longRun(w, false)
}
