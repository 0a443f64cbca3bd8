// Package html owns augur's HTML reports: one self-contained file (no network, no external
// asset: styles are inline, every chart is SVG drawn here) that shows an analysis as a person
// would rather look at it. For one function: its source as a heat map (one row per source line,
// each line's share of an expected reward, hottest lines red), its Markov model as a layered
// graph (decisions as diamonds, loops as back edges on the side, edges labelled with their
// probabilities), the scenarios side by side as bar charts with their error bars, and each
// reward's distribution per call as a histogram with its CDF. For whole packages: the ranking of
// functions by inclusive and exclusive expected reward.
//
// A report is plain data (Report) built from an analysis's results (Build, BuildRanking) and then
// rendered (Write), so rendering is deterministic and testable without Go source. Every element a
// test or a reader may want to find has an id, a class or data attributes (data-line,
// data-share, data-state, data-scenario, …).
//
// It may import the source, probe, analyze and markov groups to read their results; it must not
// run workloads, compute predictions of its own beyond the distributions it plots, or import cmd.
//
// Its size (about 1.7k lines) is one page per command — analyze, the ranking, options, the field
// report and fit — over one shared template, stylesheet and SVG drawing code; each page is its own
// file, and splitting them into packages would export the drawing helpers they all use.
package html

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/augur-perf/augur/analyze/calls"
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/markov/dist"
	"github.com/augur-perf/augur/source/frontend"
)

// Report is everything a page shows: a function's analysis, a ranking of packages, a
// configurable program's performance-influence model, a release's field report or the laws
// augur fit learnt.
type Report struct {
	Title    string
	Function *Function
	Ranking  *Ranking
	Options  *OptionsModel
	Field    *FieldReport
	Fit      *FitReport
}

// Function is the analysis of one function.
type Function struct {
	Name string
	// Position is where the function is declared (file:line, relative where possible).
	Position    string
	Profile     string
	Invocations uint64
	// Heat maps, one per reward: the first is the reward the hot spots are sorted by.
	Heat      []HeatMap
	Graph     *Graph
	Scenarios []string
	// Properties are the rows of the scenarios' table and bar charts.
	Properties    []Property
	Distributions []Distribution
	Notes         []string
}

// HeatMap is a function's source with each line's share of one reward.
type HeatMap struct {
	Reward string
	Unit   string
	Total  float64
	Lines  []Line
}

// Line is one source line of the function.
type Line struct {
	Number int
	Text   string
	// Statements says whether any statement of the model starts on the line; Executions and
	// Reward are its statements' expected executions and reward per invocation.
	Statements bool
	// Detail lists the line's statements one per line, each with its executions and reward
	// per invocation (a for header has three: init, condition, post).
	Detail     string
	Executions float64
	Reward     float64
	// Share is the line's share of the total; Level its colour, 0 (none) to Levels (the
	// hottest line of the function).
	Share float64
	Level int
}

// Levels is the number of colour levels of a heat map: the hottest line has this level.
const Levels = 9

// Property is one property's value in each scenario.
type Property struct {
	Name string
	Unit string
	// Cells are in the order of Function.Scenarios.
	Cells []Cell
}

// Cell is a property's value in one scenario, with its error bars where known.
type Cell struct {
	OK    bool
	Value float64
	// Why says why there is no value (OK false).
	Why  string
	Bars []ErrorBar
}

// ErrorBar is an interval around a value: a credible or confidence interval, or ± a standard
// error.
type ErrorBar struct {
	Kind   string // "bayesian", "bootstrap", "stderr"
	Label  string
	Lo, Hi float64
}

// Distribution is the distribution of one reward accumulated per call.
type Distribution struct {
	Reward      string
	Mean, SD    float64
	Values      []float64
	Probs       []float64
	Truncated   float64
	Percentiles []Percentile
}

// Percentile is one named percentile of a distribution.
type Percentile struct {
	Name  string
	Value float64
}

