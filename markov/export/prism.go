package export

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
)

// PRISMOptions tunes the PRISM language export.
type PRISMOptions struct {
	// Parametric turns the probabilities of every state with several successors into
	// constants declared without a value (`const double p3_1;`), the last successor taking
	// 1-(p3_1+...) so that each command sums to 1 whatever the values. The values of the
	// model at hand come back in PRISMModel.Consts. Constant names come from Model.Param where
	// set and are made up as p<state>_<i> otherwise.
	Parametric bool
	// Module and Var name the single module and its state variable; "main" and "s" if empty.
	Module, Var string
	// Params are constants declared without a value (const double n;), given when the model
	// is checked (augur check --const n=1000, prism -const n=1000): the parameters that Formulas
	// and Probs are expressions of.
	Params []string
	// Formulas are declared after Params, in order (a formula may use the ones before it).
	Formulas []Formula
	// Probs, where it has transition k, gives k's probability as a PRISM expression instead of
	// its value in the model (written in parentheses). The expressions of a state's transitions
	// must sum to 1 at every value of Params: the caller's to ensure. Not with Parametric.
	Probs map[int]string
}

// Formula is a PRISM formula: formula Name = Expr;.
type Formula struct {
	Name, Expr string
	// Comment, when set, is written on the line before the formula.
	Comment string
}

// Const is a constant of a parametric export and its value in the exported model.
type Const struct {
	Name  string
	Value float64
	// Exact is the exact value where the model has one.
	Exact *big.Rat
}

// PRISMModel is a model in the PRISM language.
type PRISMModel struct {
	// Text is the model file (.prism, .pm).
	Text string
	// Consts are the parametric constants in declaration order; empty unless Parametric.
	Consts []Const
}

// ConstFlag is the value for PRISM's -const option that gives every parametric constant its
// value in the exported model, e.g. "p3_1=0.25,p3_2=0.5".
func (p *PRISMModel) ConstFlag() string {
	parts := make([]string, len(p.Consts))
	for i, c := range p.Consts {
		parts[i] = c.Name + "=" + formatFloat(c.Value)
	}
	return strings.Join(parts, ",")
}

// ValuesFile lists the parametric constants one "name=value" per line, in declaration order,
// each as the exact fraction where the model has one (p19_true=10/11: the count ratio, not 16
// rounded digits), else as the shortest decimal of its float.
func (p *PRISMModel) ValuesFile() string {
	var b strings.Builder
	for _, c := range p.Consts {
		v := formatFloat(c.Value)
		if c.Exact != nil {
			v = c.Exact.RatString()
		}
		b.WriteString(c.Name + "=" + v + "\n")
	}
	return b.String()
}

// prismKeywords are PRISM's reserved words (PRISM manual, "Modules and variables", and the
// tokens of PrismParser.jj); none may be an identifier.
var prismKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`A bool clock const ctmc C double dtmc E endinit
		endinvariant endmodule endobservables endrewards endsystem false formula filter func F
		global G init invariant I int label max mdp min module X nondeterministic observable
		observables of Pmax Pmin P pomdp popta probabilistic prob pta rate rewards Rmax Rmin R S
		stochastic system true U W`) {
		prismKeywords[k] = true
	}
}

