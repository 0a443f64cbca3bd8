package prism

import (
	binenc "encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
)

// Options control Build.
type Options struct {
	// Consts gives values to constants the model leaves undefined ("N=5", "p=0.3"), as
	// prism -const does.
	Consts map[string]string
	// MaxStates bounds the state space (default 10,000,000).
	MaxStates int
	// NoProbChecks accepts commands whose probabilities do not sum to 1, as prism
	// -noprobchecks does: each state's outgoing weights (those of every enabled command) are
	// then divided by their sum. For commands that sum to 1 this is PRISM's usual uniform
	// choice among the enabled commands, so only non-stochastic models answer differently.
	NoProbChecks bool
}

// Result is a built model and the variables' values in each state.
type Result struct {
	Model *dtmc.Model
	// Vars names the variables (globals first, then each module's, in declaration order);
	// States[s] are their values in state s (booleans as 0 and 1).
	Vars   []string
	States [][]int64
	// Deadlocks counts states without an enabled command, given a self-loop as PRISM does.
	Deadlocks int
}

// Undefined lists the constants the model declares without a value, in declaration order: the
// ones Options.Consts must give.
func Undefined(src string) ([]string, error) {
	f, err := parseFile(src)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range f.consts {
		if c.e == nil {
			out = append(out, c.name)
		}
	}
	return out, nil
}

// Parse reads a model in the PRISM language and builds its reachable state space. The model's
// variables become its dtmc.Vars, so properties can name them.
func Parse(src string, o Options) (*Result, error) {
	f, err := parseFile(src)
	if err != nil {
		return nil, err
	}
	return build(f, o)
}

type slot struct {
	name   string
	isBool bool
	lo, hi int64
	module int // -1 for globals
}

type builder struct {
	f       *file
	sc      *scope
	slots   []slot
	modules []*module
	// alphabet[a] lists the modules that have commands labelled a.
	alphabet map[string][]int
	actions  []string
	// noProbChecks: see Options.NoProbChecks.
	noProbChecks bool
}

func build(f *file, o Options) (*Result, error) {
	if o.MaxStates <= 0 {
		o.MaxStates = 10_000_000
	}
	b := &builder{f: f, alphabet: map[string][]int{}, noProbChecks: o.NoProbChecks}
	b.sc = &scope{slot: map[string]int{}, consts: map[string]value{}, formulas: f.formulas, active: map[string]bool{}}
	if err := b.constants(o.Consts); err != nil {
		return nil, err
	}
	if err := b.expandRenames(); err != nil {
		return nil, err
	}
	if err := b.variables(); err != nil {
		return nil, err
	}
	for mi, m := range b.modules {
		seen := map[string]bool{}
		for _, c := range m.cmds {
			if c.action != "" && !seen[c.action] {
				seen[c.action] = true
				if len(b.alphabet[c.action]) == 0 {
					b.actions = append(b.actions, c.action)
				}
				b.alphabet[c.action] = append(b.alphabet[c.action], mi)
			}
		}
	}
	sort.Strings(b.actions)
	return b.explore(o.MaxStates)
}