// Graph is a model's states and transitions.
type Graph struct {
	States, Transitions int
	// Init are the initial states.
	Init  []int
	Nodes []Node
	Edges []Edge
	// Omitted says why the graph is not drawn (too many states to read).
	Omitted string
}

// Node is one state of the model.
type Node struct {
	State int
	Line  int
	Text  string
	// Kind is "entry", "statement", "decision", "end", "panic" or "exit".
	Kind     string
	LoopHead bool
	Visits   float64
	// Level is the heat level of the state's share of the first heat map's reward.
	Level int
	// Title, when set, is the tooltip instead of the state's line, text and visits.
	Title string
}

// Edge is one transition.
type Edge struct {
	From, To int
	P        float64
	// Exact is the exact probability where known ("9/10").
	Exact string
	// Label, when set, is shown instead of the probability (a call graph's calls per invocation).
	Label string
}

// Ranking is the ranking of every invoked function of some packages.
type Ranking struct {
	Packages string
	Profile  string
	Reward   string
	Funcs    []calls.Row
	Dynamic  []string
	// Calls is the call graph among the ranked functions: a node per function, coloured by its
	// inclusive reward, an edge per caller and callee with the calls per invocation.
	Calls *Graph
}

// Analysis is what Build reads: the results of augur analyze for one function.
type Analysis struct {
	Func *frontend.Func
	// Outcomes are the baseline's, then every other scenario's (as predict gives them).
	Outcomes []*predict.Outcome
	// By is the reward the first heat map shows (default: the first reward).
	By string
	// Intervals are the baseline's error bars (--ci), Spreads its spreads (--spread): each
	// spread's reward gets its distribution plotted.
	Intervals []predict.Interval
	Spreads   []predict.Spread
	// Root shortens file names: positions under it are shown relative to it.
	Root string
}

// AnalysisOf is the analysis augur analyze reports: fn's outcomes with the heat map of reward
// by (default: the baseline's DefaultSort), the baseline's error bars and spreads when u holds
// them (u may be nil), and file names relative to the working directory.
func AnalysisOf(fn *frontend.Func, outs []*predict.Outcome, by string, u *predict.Uncertainty) Analysis {
	a := Analysis{Func: fn, Outcomes: outs, By: by}
	if a.By == "" && len(outs) > 0 {
		a.By = outs[0].DefaultSort()
	}
	if u != nil {
		a.Intervals, a.Spreads = u.Intervals, u.Spreads
	}
	a.Root, _ = os.Getwd()
	return a
}

// MaxGraphStates bounds the states drawn: a larger graph is no longer readable in a page.
const MaxGraphStates = 300