// isPRISMIdentifier reports whether s may name a module, variable, constant, action, label or
// reward structure in PRISM.
func isPRISMIdentifier(s string) bool {
	if s == "" || prismKeywords[s] {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// formatRat prints an exact probability as a PRISM expression: PRISM evaluates "1/3" as a
// double normally and exactly under -exact.
func formatRat(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.Num().String() + "/" + r.Denom().String()
}

// PRISM renders m in the PRISM language: one dtmc module with a single variable whose value is
// the state number, one command per state, a label per model label and a reward structure per
// model reward structure.
//
// Transition rewards become PRISM transition rewards on the state's command ([] s=3 : r; or
// [a] s=3 : r; when the command has action a), which gives every outgoing transition of the
// state the same reward; a state whose transition rewards differ by target cannot be written,
// and the export fails with an error naming it. Several initial states become an init...endinit block;
// PRISM treats them as a set (results per initial state), not as augur's distribution, so a
// non-uniform distribution is noted in a comment.
func PRISM(m *dtmc.Model, opt PRISMOptions) (*PRISMModel, error) {
	w := &prismWriter{m: m, opt: opt}
	if w.opt.Module == "" {
		w.opt.Module = "main"
	}
	if w.opt.Var == "" {
		w.opt.Var = "s"
	}
	ids := []string{w.opt.Module, w.opt.Var}
	ids = append(ids, w.opt.Params...)
	for _, f := range w.opt.Formulas {
		ids = append(ids, f.Name)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if !isPRISMIdentifier(id) {
			return nil, fmt.Errorf("PRISM language: %q is not a PRISM identifier", id)
		}
		if seen[id] {
			return nil, fmt.Errorf("PRISM language: %q is declared twice", id)
		}
		seen[id] = true
	}
	if err := w.write(); err != nil {
		return nil, err
	}
	return &PRISMModel{Text: w.b.String(), Consts: w.consts}, nil
}

type prismWriter struct {
	m      *dtmc.Model
	opt    PRISMOptions
	b      strings.Builder
	consts []Const
	// name is the constant written for transition k in parametric mode.
	name []string
	// action is the action label of state s's command.
	action []string
}

func (w *prismWriter) printf(format string, args ...any) { fmt.Fprintf(&w.b, format, args...) }

func (w *prismWriter) write() error {
	m := w.m
	if err := w.actions(); err != nil {
		return err
	}
	if w.opt.Parametric {
		if err := w.parameters(); err != nil {
			return err
		}
	}
	labels, err := w.labels()
	if err != nil {
		return err
	}
	rewards, err := w.rewards()
	if err != nil {
		return err
	}

	w.printf("// DTMC with %d states and %d transitions, exported by augur.\n", m.N, m.NumTransitions())
	w.printf("dtmc\n\n")
	if len(w.consts) > 0 || len(w.opt.Params) > 0 {
		for _, c := range w.opt.Params {
			w.printf("const double %s;\n", c)
		}
		for _, c := range w.consts {
			w.printf("const double %s;\n", c.Name)
		}
		w.printf("\n")
	}
	if len(w.opt.Formulas) > 0 {
		for _, f := range w.opt.Formulas {
			if f.Comment != "" {
				w.printf("// %s\n", f.Comment)
			}
			w.printf("formula %s = %s;\n", f.Name, f.Expr)
		}
		w.printf("\n")
	}
	v := w.opt.Var
	hi := m.N - 1
	if hi == 0 {
		// PRISM avoids one-value ranges (its own explicit importer widens them); the extra
		// value is unreachable.
		hi = 1
	}
	w.printf("module %s\n", w.opt.Module)
	if len(m.Init) == 1 {
		w.printf("  %s : [0..%d] init %d;\n\n", v, hi, m.Init[0].State)
	} else {
		w.printf("  %s : [0..%d];\n\n", v, hi)
	}
	for s := 0; s < m.N; s++ {
		w.command(s)
	}
	w.printf("endmodule\n")
	if len(m.Init) > 1 {
		uniform := true
		var weights []string
		for _, e := range m.Init {
			if math.Abs(e.P-1/float64(len(m.Init))) > dtmc.RowTolerance {
				uniform = false
			}
			weights = append(weights, fmt.Sprintf("%s=%d: %s", v, e.State, formatFloat(e.P)))
		}
		w.printf("\n")
		if !uniform {
			w.printf("// PRISM has initial states, not an initial distribution; augur's is %s.\n", strings.Join(weights, ", "))
		}
		w.printf("init\n  %s\nendinit\n", w.states(w.initStates()))
	}
	if labels != "" {
		w.printf("\n%s", labels)
	}
	if rewards != "" {
		w.printf("\n%s", rewards)
	}
	return nil
}

// actions picks each state's command action: the action its transitions share, or none when
// they differ (a PRISM command has one action; the differing ones go into a comment).
func (w *prismWriter) actions() error {
	m := w.m
	w.action = make([]string, m.N)
	if m.Action == nil {
		return nil
	}
	for s := 0; s < m.N; s++ {
		a, b := m.RowPtr[s], m.RowPtr[s+1]
		same := true
		for k := a; k < b; k++ {
			if act := m.Action[k]; act != "" && !isPRISMIdentifier(act) {
				return fmt.Errorf("PRISM language: action %q of transition %d -> %d is not a PRISM identifier", act, s, m.Col[k])
			}
			if m.Action[k] != m.Action[a] {
				same = false
			}
		}
		if same {
			w.action[s] = m.Action[a]
		}
	}
	return nil
}

// ParamNames names the parameters of m as the parametric PRISM export declares them: per
// transition, the constant standing for its probability ("" for the last successor of a state,
// which is 1 minus the others, and for states with one successor), and the constants with the
// model's values, in declaration order.
func ParamNames(m *dtmc.Model) ([]string, []Const, error) {
	w := &prismWriter{m: m, opt: PRISMOptions{Parametric: true, Module: "main", Var: "s"}}
	if err := w.parameters(); err != nil {
		return nil, nil, err
	}
	return w.name, w.consts, nil
}

// parameters names the constants of a parametric export.
func (w *prismWriter) parameters() error {
	m := w.m
	w.name = make([]string, m.NumTransitions())
	used := map[string]bool{w.opt.Module: true, w.opt.Var: true}
	if m.Param != nil {
		for _, p := range m.Param {
			if p != "" {
				if !isPRISMIdentifier(p) {
					return fmt.Errorf("PRISM language: parameter name %q is not a PRISM identifier", p)
				}
				if p == w.opt.Module || p == w.opt.Var {
					return fmt.Errorf("PRISM language: parameter name %q is also the module or variable name", p)
				}
				used[p] = true
			}
		}
	}
	declared := map[string]int{}
	for s := 0; s < m.N; s++ {
		a, b := m.RowPtr[s], m.RowPtr[s+1]
		// The last successor is 1 minus the others; a state with one successor has none.
		for k := a; k < b-1; k++ {
			name := ""
			if m.Param != nil {
				name = m.Param[k]
			}
			if name == "" {
				name = fmt.Sprintf("p%d_%d", s, k-a+1)
				for used[name] {
					name += "_"
				}
				used[name] = true
			}
			w.name[k] = name
			if i, ok := declared[name]; ok {
				if c := w.consts[i]; c.Value != m.Prob[k] {
					return fmt.Errorf("PRISM language: parameter %q stands for both %v and %v (transition %d -> %d)", name, c.Value, m.Prob[k], s, m.Col[k])
				}
				continue
			}
			declared[name] = len(w.consts)
			c := Const{Name: name, Value: m.Prob[k]}
			if m.Exact != nil {
				c.Exact = m.Exact[k]
			}
			w.consts = append(w.consts, c)
		}
	}
	return nil
}

func (w *prismWriter) prob(k int) string {
	if w.m.Exact != nil && w.m.Exact[k] != nil {
		return formatRat(w.m.Exact[k])
	}
	return formatFloat(w.m.Prob[k])
}

func (w *prismWriter) command(s int) {
	m, v := w.m, w.opt.Var
	a, b := m.RowPtr[s], m.RowPtr[s+1]
	w.printf("  [%s] %s=%d -> ", w.action[s], v, s)
	var names []string
	for k := a; k < b; k++ {
		if k > a {
			w.printf(" + ")
		}
		p := w.prob(k)
		switch {
		case w.opt.Probs != nil && w.opt.Probs[k] != "":
			p = "(" + w.opt.Probs[k] + ")"
		case !w.opt.Parametric || b-a == 1:
		case k < b-1:
			p = w.name[k]
			names = append(names, p)
		default:
			p = "1-(" + strings.Join(names, "+") + ")"
		}
		w.printf("%s:(%s'=%d)", p, v, m.Col[k])
	}
	w.printf(";")
	var notes []string
	if m.Line != nil && m.Line[s] != 0 {
		notes = append(notes, fmt.Sprintf("line:%d", m.Line[s]))
	}
	if m.Action != nil && w.action[s] == "" {
		var acts []string
		for k := a; k < b; k++ {
			if m.Action[k] != "" {
				acts = append(acts, fmt.Sprintf("%s'=%d [%s]", v, m.Col[k], m.Action[k]))
			}
		}
		if len(acts) > 0 {
			notes = append(notes, "actions: "+strings.Join(acts, ", "))
		}
	}
	if len(notes) > 0 {
		w.printf(" // %s", strings.Join(notes, " "))
	}
	w.printf("\n")
}

func (w *prismWriter) initStates() []int {
	st := make([]int, len(w.m.Init))
	for i, e := range w.m.Init {
		st[i] = e.State
	}
	return st
}

// states writes a set of states as a guard, merging runs of consecutive states into ranges.
func (w *prismWriter) states(st []int) string {
	if len(st) == 0 {
		return "false"
	}
	v := w.opt.Var
	var parts []string
	for i := 0; i < len(st); {
		j := i
		for j+1 < len(st) && st[j+1] == st[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprintf("%s=%d", v, st[i]))
		} else {
			parts = append(parts, fmt.Sprintf("(%s>=%d & %s<=%d)", v, st[i], v, st[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, " | ")
}

func (w *prismWriter) labels() (string, error) {
	m := w.m
	var b strings.Builder
	for _, name := range m.LabelNames() {
		st := m.Labels[name]
		switch name {
		case "init":
			// Built into PRISM as the initial states; the model may only agree.
			if fmt.Sprint(st) != fmt.Sprint(w.initStates()) {
				return "", fmt.Errorf("PRISM language: label \"init\" is built into PRISM as the initial states %v, and this model's \"init\" label is %v", w.initStates(), st)
			}
			continue
		case "deadlock":
			// Built into PRISM, where this export has no deadlocks (every state has a command).
			if len(st) > 0 {
				fmt.Fprintf(&b, "// The model's label \"deadlock\" (%s) is not exported: PRISM's built-in one takes its place.\n", w.states(st))
			}
			continue
		}
		if !isPRISMIdentifier(name) {
			return "", fmt.Errorf("PRISM language: label %q is not a PRISM identifier", name)
		}
		fmt.Fprintf(&b, "label \"%s\" = %s;\n", name, w.states(st))
	}
	return b.String(), nil
}

func (w *prismWriter) rewards() (string, error) {
	m, v := w.m, w.opt.Var
	var b strings.Builder
	for i, r := range m.Rewards {
		if !isPRISMIdentifier(r.Name) {
			return "", fmt.Errorf("PRISM language: reward structure name %q is not a PRISM identifier", r.Name)
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "rewards \"%s\"\n", r.Name)
		for s, x := range r.State {
			if x != 0 {
				fmt.Fprintf(&b, "  %s=%d : %s;\n", v, s, formatFloat(x))
			}
		}
		if r.Trans != nil {
			for s := 0; s < m.N; s++ {
				a, e := m.RowPtr[s], m.RowPtr[s+1]
				x := r.Trans[a]
				for k := a + 1; k < e; k++ {
					if r.Trans[k] != x {
						return "", w.targetDependent(r, s)
					}
				}
				if x != 0 {
					fmt.Fprintf(&b, "  [%s] %s=%d : %s;\n", w.action[s], v, s, formatFloat(x))
				}
			}
		}
		b.WriteString("endrewards\n")
	}
	return b.String(), nil
}

func (w *prismWriter) targetDependent(r *dtmc.Reward, s int) error {
	m := w.m
	var parts []string
	for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
		parts = append(parts, fmt.Sprintf("%d -> %d: %s", s, m.Col[k], formatFloat(r.Trans[k])))
	}
	return fmt.Errorf("PRISM language: reward structure %q gives the transitions of state %d different rewards (%s); the PRISM language attaches a transition reward to a command, not to a target, so it cannot express this. Export PRISM's explicit files (modelio.WritePRISMFiles) or Storm's (modelio.WriteStormFiles) instead, which keep per-transition rewards", r.Name, s, strings.Join(parts, ", "))
}

// Props renders properties as a PRISM properties file (.props), one per line. The
// properties are taken as written (in PRISM's syntax); a trailing ';' is dropped, since PRISM
// reads properties files with or without them.
func Props(props []string) (string, error) {
	var b strings.Builder
	b.WriteString("// Properties exported by augur.\n")
	for i, p := range props {
		p = strings.TrimSpace(p)
		p = strings.TrimSpace(strings.TrimSuffix(p, ";"))
		if p == "" {
			return "", fmt.Errorf("property %d is empty", i+1)
		}
		if strings.ContainsAny(p, "\n\r") {
			return "", fmt.Errorf("property %d spans several lines: %q", i+1, p)
		}
		b.WriteString(p)
		b.WriteString("\n")
	}
	return b.String(), nil
}