func (b *builder) constants(given map[string]string) error {
	declared := map[string]bool{}
	for _, c := range b.f.consts {
		declared[c.name] = true
	}
	for name := range given {
		if !declared[name] {
			return fmt.Errorf("constant %s given, but the model declares no such constant", name)
		}
	}
	for _, c := range b.f.consts {
		var v value
		if c.e != nil {
			if _, ok := given[c.name]; ok {
				return &Error{c.line, c.col, fmt.Sprintf("constant %s is defined in the model and given too", c.name)}
			}
			var err error
			if v, err = b.sc.eval(c.e); err != nil {
				return err
			}
		} else {
			text, ok := given[c.name]
			if !ok {
				return &Error{c.line, c.col, fmt.Sprintf("constant %s is undefined: give its value (--const %s=...)", c.name, c.name)}
			}
			switch c.typ {
			case "bool":
				bv, err := strconv.ParseBool(text)
				if err != nil {
					return fmt.Errorf("constant %s is a bool: %q is not true or false", c.name, text)
				}
				v = boolVal(bv)
			case "int":
				iv, err := strconv.ParseInt(text, 10, 64)
				if err != nil {
					return fmt.Errorf("constant %s is an int: %q is not an integer", c.name, text)
				}
				v = intVal(iv)
			default:
				dv, err := strconv.ParseFloat(text, 64)
				if err != nil || math.IsNaN(dv) || math.IsInf(dv, 0) {
					return fmt.Errorf("constant %s is a double: %q is not a number", c.name, text)
				}
				v = dblVal(dv)
			}
		}
		switch {
		case c.typ == "bool" && v.kind != 'b', c.typ == "int" && v.kind != 'i', c.typ == "double" && v.kind == 'b':
			return &Error{c.line, c.col, fmt.Sprintf("constant %s is declared %s but is %s", c.name, c.typ, v)}
		}
		if c.typ == "double" {
			v = dblVal(v.num())
		}
		b.sc.consts[c.name] = v
	}
	return nil
}

// expandRenames replaces each renamed module by a copy of its original with names substituted.
func (b *builder) expandRenames() error {
	byName := map[string]*module{}
	for _, m := range b.f.modules {
		byName[m.name] = m
	}
	for _, m := range b.f.modules {
		if m.from == "" {
			b.modules = append(b.modules, m)
			continue
		}
		orig, ok := byName[m.from]
		if !ok || orig.from != "" {
			return &Error{m.line, m.col, fmt.Sprintf("module %s renames %s, which is not a module declared in full", m.name, m.from)}
		}
		c := &module{line: m.line, col: m.col, name: m.name}
		for _, v := range orig.vars {
			nv := v
			if n, ok := m.renames[v.name]; ok {
				nv.name = n
			} else {
				return &Error{m.line, m.col, fmt.Sprintf("module %s must rename %s's variable %s", m.name, m.from, v.name)}
			}
			nv.lo, nv.hi, nv.init = renameOpt(v.lo, m.renames), renameOpt(v.hi, m.renames), renameOpt(v.init, m.renames)
			c.vars = append(c.vars, nv)
		}
		for _, cmd := range orig.cmds {
			nc := command{line: cmd.line, col: cmd.col, action: cmd.action, guard: rename(cmd.guard, m.renames)}
			if n, ok := m.renames[cmd.action]; ok && cmd.action != "" {
				nc.action = n
			}
			for _, u := range cmd.updates {
				nu := update{prob: renameOpt(u.prob, m.renames)}
				for _, a := range u.assigns {
					na := assign{line: a.line, col: a.col, name: a.name, e: rename(a.e, m.renames)}
					if n, ok := m.renames[a.name]; ok {
						na.name = n
					}
					nu.assigns = append(nu.assigns, na)
				}
				nc.updates = append(nc.updates, nu)
			}
			c.cmds = append(c.cmds, nc)
		}
		b.modules = append(b.modules, c)
	}
	return nil
}

func renameOpt(e expr, m map[string]string) expr {
	if e == nil {
		return nil
	}
	return rename(e, m)
}

