// Package pctl owns augur's property language: PRISM's syntax for DTMC properties (PCTL with
// reward and steady-state operators), its abstract syntax tree, its parser with column-accurate
// errors, and the reading of properties files.
//
// It knows nothing of models or numerics: whether a label or reward name exists, and what a
// property evaluates to, is the checker's business.
package pctl

// Node is any formula. Pos is the 1-based column (in runes) where the node starts in the text it
// was parsed from, so later errors (an unknown label, say) can point at it.
type Node interface {
	Pos() int
	String() string
}

// StateFormula is a formula that holds or not in a state, or, for the query forms (P=?, R=?,
// S=?), a numeric value per state.
type StateFormula interface {
	Node
	stateFormula()
}

// PathFormula is the argument of P [ ... ].
type PathFormula interface {
	Node
	pathFormula()
}

// pos is embedded by every node.
type pos struct{ Col int }

func (p pos) Pos() int { return p.Col }

// Bool is true or false.
type Bool struct {
	pos
	Value bool
}

// Label is an atomic proposition written "name".
type Label struct {
	pos
	Name string
}

// StateCmp compares the state index with a constant: s=8, s<3, s!=0. Var is the variable's name
// as written (augur's models have one variable, s).
type StateCmp struct {
	pos
	Var   string
	Op    CmpOp
	Value int
}

// Not is !F.
type Not struct {
	pos
	F StateFormula
}

// BinOp is one of the binary boolean connectives.
type BinOp int

const (
	And     BinOp = iota // &
	Or                   // |
	Implies              // =>
	Iff                  // <=>
)

// Binary is L op R.
type Binary struct {
	pos
	Op   BinOp
	L, R StateFormula
}

// CmpOp is a comparison operator in a bound or a state comparison.
type CmpOp int

const (
	Query CmpOp = iota // =? (only in bounds)
	LT                 // <
	LE                 // <=
	GT                 // >
	GE                 // >=
	EQ                 // =
	NE                 // !=
)

// Bound is the "=?" or "op value" part of P, R and S. A Query bound asks for the value; any other
// bound makes the operator a boolean state formula.
type Bound struct {
	Op    CmpOp
	Value float64
}

// Prob is P bound [ path ].
type Prob struct {
	pos
	Bound Bound
	Path  PathFormula
}

// Steady is S bound [ F ]: the long-run probability of being in a state satisfying F.
type Steady struct {
	pos
	Bound Bound
	F     StateFormula
}

// Reward is R{"name"} bound [ kind ]. RewardName is "" when no structure is named (the first
// one); RewardIndex is the 1-based index when written R{2}, else 0.
type Reward struct {
	pos
	RewardName  string
	RewardIndex int
	Bound       Bound
	Kind        RewardKind
}

// RewardKind is the argument of R [ ... ].
type RewardKind interface {
	Node
	rewardKind()
}

// Reach is F φ inside R: the reward accumulated until φ is reached.
type Reach struct {
	pos
	Target StateFormula
}

// Cumulative is C<=K (or C alone, total reward, when Total is true).
type Cumulative struct {
	pos
	K     int
	Total bool
}

// Instant is I=K: the expected state reward at step K.
type Instant struct {
	pos
	K int
}

// Next is X φ.
type Next struct {
	pos
	F StateFormula
}

// Until is L U R, or L U<=Bound R when Bounded.
type Until struct {
	pos
	L, R    StateFormula
	Bounded bool
	Bound   int
}

// Eventually is F φ, or F<=Bound φ when Bounded.
type Eventually struct {
	pos
	F       StateFormula
	Bounded bool
	Bound   int
}

// Globally is G φ, or G<=Bound φ when Bounded.
type Globally struct {
	pos
	F       StateFormula
	Bounded bool
	Bound   int
}

// Property is one entry of a properties file: an optional name ("name": P=? [...]), the formula,
// and the 1-based line it starts on.
type Property struct {
	Name    string
	Formula StateFormula
	Line    int
	Text    string
}

func (Bool) stateFormula()     {}
func (Label) stateFormula()    {}
func (StateCmp) stateFormula() {}
func (Not) stateFormula()      {}
func (Binary) stateFormula()   {}
func (Prob) stateFormula()     {}
func (Steady) stateFormula()   {}
func (Reward) stateFormula()   {}

func (Next) pathFormula()       {}
func (Until) pathFormula()      {}
func (Eventually) pathFormula() {}
func (Globally) pathFormula()   {}

func (Reach) rewardKind()      {}
func (Cumulative) rewardKind() {}
func (Instant) rewardKind()    {}