// Build turns an analysis into a report.
func Build(a Analysis) (*Report, error) {
	if a.Func == nil || len(a.Outcomes) == 0 || a.Outcomes[0].Synth == nil {
		return nil, fmt.Errorf("report: no analysis to show (the baseline has no model)")
	}
	fn, base := a.Func, a.Outcomes[0]
	// The page shows the text of the function's own file, in its own lines, even where a //line
	// directive names another (goyacc's output names the grammar, whose lines hold other text).
	tf := fn.Pkg.Fset.File(fn.Decl.Pos())
	lineAt := func(offset int) int { return tf.PositionFor(tf.Pos(offset), false).Line }
	pos := fn.Pkg.Fset.PositionFor(fn.Decl.Pos(), false)
	f := &Function{Name: fn.Name, Position: relative(a.Root, pos.Filename) + fmt.Sprintf(":%d", pos.Line),
		Profile: base.Scenario.ProfileName, Invocations: base.Func.Invocations}
	src, err := sourceLines(fn)
	if err != nil {
		return nil, err
	}
	rewards := slices.Clone(base.Rewards)
	if a.By != "" {
		if i := slices.Index(rewards, a.By); i > 0 {
			rewards = append([]string{a.By}, slices.Delete(rewards, i, i+1)...)
		} else if i < 0 {
			return nil, fmt.Errorf("report: no reward %q (the model has %s)", a.By, strings.Join(base.Rewards, ", "))
		}
	}
	stmts := base.HotSpots(fn)
	for i := range stmts {
		stmts[i].Line = lineAt(stmts[i].Offset)
	}
	for _, r := range rewards {
		f.Heat = append(f.Heat, heatMap(r, base.Units[r], pos.Line, src, stmts))
	}
	if len(f.Heat) == 0 {
		// No reward: the heat map still shows the source and each line's executions.
		f.Heat = append(f.Heat, heatMap("", "", pos.Line, src, stmts))
	}
	f.Graph = graphOf(fn, base, f.Heat[0], lineAt)
	for _, o := range a.Outcomes {
		f.Scenarios = append(f.Scenarios, o.Scenario.Name)
	}
	f.Properties = properties(a)
	for _, s := range a.Spreads {
		d, err := dist.Accumulated(base.Synth.Model, s.Reward, "end", dist.Options{})
		if err != nil {
			return nil, fmt.Errorf("report: the distribution of %s: %v", s.Reward, err)
		}
		dd := Distribution{Reward: s.Reward, Mean: s.Mean, SD: s.SD, Values: d.Values, Probs: d.Probs, Truncated: d.Truncated}
		for _, name := range []string{"p50", "p90", "p99"} {
			if v, ok := s.Percentiles[name]; ok {
				dd.Percentiles = append(dd.Percentiles, Percentile{name, v})
			}
		}
		f.Distributions = append(f.Distributions, dd)
	}
	for _, w := range base.Synth.Warnings {
		note := w.Msg
		if w.Pos.IsValid() {
			note = fmt.Sprintf("%s:%d:%d: %s", relative(a.Root, w.Pos.Filename), w.Pos.Line, w.Pos.Column, w.Msg)
		}
		f.Notes = append(f.Notes, note)
	}
	return &Report{Title: "augur: " + fn.Name, Function: f}, nil
}

// BuildRanking turns the ranking of packages (augur analyze PKGS) into a report.
func BuildRanking(packages, profile, reward string, rows []calls.Row, dynamic []string) *Report {
	return &Report{Title: "augur: " + packages, Ranking: &Ranking{Packages: packages, Profile: profile, Reward: reward, Funcs: rows, Dynamic: dynamic,
		Calls: callGraph(rows)}}
}

// callGraph draws the calls among the ranked functions; the roots (called by none of them) are
// its initial nodes.
func callGraph(rows []calls.Row) *Graph {
	g := &Graph{States: len(rows)}
	if len(rows) > MaxGraphStates {
		g.Omitted = fmt.Sprintf("%d functions: call graphs of more than %d are not drawn.", len(rows), MaxGraphStates)
		return g
	}
	index := map[string]int{}
	var most float64
	for i, r := range rows {
		index[r.Func] = i
		if finiteValue(r.Inclusive) {
			most = math.Max(most, r.Inclusive)
		}
	}
	called := make([]bool, len(rows))
	for i, r := range rows {
		callees := slices.Sorted(maps.Keys(r.Calls))
		for _, c := range callees {
			j, ok := index[c]
			if !ok || r.Calls[c] <= 0 {
				continue
			}
			if j != i {
				called[j] = true
			}
			g.Edges = append(g.Edges, Edge{From: i, To: j, P: r.Calls[c], Label: "×" + fmtG(r.Calls[c], 3)})
		}
		lv := 0
		if finiteValue(r.Inclusive) {
			lv = level(r.Inclusive, most)
		}
		g.Nodes = append(g.Nodes, Node{State: i, Kind: "function", Text: shortFunc(r.Func), Level: lv,
			Title: fmt.Sprintf("%s\n%d calls; per call: inclusive %s, exclusive %s", r.Func, r.Invocations, num(r.Inclusive), num(r.Exclusive))})
	}
	g.Transitions = len(g.Edges)
	for i := range rows {
		if !called[i] {
			g.Init = append(g.Init, i)
		}
	}
	return g
}

