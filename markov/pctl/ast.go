// Package pctl owns augur's property language: PRISM's syntax for DTMC properties (PCTL with
// reward, steady-state, filter and CTL-style E/A operators, LTL path formulas and co-safe LTL
// rewards, arithmetic over property values, constants and named properties), its abstract syntax
// tree, its parser with column-accurate errors, and the reading of properties files.
//
// It knows nothing of models or numerics: whether a label, variable or reward name exists, and
// what a property evaluates to, is the checker's business. It imports only the standard library.
//
// Its size (about 2k lines) is PRISM's whole property language: lexer, parser with column-accurate
// errors, syntax tree and printer, which must agree token for token; one package keeps the tokens
// and the parser's state unexported.
package pctl

// Node is any formula. Pos is the 1-based column (in runes) where the node starts in the text it
// was parsed from, so later errors (an unknown label, say) can point at it.
type Node interface {
	Pos() int
	String() string
}

// StateFormula is an expression evaluated in every state: Boolean (a formula that holds or not),
// or numeric (a query P=?, R=?, S=?, an arithmetic expression, a variable, a constant).
type StateFormula interface {
	Node
	stateFormula()
}

// PathFormula is the argument of P [ ... ], E [ ... ] and A [ ... ].
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

// Num is a numeric literal; Int says it was written without a fraction or exponent.
type Num struct {
	pos
	Value float64
	Int   bool
}

// Ident is a name: a state variable of the model (from PRISM's .sta file) or a constant. In a
// model without variables the name s means the state index, as augur's own models have one
// variable, s, which is the index.
type Ident struct {
	pos
	Name string
}

// StateIndex is #s, the index of the state, whatever variables the model has.
type StateIndex struct{ pos }

// Label is "name": an atomic proposition of the model or of the properties file, or a reference
// to the property of that name.
type Label struct {
	pos
	Name string
}

// NewLabel is the label name at column col: for a tool that puts a label in place of a formula it
// has evaluated, so that errors about it point at that formula.
func NewLabel(name string, col int) *Label { return &Label{pos{col}, name} }

// Not is !F.
type Not struct {
	pos
	F StateFormula
}

// BinOp is one of the binary Boolean or arithmetic operators.
type BinOp int

const (
	And     BinOp = iota // &
	Or                   // |
	Implies              // =>
	Iff                  // <=>
	Add                  // +
	Sub                  // -
	Mul                  // *
	Div                  // / (always real division, as in PRISM)
)

// Binary is L op R.
type Binary struct {
	pos
	Op   BinOp
	L, R StateFormula
}

// CmpOp is a comparison operator in a bound, a step bound or a comparison.
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

// Compare is L op R for op one of =, !=, <, <=, >, >=.
type Compare struct {
	pos
	Op   CmpOp
	L, R StateFormula
}

// Neg is -X.
type Neg struct {
	pos
	X StateFormula
}

// Ternary is Cond ? Then : Else.
type Ternary struct {
	pos
	Cond, Then, Else StateFormula
}

// Call is one of PRISM's built-in functions: min, max (two or more arguments), floor, ceil,
// round (one), pow, mod, log (two).
type Call struct {
	pos
	Name string
	Args []StateFormula
}

// Filter is filter(Op, Prop, States); States is nil when omitted (all states). Op is the
// operator's name, with PRISM's symbolic forms + & | read as sum, forall, exists.
type Filter struct {
	pos
	Op     string
	Prop   StateFormula
	States StateFormula
}

// Bound is the "=?" or "op value" part of P, R and S. A Query bound asks for the value; any other
// bound makes the operator a Boolean state formula. Expr is the bound when it is not a literal
// (a constant, say); Value is the literal otherwise.
type Bound struct {
	Op    CmpOp
	Value float64
	Expr  StateFormula
}

// Prob is P bound [ path ].
type Prob struct {
	pos
	Bound Bound
	Path  PathFormula
}