func (b *builder) variables() error {
	add := func(v varDecl, module int) error {
		if _, dup := b.sc.slot[v.name]; dup {
			return &Error{v.line, v.col, fmt.Sprintf("variable %s is declared twice", v.name)}
		}
		if _, c := b.sc.consts[v.name]; c {
			return &Error{v.line, v.col, fmt.Sprintf("%s is a constant and a variable", v.name)}
		}
		s := slot{name: v.name, isBool: v.isBool, lo: 0, hi: 1, module: module}
		if !v.isBool {
			lo, err := b.sc.eval(v.lo)
			if err != nil {
				return err
			}
			hi, err := b.sc.eval(v.hi)
			if err != nil {
				return err
			}
			if lo.kind != 'i' || hi.kind != 'i' || lo.i > hi.i {
				return &Error{v.line, v.col, fmt.Sprintf("variable %s: range [%s..%s] is not an integer range", v.name, lo, hi)}
			}
			s.lo, s.hi = lo.i, hi.i
		}
		b.sc.slot[v.name] = len(b.slots)
		b.slots = append(b.slots, s)
		b.sc.isBool = append(b.sc.isBool, v.isBool)
		return nil
	}
	for _, v := range b.f.globals {
		if err := add(v, -1); err != nil {
			return err
		}
	}
	for mi, m := range b.modules {
		for _, v := range m.vars {
			if err := add(v, mi); err != nil {
				return err
			}
		}
	}
	if len(b.slots) == 0 {
		return fmt.Errorf("the model has no variables")
	}
	return nil
}

// initial returns the initial states.
func (b *builder) initial() ([][]int64, error) {
	decls := append([]varDecl(nil), b.f.globals...)
	for _, m := range b.modules {
		decls = append(decls, m.vars...)
	}
	if b.f.init == nil {
		st := make([]int64, len(b.slots))
		for k, v := range decls {
			st[k] = b.slots[k].lo
			if v.init == nil {
				continue
			}
			x, err := b.sc.eval(v.init)
			if err != nil {
				return nil, err
			}
			if x, err = b.fit(k, x, v.init); err != nil {
				return nil, err
			}
			st[k] = x.i
		}
		return [][]int64{st}, nil
	}
	for _, v := range decls {
		if v.init != nil {
			l, c := v.init.at()
			return nil, &Error{l, c, fmt.Sprintf("variable %s has an initial value and the model has init ... endinit: give one or the other", v.name)}
		}
	}
	// Every valuation satisfying the init expression.
	size := 1.0
	for _, s := range b.slots {
		size *= float64(s.hi - s.lo + 1)
	}
	if size > 1e7 {
		l, c := b.f.init.at()
		return nil, &Error{l, c, fmt.Sprintf("init ... endinit ranges over %.3g valuations; at most 10^7 are enumerated", size)}
	}
	var out [][]int64
	st := make([]int64, len(b.slots))
	for k := range st {
		st[k] = b.slots[k].lo
	}
	for {
		b.sc.state = st
		ok, err := b.sc.eval(b.f.init)
		if err != nil {
			return nil, err
		}
		if ok.kind != 'b' {
			return nil, errAt(b.f.init, "init ... endinit must be boolean")
		}
		if ok.b {
			out = append(out, append([]int64(nil), st...))
		}
		k := 0
		for ; k < len(st); k++ {
			if st[k] < b.slots[k].hi {
				st[k]++
				break
			}
			st[k] = b.slots[k].lo
		}
		if k == len(st) {
			break
		}
	}
	b.sc.state = nil
	if len(out) == 0 {
		return nil, errAt(b.f.init, "no state satisfies init ... endinit")
	}
	return out, nil
}

// fit checks that x may be stored in slot k and returns it as an int.
func (b *builder) fit(k int, x value, at expr) (value, error) {
	s := b.slots[k]
	if s.isBool {
		if x.kind != 'b' {
			return value{}, errAt(at, "%s is a bool: %s is not", s.name, x)
		}
		if x.b {
			return intVal(1), nil
		}
		return intVal(0), nil
	}
	if x.kind != 'i' {
		return value{}, errAt(at, "%s is an int: %s is not", s.name, x)
	}
	if x.i < s.lo || x.i > s.hi {
		return value{}, errAt(at, "%s=%d is outside its range [%d..%d]", s.name, x.i, s.lo, s.hi)
	}
	return x, nil
}

// choice is one resolution of a state's commands: a distribution over successors, with the
// action it carries.
type choice struct {
	action string
	to     [][]int64
	p      []float64
}