func finiteValue(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// sourceLines reads the function's lines, from its func keyword to its closing brace, in its own
// file (not one a //line directive names).
func sourceLines(fn *frontend.Func) ([]string, error) {
	fset := fn.Pkg.Fset
	start, end := fset.PositionFor(fn.Decl.Pos(), false), fset.PositionFor(fn.Decl.End(), false)
	data, err := os.ReadFile(start.Filename)
	if err != nil {
		return nil, fmt.Errorf("report: the source of %s: %v", fn.Name, err)
	}
	lines := strings.Split(string(data), "\n")
	if end.Line > len(lines) || start.Line < 1 {
		return nil, fmt.Errorf("report: %s changed since it was loaded (lines %d-%d of %d)", start.Filename, start.Line, end.Line, len(lines))
	}
	out := lines[start.Line-1 : end.Line]
	for i, l := range out {
		out[i] = strings.TrimRight(l, "\r")
	}
	return out, nil
}

func relative(root, file string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return file
}

// heatMap gives each source line (first is the line number of src[0]) its statements' share of
// reward; without a reward, of the executions.
func heatMap(reward, unit string, first int, src []string, stmts []predict.Stmt) HeatMap {
	h := HeatMap{Reward: reward, Unit: unit}
	h.Lines = make([]Line, len(src))
	for i, t := range src {
		h.Lines[i] = Line{Number: first + i, Text: t}
	}
	for _, st := range stmts {
		i := st.Line - first
		if i < 0 || i >= len(h.Lines) {
			continue
		}
		l := &h.Lines[i]
		l.Statements = true
		l.Executions += st.Executions
		r := st.Executions
		if reward != "" {
			r = st.Rewards[reward]
		}
		l.Reward += r
		if l.Detail != "" {
			l.Detail += "\n"
		}
		l.Detail += fmt.Sprintf("%s: %s executions", st.Text, num(st.Executions))
		if reward != "" {
			l.Detail += fmt.Sprintf(", %s %s", reward, num(r))
		}
	}
	var most float64
	for _, l := range h.Lines {
		h.Total += l.Reward
		most = math.Max(most, l.Reward)
	}
	for i := range h.Lines {
		l := &h.Lines[i]
		if h.Total > 0 {
			l.Share = l.Reward / h.Total
		}
		l.Level = level(l.Reward, most)
	}
	return h
}

// level is a value's colour level relative to the largest: the largest gets Levels, anything
// above zero at least 1.
func level(v, most float64) int {
	if v <= 0 || most <= 0 {
		return 0
	}
	return min(Levels, max(1, int(math.Ceil(Levels*v/most-1e-9))))
}

// graphOf lists the baseline model's states and transitions.
func graphOf(fn *frontend.Func, o *predict.Outcome, heat HeatMap, lineAt func(offset int) int) *Graph {
	m, res := o.Synth.Model, o.Synth
	g := &Graph{States: m.N, Transitions: m.NumTransitions()}
	if m.N > MaxGraphStates {
		g.Omitted = fmt.Sprintf("The model has %d states: graphs of more than %d states are not drawn (--emit dot writes it for Graphviz).", m.N, MaxGraphStates)
		return g
	}
	for _, e := range m.Init {
		g.Init = append(g.Init, e.State)
	}
	cfg := fn.CFG
	stateReward := make([]float64, m.N)
	var most float64
	for s := 0; s < m.N; s++ {
		nd := Node{State: s, Kind: "statement"}
		var texts []string
		for _, id := range res.Nodes[s] {
			c := cfg.Nodes[id]
			if nd.Line == 0 && c.Pos.Line != 0 {
				nd.Line = lineAt(c.Pos.Offset)
			}
			if c.Text != "" {
				texts = append(texts, c.Text)
			}
			nd.LoopHead = nd.LoopHead || c.LoopHead
			if o.Func.Invocations > 0 && id < len(o.Func.Nodes) {
				v := float64(o.Func.Nodes[id].Count) / float64(o.Func.Invocations)
				nd.Visits = math.Max(nd.Visits, v)
				if heat.Reward != "" {
					stateReward[s] += v * o.Scenario.Rewards[heat.Reward][id]
				}
			}
		}
		nd.Text = strings.Join(texts, "; ")
		switch {
		case slices.Contains(res.Nodes[s], cfg.End):
			nd.Kind, nd.Text = "end", "end"
		case slices.Contains(res.Nodes[s], cfg.Panic):
			nd.Kind, nd.Text = "panic", "panic"
		case slices.Contains(res.Nodes[s], cfg.Entry) && nd.Text == "":
			nd.Kind, nd.Text = "entry", "entry"
		}
		succ := 0
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if m.Col[k] != s {
				succ++
			}
		}
		if succ > 1 && nd.Kind == "statement" {
			nd.Kind = "decision"
		}
		most = math.Max(most, stateReward[s])
		g.Nodes = append(g.Nodes, nd)
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			e := Edge{From: s, To: m.Col[k], P: m.Prob[k]}
			if x := m.ExactProb(k); x != nil && !x.IsInt() {
				e.Exact = x.RatString()
			}
			if e.From == e.To && (nd.Kind == "end" || nd.Kind == "panic") {
				continue // an exit's self-loop only makes it absorbing
			}
			g.Edges = append(g.Edges, e)
		}
	}
	for s := range g.Nodes {
		g.Nodes[s].Level = level(stateReward[s], most)
	}
	return g
}