// Quant is E [ path ] (Forall false) or A [ path ] (Forall true): for a DTMC, P>0 and P>=1.
type Quant struct {
	pos
	Forall bool
	Path   PathFormula
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

// Cumulative is C<=K, or C alone (K nil): the total reward of the whole run.
type Cumulative struct {
	pos
	K StateFormula
}

// Instant is I=K: the expected state reward at step K.
type Instant struct {
	pos
	K StateFormula
}

// CoSafe is a co-safe LTL formula inside R, such as R=? [ (X "a") | F ("b" & X "c") ]: the reward
// gathered until the path read so far guarantees the formula.
type CoSafe struct {
	pos
	Path PathFormula
}

// LongRun is S inside R: the long-run average reward per step.
type LongRun struct{ pos }

// Steps is the time bound of a temporal operator: <=K, <K, >=K, >K, =K, or [Lo,Hi] when
// Interval is set. A nil *Steps is no bound.
type Steps struct {
	Op       CmpOp
	K        StateFormula
	Interval bool
	Lo, Hi   StateFormula
}

// Next is X φ.
type Next struct {
	pos
	F StateFormula
}

// TempOp is a binary temporal operator.
type TempOp int

const (
	U TempOp = iota // until
	W               // weak until
	R               // release
)

// Until is L U R, L W R or L R R, with an optional time bound.
type Until struct {
	pos
	Op    TempOp
	L, R  StateFormula
	Steps *Steps
}

// Eventually is F φ with an optional time bound.
type Eventually struct {
	pos
	F     StateFormula
	Steps *Steps
}

// Globally is G φ with an optional time bound.
type Globally struct {
	pos
	F     StateFormula
	Steps *Steps
}

// PathExpr is a path formula used as an operand inside P[...], E[...] or A[...]: of another
// temporal operator (F G "a"), or of a Boolean one ((F "a") & !(G "b")). Properties with one are
// LTL.
type PathExpr struct {
	pos
	P PathFormula
}

// LTL is an argument of P, E or A that is a Boolean combination of path formulas, such as
// (F "a") & !(G "b"); its path formulas are PathExpr nodes within F.
type LTL struct {
	pos
	F StateFormula
}

// Property is one entry of a properties file: an optional name ("name": P=? [...]), the formula,
// the 1-based line it starts on and its text. Err is set instead of Formula when the property
// does not parse: one bad property does not stop the others from being read.
type Property struct {
	Name    string
	Formula StateFormula
	Line    int
	Text    string
	Err     error
}

// Const is a constant declared in a properties file: const int N = 3; or const double p; (no
// value: it must be given from outside, as PRISM's -const does). Type is "int", "double" or
// "bool".
type Const struct {
	Name      string
	Type      string
	Value     StateFormula
	Line, Col int
}

// LabelDef is label "name" = expr; in a properties file.
type LabelDef struct {
	Name      string
	Expr      StateFormula
	Line, Col int
}

// File is a parsed properties file.
type File struct {
	Consts []Const
	Labels []LabelDef
	Props  []Property
}

func (Bool) stateFormula()       {}
func (Num) stateFormula()        {}
func (Ident) stateFormula()      {}
func (StateIndex) stateFormula() {}
func (Label) stateFormula()      {}
func (Not) stateFormula()        {}
func (Binary) stateFormula()     {}
func (Compare) stateFormula()    {}
func (Neg) stateFormula()        {}
func (Ternary) stateFormula()    {}
func (Call) stateFormula()       {}
func (Filter) stateFormula()     {}
func (Prob) stateFormula()       {}
func (Quant) stateFormula()      {}
func (Steady) stateFormula()     {}
func (Reward) stateFormula()     {}
func (PathExpr) stateFormula()   {}

func (Next) pathFormula()       {}
func (Until) pathFormula()      {}
func (Eventually) pathFormula() {}
func (Globally) pathFormula()   {}
func (LTL) pathFormula()        {}

func (Reach) rewardKind()      {}
func (Cumulative) rewardKind() {}
func (Instant) rewardKind()    {}
func (LongRun) rewardKind()    {}
func (CoSafe) rewardKind()     {}