// enabled returns module mi's enabled commands with the given action.
func (b *builder) enabled(mi int, action string) ([]command, error) {
	var out []command
	for _, c := range b.modules[mi].cmds {
		if c.action != action {
			continue
		}
		g, err := b.sc.eval(c.guard)
		if err != nil {
			return nil, err
		}
		if g.kind != 'b' {
			return nil, errAt(c.guard, "a guard must be boolean, got %s", g)
		}
		if g.b {
			out = append(out, c)
		}
	}
	return out, nil
}

// describe writes a state as PRISM does, (x=1,y=true).
func (b *builder) describe(st []int64) string {
	parts := make([]string, len(st))
	for i, v := range st {
		val := strconv.FormatInt(v, 10)
		if b.slots[i].isBool {
			val = strconv.FormatBool(v != 0)
		}
		parts[i] = b.slots[i].name + "=" + val
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// updates evaluates a command's distribution as (probability, assignments) pairs.
type move struct {
	p       float64
	assigns map[int]int64
}

func (b *builder) moves(mi int, c command) ([]move, error) {
	var out []move
	var total float64
	for _, u := range c.updates {
		m := move{p: 1, assigns: map[int]int64{}}
		if u.prob != nil {
			v, err := b.sc.eval(u.prob)
			if err != nil {
				return nil, err
			}
			if v.kind == 'b' || v.num() < 0 || math.IsNaN(v.num()) {
				return nil, errAt(u.prob, "a probability must be a number ≥ 0, got %s", v)
			}
			m.p = v.num()
		}
		total += m.p
		for _, a := range u.assigns {
			k, ok := b.sc.slot[a.name]
			if !ok {
				return nil, &Error{a.line, a.col, fmt.Sprintf("%s is not a variable", a.name)}
			}
			if owner := b.slots[k].module; owner != mi && owner != -1 {
				return nil, &Error{a.line, a.col, fmt.Sprintf("module %s cannot update %s, a variable of module %s", b.modules[mi].name, a.name, b.modules[owner].name)}
			}
			x, err := b.sc.eval(a.e)
			if err != nil {
				return nil, err
			}
			if x, err = b.fit(k, x, a.e); err != nil {
				return nil, err
			}
			if _, dup := m.assigns[k]; dup {
				return nil, &Error{a.line, a.col, fmt.Sprintf("%s is updated twice", a.name)}
			}
			m.assigns[k] = x.i
		}
		if m.p > 0 {
			out = append(out, m)
		}
	}
	if math.Abs(total-1) > 1e-9 && !b.noProbChecks {
		return nil, &Error{c.line, c.col, fmt.Sprintf("the command's probabilities sum to %v, not 1: not a DTMC (--no-prob-checks normalises each state's weights, as prism -noprobchecks)", total)}
	}
	return out, nil
}

// choices lists the state's choices: every enabled unlabelled command of every module, and for
// every action each combination of one enabled command per module that has the action.
func (b *builder) choices(st []int64) ([]choice, error) {
	b.sc.state = st
	defer func() { b.sc.state = nil }()
	var out []choice
	apply := func(ms [][]move, action string) error {
		ch := choice{action: action}
		var rec func(k int, p float64, assigns map[int]int64) error
		rec = func(k int, p float64, assigns map[int]int64) error {
			if k == len(ms) {
				next := append([]int64(nil), st...)
				for slot, v := range assigns {
					next[slot] = v
				}
				ch.to = append(ch.to, next)
				ch.p = append(ch.p, p)
				return nil
			}
			for _, m := range ms[k] {
				merged := assigns
				if len(ms) > 1 {
					merged = map[int]int64{}
					for s, v := range assigns {
						merged[s] = v
					}
					for s, v := range m.assigns {
						if _, clash := merged[s]; clash {
							return fmt.Errorf("modules synchronising on [%s] both update the global %s", action, b.slots[s].name)
						}
						merged[s] = v
					}
				} else {
					merged = m.assigns
				}
				if err := rec(k+1, p*m.p, merged); err != nil {
					return err
				}
			}
			return nil
		}
		if err := rec(0, 1, map[int]int64{}); err != nil {
			return err
		}
		out = append(out, ch)
		return nil
	}
	for mi := range b.modules {
		cmds, err := b.enabled(mi, "")
		if err != nil {
			return nil, err
		}
		for _, c := range cmds {
			ms, err := b.moves(mi, c)
			if err != nil {
				return nil, err
			}
			if err := apply([][]move{ms}, ""); err != nil {
				return nil, err
			}
		}
	}
	for _, a := range b.actions {
		var per [][]command
		blocked := false
		for _, mi := range b.alphabet[a] {
			cmds, err := b.enabled(mi, a)
			if err != nil {
				return nil, err
			}
			if len(cmds) == 0 {
				blocked = true
				break
			}
			per = append(per, cmds)
		}
		if blocked {
			continue
		}
		// Each combination of one command per module is a choice.
		idx := make([]int, len(per))
		for {
			var ms [][]move
			for k, cmds := range per {
				m, err := b.moves(b.alphabet[a][k], cmds[idx[k]])
				if err != nil {
					return nil, err
				}
				ms = append(ms, m)
			}
			if err := apply(ms, a); err != nil {
				return nil, err
			}
			k := 0
			for ; k < len(idx); k++ {
				if idx[k]+1 < len(per[k]) {
					idx[k]++
					break
				}
				idx[k] = 0
			}
			if k == len(idx) {
				break
			}
		}
	}
	return out, nil
}

func key(st []int64) string {
	buf := make([]byte, 0, 8*len(st))
	for _, v := range st {
		buf = binenc.AppendVarint(buf, v)
	}
	return string(buf)
}

// explore builds the reachable state space breadth first. Where several commands are enabled
// the DTMC chooses among them uniformly, as PRISM builds DTMCs; a state with none gets a
// self-loop and the label "deadlock".
func (b *builder) explore(maxStates int) (*Result, error) {
	inits, err := b.initial()
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	var states [][]int64
	addState := func(st []int64) (int, error) {
		k := key(st)
		if i, ok := index[k]; ok {
			return i, nil
		}
		if len(states) >= maxStates {
			return 0, fmt.Errorf("the state space exceeds %d states", maxStates)
		}
		index[k] = len(states)
		states = append(states, st)
		return len(states) - 1, nil
	}
	for _, st := range inits {
		if _, err := addState(st); err != nil {
			return nil, err
		}
	}
	type trans struct {
		from, to int
		p        float64
	}
	var ts []trans
	// Transition rewards per (from, to), weighted by each choice's probability of that
	// transition, divided by the transition's probability at the end: the expected reward of
	// a step is then the choices' rewards weighted by the choices' probabilities.
	transReward := make([]map[[2]int]float64, len(b.f.rewards))
	for i := range transReward {
		transReward[i] = map[[2]int]float64{}
	}
	var deadlocks []int
	for s := 0; s < len(states); s++ {
		chs, err := b.choices(states[s])
		if err != nil {
			return nil, err
		}
		if len(chs) == 0 {
			deadlocks = append(deadlocks, s)
			ts = append(ts, trans{s, s, 1})
			continue
		}
		w, sum := 1/float64(len(chs)), 0.0
		if b.noProbChecks {
			// Divided, not multiplied by 1/sum: a sum of tiny weights has no finite inverse.
			for _, ch := range chs {
				for _, p := range ch.p {
					sum += p
				}
			}
			if sum == 0 || math.IsInf(sum, 0) {
				return nil, fmt.Errorf("state %s: the enabled commands' weights sum to %v: no distribution", b.describe(states[s]), sum)
			}
		}
		for _, ch := range chs {
			for i, to := range ch.to {
				t, err := addState(to)
				if err != nil {
					return nil, err
				}
				p := w * ch.p[i]
				if sum > 0 {
					p = ch.p[i] / sum
				}
				ts = append(ts, trans{s, t, p})
				for ri, r := range b.f.rewards {
					for _, it := range r.items {
						if !it.trans || it.action != ch.action {
							continue
						}
						v, err := b.itemValue(it, states[s])
						if err != nil {
							return nil, err
						}
						if v != 0 {
							transReward[ri][[2]int{s, t}] += p * v
						}
					}
				}
			}
		}
	}
	db := dtmc.NewBuilder(len(states))
	// Merge transitions to the same target (several commands can lead there).
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].from != ts[j].from {
			return ts[i].from < ts[j].from
		}
		return ts[i].to < ts[j].to
	})
	prob := map[[2]int]float64{}
	for i := 0; i < len(ts); {
		j := i
		var p float64
		for ; j < len(ts) && ts[j].from == ts[i].from && ts[j].to == ts[i].to; j++ {
			p += ts[j].p
		}
		db.Add(ts[i].from, ts[i].to, p)
		prob[[2]int{ts[i].from, ts[i].to}] = p
		i = j
	}
	for _, st := range inits {
		db.AddInit(index[key(st)], 1/float64(len(inits)))
	}
	for _, name := range b.f.lorder {
		db.DeclareLabel(name)
		for s, st := range states {
			b.sc.state = st
			v, err := b.sc.eval(b.f.labels[name])
			if err != nil {
				return nil, err
			}
			if v.kind != 'b' {
				return nil, errAt(b.f.labels[name], "label %q must be boolean", name)
			}
			if v.b {
				db.Label(name, s)
			}
		}
	}
	b.sc.state = nil
	db.DeclareLabel("deadlock")
	for _, s := range deadlocks {
		db.Label("deadlock", s)
	}
	for ri, r := range b.f.rewards {
		name := r.name
		if name == "" {
			name = strconv.Itoa(ri + 1)
		}
		db.DeclareReward(name)
		for s, st := range states {
			for _, it := range r.items {
				if it.trans {
					continue
				}
				v, err := b.itemValue(it, st)
				if err != nil {
					return nil, err
				}
				if v != 0 {
					db.AddStateReward(name, s, v)
				}
			}
		}
		keys := make([][2]int, 0, len(transReward[ri]))
		for k := range transReward[ri] {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
		})
		for _, k := range keys {
			db.AddTransReward(name, k[0], k[1], transReward[ri][k]/prob[k])
		}
	}
	m, err := db.Build()
	if err != nil {
		return nil, err
	}
	res := &Result{Model: m, States: states, Deadlocks: len(deadlocks)}
	vars := &dtmc.Vars{Values: make([]int, 0, len(states)*len(b.slots))}
	for _, s := range b.slots {
		res.Vars = append(res.Vars, s.name)
		vars.Names = append(vars.Names, s.name)
		vars.Bool = append(vars.Bool, s.isBool)
	}
	for _, st := range states {
		for _, v := range st {
			vars.Values = append(vars.Values, int(v))
		}
	}
	m.Vars = vars
	return res, nil
}

func (b *builder) itemValue(it rewardItem, st []int64) (float64, error) {
	b.sc.state = st
	defer func() { b.sc.state = nil }()
	g, err := b.sc.eval(it.guard)
	if err != nil {
		return 0, err
	}
	if g.kind != 'b' {
		return 0, errAt(it.guard, "a reward's guard must be boolean")
	}
	if !g.b {
		return 0, nil
	}
	v, err := b.sc.eval(it.value)
	if err != nil {
		return 0, err
	}
	if v.kind == 'b' || v.num() < 0 || math.IsNaN(v.num()) || math.IsInf(v.num(), 0) {
		return 0, errAt(it.value, "a reward must be a finite number ≥ 0, got %s", v)
	}
	return v.num(), nil
}

// ParseConsts reads "N=5,p=0.3" into Options.Consts.
func ParseConsts(s string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(part, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if !ok || name == "" || val == "" {
			return nil, fmt.Errorf("constant %q: want NAME=VALUE", part)
		}
		out[name] = val
	}
	return out, nil
}