// properties gives every property's value in each scenario, with the baseline's intervals and
// any measured standard error as error bars.
func properties(a Analysis) []Property {
	var names []string
	for _, o := range a.Outcomes {
		for _, p := range o.Props {
			if !slices.Contains(names, p) {
				names = append(names, p)
			}
		}
	}
	var out []Property
	for _, name := range names {
		p := Property{Name: name, Unit: a.Outcomes[0].Units[rewardOf(name)]}
		numeric := false
		for i, o := range a.Outcomes {
			c := cell(o, name)
			if c.OK && i == 0 {
				for _, iv := range a.Intervals {
					if iv.Property != name {
						continue
					}
					c.Bars = append(c.Bars,
						ErrorBar{Kind: "bayesian", Label: fmt.Sprintf("Bayesian %g %%", 100*iv.Bayesian.Level), Lo: iv.Bayesian.Lo, Hi: iv.Bayesian.Hi},
						ErrorBar{Kind: "bootstrap", Label: fmt.Sprintf("bootstrap %g %%", 100*iv.Bootstrap.Level), Lo: iv.Bootstrap.Lo, Hi: iv.Bootstrap.Hi})
				}
			}
			if c.OK && o.StdErr[rewardOf(name)] > 0 {
				se := o.StdErr[rewardOf(name)]
				c.Bars = append(c.Bars, ErrorBar{Kind: "stderr", Label: "± one standard error", Lo: c.Value - se, Hi: c.Value + se})
			}
			numeric = numeric || c.OK
			p.Cells = append(p.Cells, c)
		}
		if numeric {
			out = append(out, p)
		}
	}
	return out
}

// cell is a scenario's value of a property, or why it has none (boolean results are left out:
// they have no bar).
func cell(o *predict.Outcome, prop string) Cell {
	if o.Why != "" {
		return Cell{Why: o.Why}
	}
	i := slices.Index(o.Props, prop)
	if i < 0 {
		return Cell{Why: "not a property of this scenario"}
	}
	if why := o.Unanswered[rewardOf(prop)]; why != "" {
		return Cell{Why: why}
	}
	r := o.Values[i]
	if r.Bool {
		return Cell{Why: "a true/false answer"}
	}
	if math.IsInf(r.Initial, 0) || math.IsNaN(r.Initial) {
		return Cell{Why: fmt.Sprintf("the value is %v", r.Initial)}
	}
	return Cell{OK: true, Value: r.Initial}
}

// rewardOf gives the reward of R{"name"}=? [ F "end" ] ("" for other properties).
func rewardOf(prop string) string {
	name, ok := strings.CutPrefix(prop, `R{"`)
	name, rest, ok2 := strings.Cut(name, `"}`)
	if !ok || !ok2 || rest != `=? [ F "end" ]` {
		return ""
	}
	return name
}
